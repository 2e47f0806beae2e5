#include "key_codec.hpp"

#include "tap-diffgen/sdk/key_text.hpp"

namespace tapdiffgen::postgres {
namespace {

// Types whose values a key text cannot name one to one, or that have no equality the index
// could serve: floating point (0.1 has no exact text), geometric types, xml, money (its text
// follows lc_monetary), interval (its text follows IntervalStyle, and '1 day' = '24 hours'),
// timetz (equal instants of other offsets). JSON documents and arrays are refused by kind.
constexpr Oid kNoKeyTypes[] = {
    700,   // real
    701,   // double precision
    142,   // xml
    600,   // point
    601,   // lseg
    602,   // path
    603,   // box
    604,   // polygon
    628,   // line
    718,   // circle
    790,   // money
    1186,  // interval
    1266,  // timetz
};

bool isClock(Conversion conversion) {
    return conversion == Conversion::Time || conversion == Conversion::Timestamp ||
           conversion == Conversion::TimestampTz;
}

}  // namespace

void describeKeyUse(const TypeFacts& facts, const TypeMapping& mapping, sdk::ColumnInfo& info) {
    info.keySupport = sdk::keySupportOfKind(mapping.kind);
    for (Oid refused : kNoKeyTypes) {
        if (facts.baseType == refused) info.keySupport = TDG_KEY_SUPPORT_NO;
    }
    if (mapping.conversion == Conversion::ArrayJson || mapping.conversion == Conversion::Float) {
        info.keySupport = TDG_KEY_SUPPORT_NO;
    }
    // time(p) and timestamp(p) keep p in the typmod; -1 is the default, microseconds.
    if (isClock(mapping.conversion)) info.scale = facts.typmod >= 0 ? facts.typmod : 6;
}

bool keyNeedsInputText(const PgColumn& column) { return column.conversion == Conversion::Bytes; }

std::string keyInputText(const PgColumn& column, std::string_view canonical) {
    if (column.conversion != Conversion::Bytes) return std::string(canonical);
    return "\\x" + std::string(canonical);
}

}  // namespace tapdiffgen::postgres
