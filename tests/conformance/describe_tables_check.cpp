// check "describe-tables": describe_tables (ABI revision 4) on one long-lived connection sees
// every change of a table's columns, as a fresh connection's describe_table does.
//
//   {"check": "describe-tables", "table": "tdg_conf_described",
//    "alterations": [{"what": "a column renamed", "sql": "ALTER TABLE ... RENAME ..."}, ...]}
//
// A plugin that caches descriptions between calls (sdk::DigestedDescriptions) decides with a
// digest of the catalog whether a table changed; a digest that leaves out a column's name,
// type, nullability or place answers the old description after the change, and the engine
// then reads the new table with the old columns. Each alteration runs through the setup
// command; afterwards describe_tables on the connection opened before any of them must give
// what describe_table gives on a new connection, and that must differ from before (else the
// alteration checks nothing).
#include "case_result.hpp"
#include "cell_text.hpp"
#include "expected_json.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "setup_sql.hpp"

namespace tapdiffgen::conformance {
namespace {

using core::ColumnDescription;

std::string columnText(const ColumnDescription& column) {
    return column.name + " #" + std::to_string(column.ordinal) + " " + kindName(column.kind) +
           " '" + column.sqlType + "'" + (column.nullable ? " null" : " not null") +
           (column.primaryKey ? " key" : "") + " " + column.jsonSchema;
}

std::string describedText(const std::vector<ColumnDescription>& columns) {
    std::string text;
    for (const ColumnDescription& column : columns) {
        text += (text.empty() ? "" : "; ") + columnText(column);
    }
    return text;
}

std::vector<ColumnDescription> freshDescription(const LiveContext& context,
                                                const core::TableRef& table) {
    auto fresh = openConnection(context);
    return fresh->describeTable(table);
}

}  // namespace

std::string checkDescribeTables(const LiveContext& context, const CaseFiles& files) {
    const Poco::JSON::Object::Ptr& expected = files.expected;
    const core::TableRef table{"", textOf(expected, "table")};
    auto connection = openConnection(context);
    std::string stage = "describe_tables";
    try {
        std::string before = describedText(connection->describeTables({table}).at(0));
        require(before == describedText(freshDescription(context, table)),
                "describe_tables gave [" + before + "], describe_table on a new connection [" +
                    describedText(freshDescription(context, table)) + "]");
        size_t count = 0;
        for (const Poco::JSON::Object::Ptr& alteration :
             objectsOf(arrayOf(expected, "alterations"))) {
            const std::string what = textOf(alteration, "what");
            stage = "describe_tables after " + what;
            runSql(*context.setupCommand, textOf(alteration, "sql"), "alteration '" + what + "'");
            const std::string fresh = describedText(freshDescription(context, table));
            require(fresh != before, "expected.json: the alteration '" + what +
                                         "' changed nothing describe_table reports");
            const std::string cached = describedText(connection->describeTables({table}).at(0));
            require(cached == fresh, "after " + what +
                                         ", describe_tables on a connection opened "
                                         "before gave [" +
                                         cached + "], the table now has [" + fresh +
                                         "]: the plugin answers a description it cached, so its "
                                         "check for a changed table misses this change");
            before = fresh;
            ++count;
        }
        return std::to_string(count) + " alterations seen by describe_tables";
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

}  // namespace tapdiffgen::conformance
