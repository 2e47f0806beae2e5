// Every cell a table case reads, written as the tap writes it into a RECORD (core's
// appendCellJson) and checked against its column's schema as the tap's SCHEMA message carries
// it (nullable unless a key), with a strict JSON Schema Draft 7 validator that checks formats
// (tests/support/schema_validator.hpp: format time is RFC 3339's full-time, offset required;
// multipleOf decided on the digits as written). A record a strict target refuses fails the case.
#pragma once

#include <string>
#include <vector>

#include "support/exact_json.hpp"
#include "tap-diffgen/dialect_abi.h"

namespace tapdiffgen::conformance {

class RecordCheck {
public:
    /// `names` and `schemas` (describe_table's json_schema) of the requested columns, in
    /// request order; `keys` the names of the key's columns (their schema does not allow null).
    RecordCheck(std::vector<std::string> names, const std::vector<std::string>& schemas,
                const std::vector<std::string>& keys);

    /// Throws CaseFailure naming the column, the value (cut short) and what the schema refuses.
    void check(const TdgRowBatch& batch) const;

private:
    std::vector<std::string> names_;
    std::vector<std::string> schemaTexts_;
    std::vector<testing::ExactJson> schemas_;
};

}  // namespace tapdiffgen::conformance
