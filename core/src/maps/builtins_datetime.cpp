// The datetime module as expressions use it: datetime.datetime, datetime.date and
// datetime.timedelta, their constructors, methods and attributes.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "maps/builtins.hpp"
#include "maps/datetime.hpp"

namespace tapdiffgen::core::maps {
namespace {

int64_t floorDays(int64_t micros) {
    return micros / kMicrosPerDay - (micros % kMicrosPerDay < 0 ? 1 : 0);
}

// datetime's fields in the order of its positional arguments.
constexpr std::string_view kFieldNames[] = {"year",   "month",  "day",        "hour",
                                            "minute", "second", "microsecond"};

// datetime(...) or date(...): its fields given by position, then by keyword, as Python takes
// them; year, month and day required, the time of day 0 where left out.
Value fromArguments(const Arguments& args, const Keywords& keywords, bool dateOnly) {
    const char* name = dateOnly ? "date" : "datetime";
    const size_t fieldCount = dateOnly ? 3 : 7;
    argumentCount(args, 3, fieldCount, name);
    const size_t positional = args.size() - keywords.size();
    std::array<std::optional<int64_t>, 7> fields{};
    for (size_t i = 0; i < positional; ++i) fields[i] = integerArgument(args[i], "argument");
    for (size_t k = 0; k < keywords.size(); ++k) {
        const auto* at =
            std::find(std::begin(kFieldNames), std::begin(kFieldNames) + fieldCount, keywords[k]);
        const auto field = static_cast<size_t>(at - std::begin(kFieldNames));
        if (field == fieldCount) {
            typeError("'" + keywords[k] + "' is an invalid keyword argument for " + name + "()");
        }
        if (fields[field]) {
            typeError("argument for " + std::string(name) + "() given by name ('" + keywords[k] +
                      "') and position (" + std::to_string(field + 1) + ")");
        }
        fields[field] = integerArgument(args[positional + k], "argument");
    }
    for (size_t i = 0; i < 3; ++i) {
        if (!fields[i]) {
            typeError(std::string(name) + "() missing required argument '" +
                      std::string(kFieldNames[i]) + "' (pos " + std::to_string(i + 1) + ")");
        }
    }
    const CivilTime civil{*fields[0],
                          *fields[1],
                          *fields[2],
                          fields[3].value_or(0),
                          fields[4].value_or(0),
                          fields[5].value_or(0),
                          fields[6].value_or(0)};
    return fromFields(civil, dateOnly);
}

Value datetimeCall(const Arguments& args, const Keywords& keywords) {
    return fromArguments(args, keywords, false);
}
Value dateCall(const Arguments& args, const Keywords& keywords) {
    return fromArguments(args, keywords, true);
}

Value nowCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 0, "now");
    return nowUtc(false);
}

Value utcnowCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 0, "utcnow");
    return nowUtc(false);
}

Value todayCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 0, 0, "today");
    return makeDate(nowUtc(false).integer / kMicrosPerDay);
}

Value isoParse(const Value& v, bool dateOnly) {
    if (v.isNull()) throw NullOperand{};
    if (v.type != ValueType::String) typeError("fromisoformat: argument must be str");
    auto parsed = parseIsoDateTime(v.text, dateOnly);
    if (!parsed) valueError("Invalid isoformat string: " + repr(v));
    return *parsed;
}

Value datetimeFromIso(const Value& v) { return isoParse(v, false); }
Value dateFromIso(const Value& v) { return isoParse(v, true); }

Value datetimeFromIsoCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 1, 1, "fromisoformat");
    return datetimeFromIso(args[0]);
}

Value dateFromIsoCall(const Arguments& args, const Keywords&) {
    argumentCount(args, 1, 1, "fromisoformat");
    return dateFromIso(args[0]);
}

struct TimeUnit {
    std::string_view name;
    double micros;
};

// timedelta's arguments in their positional order.
constexpr TimeUnit kTimeUnits[] = {{"days", 86400e6},     {"seconds", 1e6},  {"microseconds", 1},
                                   {"milliseconds", 1e3}, {"minutes", 60e6}, {"hours", 3600e6},
                                   {"weeks", 7 * 86400e6}};

Value timedeltaCall(const Arguments& args, const Keywords& keywords) {
    const size_t positional = args.size() - keywords.size();
    if (positional > std::size(kTimeUnits)) typeError("timedelta() takes at most 7 arguments");
    double micros = 0;
    auto add = [&](const Value& v, double unit) {
        if (v.isNull()) throw NullOperand{};
        if (!v.isNumber()) typeError("unsupported type for timedelta component: " + typeName(v));
        micros += v.asDouble() * unit;
    };
    for (size_t i = 0; i < positional; ++i) add(args[i], kTimeUnits[i].micros);
    for (size_t i = 0; i < keywords.size(); ++i) {
        const auto* unit = std::find_if(std::begin(kTimeUnits), std::end(kTimeUnits),
                                        [&](const TimeUnit& u) { return u.name == keywords[i]; });
        if (unit == std::end(kTimeUnits)) {
            typeError("'" + keywords[i] + "' is an invalid keyword argument for timedelta()");
        }
        add(args[positional + i], unit->micros);
    }
    return checkedTimeDelta(micros);
}

Value timeIsoformat(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 1, "isoformat");
    char separator = 'T';
    if (!args.empty()) {
        const std::string& s = stringArgument(args, 0, "isoformat");
        if (s.size() != 1) typeError("isoformat() argument 1 must be a unicode character");
        separator = s[0];
    }
    return Value::fromString(dateTimeText(self, separator));
}

Value timeStrftime(const Value& self, const Arguments& args) {
    argumentCount(args, 1, 1, "strftime");
    return Value::fromString(strftime(self, stringArgument(args, 0, "strftime")));
}

Value datetimeDate(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "date");
    return makeDate(floorDays(self.integer));
}

Value datetimeTimestamp(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "timestamp");
    return Value::fromFloat(
        static_cast<double>(self.integer - self.offsetSeconds * kMicrosPerSecond) /
        kMicrosPerSecond);
}

// Monday is 0; 1970-01-01 was a Thursday.
int64_t weekdayOf(const Value& self) { return ((floorDays(self.integer) % 7) + 7 + 3) % 7; }

Value timeWeekday(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "weekday");
    return Value::fromInt(weekdayOf(self));
}

Value timeIsoweekday(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "isoweekday");
    return Value::fromInt(weekdayOf(self) + 1);
}

Value deltaTotalSeconds(const Value& self, const Arguments& args) {
    argumentCount(args, 0, 0, "total_seconds");
    return Value::fromFloat(static_cast<double>(self.integer) / kMicrosPerSecond);
}

Value timeYear(const Value& self) { return Value::fromInt(civilFromMicros(self.integer).year); }
Value timeMonth(const Value& self) { return Value::fromInt(civilFromMicros(self.integer).month); }
Value timeDay(const Value& self) { return Value::fromInt(civilFromMicros(self.integer).day); }
Value timeHour(const Value& self) { return Value::fromInt(civilFromMicros(self.integer).hour); }
Value timeMinute(const Value& self) { return Value::fromInt(civilFromMicros(self.integer).minute); }
Value timeSecond(const Value& self) { return Value::fromInt(civilFromMicros(self.integer).second); }
Value timeMicrosecond(const Value& self) {
    return Value::fromInt(civilFromMicros(self.integer).micros);
}

// A timedelta is normalised as Python's: whole days (maybe negative), then 0 <= seconds < 86400.
Value deltaDays(const Value& self) { return Value::fromInt(floorDays(self.integer)); }
Value deltaSeconds(const Value& self) {
    const int64_t rest = self.integer - floorDays(self.integer) * kMicrosPerDay;
    return Value::fromInt(rest / kMicrosPerSecond);
}
Value deltaMicroseconds(const Value& self) {
    const int64_t rest = self.integer - floorDays(self.integer) * kMicrosPerDay;
    return Value::fromInt(rest % kMicrosPerSecond);
}

constexpr Function kDatetimeFunctions[] = {
    {"datetime.datetime", datetimeCall, nullptr, true, true},
    {"datetime.datetime.now", nowCall, nullptr, false, false},
    {"datetime.datetime.utcnow", utcnowCall, nullptr, false, false},
    {"datetime.datetime.fromisoformat", datetimeFromIsoCall, datetimeFromIso, false, true},
    {"datetime.date", dateCall, nullptr, true, true},
    {"datetime.date.today", todayCall, nullptr, false, false},
    {"datetime.date.fromisoformat", dateFromIsoCall, dateFromIso, false, true},
    {"datetime.timedelta", timedeltaCall, nullptr, true, true},
};

constexpr MethodEntry kDatetimeMethods[] = {
    {"isoformat", Receiver::DateTime, timeIsoformat},
    {"isoformat", Receiver::Date, timeIsoformat},
    {"strftime", Receiver::DateTime, timeStrftime},
    {"strftime", Receiver::Date, timeStrftime},
    {"date", Receiver::DateTime, datetimeDate},
    {"timestamp", Receiver::DateTime, datetimeTimestamp},
    {"weekday", Receiver::DateTime, timeWeekday},
    {"weekday", Receiver::Date, timeWeekday},
    {"isoweekday", Receiver::DateTime, timeIsoweekday},
    {"isoweekday", Receiver::Date, timeIsoweekday},
    {"total_seconds", Receiver::TimeDelta, deltaTotalSeconds},
};

constexpr AttributeEntry kDatetimeAttributes[] = {
    {"year", Receiver::DateTime, timeYear},
    {"year", Receiver::Date, timeYear},
    {"month", Receiver::DateTime, timeMonth},
    {"month", Receiver::Date, timeMonth},
    {"day", Receiver::DateTime, timeDay},
    {"day", Receiver::Date, timeDay},
    {"hour", Receiver::DateTime, timeHour},
    {"minute", Receiver::DateTime, timeMinute},
    {"second", Receiver::DateTime, timeSecond},
    {"microsecond", Receiver::DateTime, timeMicrosecond},
    {"days", Receiver::TimeDelta, deltaDays},
    {"seconds", Receiver::TimeDelta, deltaSeconds},
    {"microseconds", Receiver::TimeDelta, deltaMicroseconds},
};

}  // namespace

std::span<const Function> datetimeFunctions() { return kDatetimeFunctions; }
std::span<const MethodEntry> datetimeMethods() { return kDatetimeMethods; }
std::span<const AttributeEntry> datetimeAttributes() { return kDatetimeAttributes; }

}  // namespace tapdiffgen::core::maps
