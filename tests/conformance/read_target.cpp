#include "read_target.hpp"

#include "case_result.hpp"
#include "catalog/stream_definition.hpp"
#include "expected_json.hpp"

namespace tapdiffgen::conformance {
namespace {

std::vector<std::string> allKeys(int64_t count) {
    std::vector<std::string> keys;
    for (int64_t id = 1; id <= count; ++id) keys.push_back(std::to_string(id));
    return keys;
}

const std::map<std::string, Read>& reads() {
    static const std::map<std::string, Read> table = {
        {"scan_table",
         [](core::DialectConnection& c, const ReadTarget& t, const core::BatchCallback& sink) {
             c.scanTable(t.table, t.columns, &t.kinds, t.key, t.batchRows, sink);
         }},
        {"fetch_rows",
         [](core::DialectConnection& c, const ReadTarget& t, const core::BatchCallback& sink) {
             core::FetchSpec spec{&t.table, &t.columns,          &t.kinds,
                                  &t.key,   allKeys(t.rowCount), sink};
             c.fetchRows(spec, t.batchRows);
         }},
        {"scan_chunk",
         [](core::DialectConnection& c, const ReadTarget& t, const core::BatchCallback& sink) {
             core::ScanSpec spec{&t.table, &t.columns, &t.kinds, &t.key, t.batchRows};
             if (!c.scanChunk(spec, {}, t.rowCount + 1, sink)) {
                 throw CaseSkipped("the plugin has no scan_chunk");
             }
         }},
    };
    return table;
}

}  // namespace

ReadTarget readTargetOf(core::DialectConnection& connection,
                        const Poco::JSON::Object::Ptr& expected) {
    ReadTarget target;
    target.table = {"", textOf(expected, "table")};
    target.rowCount = integerOf(expected, "row_count");
    target.batchRows = expected->optValue<int64_t>("batch_rows", 0);
    const std::string keyName = textOf(expected, "key");
    for (const core::ColumnDescription& column : connection.describeTable(target.table)) {
        target.columns.push_back(column.name);
        target.kinds.push_back(column.kind);
        if (column.name == keyName) target.key.columns.push_back(core::keyColumnOf(column));
    }
    require(!target.key.columns.empty(), "describe_table reported no column '" + keyName + "'");
    return target;
}

const Read& readNamed(const std::string& name) {
    auto found = reads().find(name);
    require(found != reads().end(), "expected.json: unknown call '" + name + "'");
    return found->second;
}

}  // namespace tapdiffgen::conformance
