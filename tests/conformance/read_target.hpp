// The table a check reads whole (cancel, cancel-statement, lost-connection), as expected.json
// names it, and the reads such a check runs on it by name: "scan_table", "fetch_rows" (every
// id 1..row_count) and "scan_chunk" (one chunk from the first row).
#pragma once

#include <Poco/JSON/Object.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::conformance {

struct ReadTarget {
    core::TableRef table;
    core::KeySpec key;
    std::vector<std::string> columns;
    std::vector<TdgValueKind> kinds;
    int64_t rowCount = 0;
    int64_t batchRows = 0;
};

/// "table", "key", "row_count" and "batch_rows" (optional) of expected.json, every column with
/// the kind describe_table reports.
ReadTarget readTargetOf(core::DialectConnection& connection,
                        const Poco::JSON::Object::Ptr& expected);

using Read =
    std::function<void(core::DialectConnection&, const ReadTarget&, const core::BatchCallback&)>;

/// The reads by name; throws CaseFailure naming an unknown one.
const Read& readNamed(const std::string& name);

}  // namespace tapdiffgen::conformance
