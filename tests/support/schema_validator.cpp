#include "support/schema_validator.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace tapdiffgen::testing {
namespace {

using Type = ExactJson::Type;

bool digitsAt(const std::string& text, size_t at, size_t count) {
    if (at + count > text.size()) return false;
    return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(at),
                       text.begin() + static_cast<std::ptrdiff_t>(at + count),
                       [](char c) { return c >= '0' && c <= '9'; });
}

int numberAt(const std::string& text, size_t at, size_t count) {
    return std::stoi(text.substr(at, count));
}

bool leapYear(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

// YYYY-MM-DD at `at`.
bool isFullDate(const std::string& text, size_t at) {
    if (!digitsAt(text, at, 4) || text.size() < at + 10 || text[at + 4] != '-' ||
        !digitsAt(text, at + 5, 2) || text[at + 7] != '-' || !digitsAt(text, at + 8, 2)) {
        return false;
    }
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const int year = numberAt(text, at, 4);
    const int month = numberAt(text, at + 5, 2);
    const int day = numberAt(text, at + 8, 2);
    if (month < 1 || month > 12 || day < 1) return false;
    return day <= days[month - 1] + (month == 2 && leapYear(year) ? 1 : 0);
}

// HH:MM at `at`, hours below 24 and minutes below 60.
bool isHourMinute(const std::string& text, size_t at) {
    return digitsAt(text, at, 2) && text.size() > at + 2 && text[at + 2] == ':' &&
           digitsAt(text, at + 3, 2) && numberAt(text, at, 2) < 24 &&
           numberAt(text, at + 3, 2) < 60;
}

// Z, z or +HH:MM / -HH:MM from `at` to the end.
bool isOffset(const std::string& text, size_t at) {
    if (text.size() == at + 1) return text[at] == 'Z' || text[at] == 'z';
    return text.size() == at + 6 && (text[at] == '+' || text[at] == '-') &&
           isHourMinute(text, at + 1);
}

// HH:MM:SS[.frac] at `at`, then an offset (required or not) to the end.
bool isTime(const std::string& text, size_t at, bool offsetRequired) {
    if (!isHourMinute(text, at) || text.size() < at + 8 || text[at + 5] != ':' ||
        !digitsAt(text, at + 6, 2) || numberAt(text, at + 6, 2) > 59) {
        return false;
    }
    size_t end = at + 8;
    if (end < text.size() && text[end] == '.') {
        size_t digits = 0;
        while (end + 1 + digits < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[end + 1 + digits])))
            ++digits;
        if (digits == 0) return false;
        end += 1 + digits;
    }
    if (end == text.size()) return !offsetRequired;
    return isOffset(text, end);
}

bool isUuid(const std::string& text) {
    if (text.size() != 36) return false;
    for (size_t i = 0; i < text.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : !std::isxdigit(static_cast<unsigned char>(text[i])))
            return false;
    }
    return true;
}

bool matchesFormat(const std::string& format, const std::string& text) {
    if (format == "date") return text.size() == 10 && isFullDate(text, 0);
    if (format == "date-time") {
        return text.size() > 11 && isFullDate(text, 0) && (text[10] == 'T' || text[10] == 't') &&
               isTime(text, 11, true);
    }
    if (format == "time") return isTime(text, 0, true);
    if (format == "uuid") return isUuid(text);
    throw std::invalid_argument("unsupported format '" + format + "'");
}

// A JSON number literal's digits after the point, trailing zeros aside, the exponent counted:
// "1.50" 1, "15e-3" 3, "1.5E+3" 0.
int decimalsOf(const std::string& number) {
    const size_t exponentAt = number.find_first_of("eE");
    std::string mantissa = number.substr(0, exponentAt);
    const size_t dot = mantissa.find('.');
    int decimals = 0;
    if (dot != std::string::npos) {
        std::string fraction = mantissa.substr(dot + 1);
        while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
        decimals = static_cast<int>(fraction.size());
    }
    if (exponentAt != std::string::npos) decimals -= std::stoi(number.substr(exponentAt + 1));
    return std::max(decimals, 0);
}

// The k of a multipleOf 10^-k ("0.001" 3, "1" 0); throws for any other multipleOf.
int powerOfTenPlaces(const std::string& multipleOf) {
    if (multipleOf == "1") return 0;
    if (multipleOf.rfind("0.", 0) == 0 && multipleOf.back() == '1' &&
        multipleOf.find_first_not_of('0', 2) == multipleOf.size() - 1) {
        return static_cast<int>(multipleOf.size() - 2);
    }
    throw std::invalid_argument("unsupported multipleOf " + multipleOf);
}

bool hasType(const std::string& type, const ExactJson& instance) {
    switch (instance.type()) {
        case Type::Null:
            return type == "null";
        case Type::Bool:
            return type == "boolean";
        case Type::String:
            return type == "string";
        case Type::Array:
            return type == "array";
        case Type::Object:
            return type == "object";
        case Type::Number:
            return type == "number" || (type == "integer" && decimalsOf(instance.scalar()) == 0);
    }
    return false;
}

size_t codePoints(const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

// Keywords that describe without constraining.
bool isAnnotation(const std::string& keyword) {
    return keyword == "contentEncoding" || keyword == "title" || keyword == "description" ||
           keyword == "$comment";
}

std::string shown(const ExactJson& instance) {
    std::string text = instance.canonical();
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

class Validator {
public:
    std::vector<std::string> problems;

    void check(const ExactJson& schema, const ExactJson& instance, const std::string& where) {
        if (schema.type() != Type::Object) {
            problems.push_back(where + ": the schema is not an object");
            return;
        }
        for (const auto& [keyword, value] : schema.members()) {
            checkKeyword(keyword, value, instance, where);
        }
    }

private:
    void checkKeyword(const std::string& keyword, const ExactJson& value, const ExactJson& instance,
                      const std::string& where) {
        if (keyword == "type") {
            checkType(value, instance, where);
        } else if (keyword == "format") {
            if (instance.type() == Type::String &&
                !matchesFormat(value.scalar(), instance.scalar())) {
                problems.push_back(where + ": " + shown(instance) + " is not a " + value.scalar());
            }
        } else if (keyword == "multipleOf") {
            if (instance.type() == Type::Number &&
                decimalsOf(instance.scalar()) > powerOfTenPlaces(value.scalar())) {
                problems.push_back(where + ": " + instance.scalar() + " is not a multiple of " +
                                   value.scalar());
            }
        } else if (keyword == "items") {
            for (size_t i = 0; instance.type() == Type::Array && i < instance.items().size(); ++i) {
                check(value, instance.items()[i], where + "[" + std::to_string(i) + "]");
            }
        } else if (keyword == "anyOf") {
            checkAnyOf(value, instance, where);
        } else if (keyword == "required") {
            for (const ExactJson& name : value.items()) {
                const auto names = instance.memberNames();
                if (instance.type() == Type::Object &&
                    std::find(names.begin(), names.end(), name.scalar()) == names.end()) {
                    problems.push_back(where + ": required member '" + name.scalar() +
                                       "' is missing");
                }
            }
        } else if (keyword == "properties") {
            checkProperties(value, instance, where);
        } else if (keyword == "maxLength") {
            if (instance.type() == Type::String &&
                codePoints(instance.scalar()) > std::stoul(value.scalar())) {
                problems.push_back(where + ": " + shown(instance) + " is longer than " +
                                   value.scalar() + " characters");
            }
        } else if (!isAnnotation(keyword)) {
            problems.push_back(where + ": the schema has keyword '" + keyword +
                               "', which this validator does not know");
        }
    }

    void checkType(const ExactJson& value, const ExactJson& instance, const std::string& where) {
        std::vector<std::string> types;
        if (value.type() == Type::String) types.push_back(value.scalar());
        for (const ExactJson& type : value.items()) types.push_back(type.scalar());
        for (const std::string& type : types) {
            if (hasType(type, instance)) return;
        }
        problems.push_back(where + ": " + shown(instance) + " is not of type " + value.canonical());
    }

    void checkAnyOf(const ExactJson& value, const ExactJson& instance, const std::string& where) {
        for (const ExactJson& option : value.items()) {
            Validator one;
            one.check(option, instance, where);
            if (one.problems.empty()) return;
        }
        problems.push_back(where + ": " + shown(instance) + " matches no schema of anyOf");
    }

    void checkProperties(const ExactJson& value, const ExactJson& instance,
                         const std::string& where) {
        if (instance.type() != Type::Object) return;
        for (const auto& [name, member] : instance.members()) {
            for (const auto& [property, schema] : value.members()) {
                if (property == name) check(schema, member, where + "." + name);
            }
        }
    }
};

}  // namespace

std::vector<std::string> schemaViolations(const ExactJson& schema, const ExactJson& instance,
                                          const std::string& where) {
    Validator validator;
    validator.check(schema, instance, where);
    return validator.problems;
}

std::vector<std::string> undeclaredMembers(const ExactJson& schema, const ExactJson& record) {
    std::vector<std::string> undeclared;
    const std::vector<std::string> declared = schema.at("properties").memberNames();
    for (const std::string& name : record.memberNames()) {
        if (std::find(declared.begin(), declared.end(), name) == declared.end()) {
            undeclared.push_back(name);
        }
    }
    return undeclared;
}

std::vector<std::string> outputViolations(const std::vector<std::string>& lines) {
    std::vector<std::string> problems;
    std::map<std::string, ExactJson> schemas;
    for (size_t i = 0; i < lines.size(); ++i) {
        const ExactJson message = ExactJson::parse(lines[i]);
        const std::string type = message.at("type").scalar();
        if (type != "SCHEMA" && type != "RECORD") continue;
        const std::string stream = message.at("stream").scalar();
        if (type == "SCHEMA") {
            schemas[stream] = message.at("schema");
            continue;
        }
        const std::string where = "line " + std::to_string(i + 1) + " (" + stream + ")";
        auto schema = schemas.find(stream);
        if (schema == schemas.end()) {
            problems.push_back(where + ": a RECORD before any SCHEMA of its stream");
            continue;
        }
        for (std::string& problem : schemaViolations(schema->second, message.at("record"), where)) {
            problems.push_back(std::move(problem));
        }
        for (const std::string& name : undeclaredMembers(schema->second, message.at("record"))) {
            problems.push_back(where + ": member '" + name + "' is not in its SCHEMA");
        }
    }
    return problems;
}

}  // namespace tapdiffgen::testing
