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
#include <algorithm>

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

std::vector<std::string> describedText(const std::vector<ColumnDescription>& columns) {
    std::vector<std::string> texts;
    for (const ColumnDescription& column : columns) texts.push_back(columnText(column));
    return texts;
}

// The first column in which two descriptions differ, for a message.
std::string firstDifference(const std::vector<std::string>& got,
                            const std::vector<std::string>& now) {
    for (size_t c = 0; c < std::max(got.size(), now.size()); ++c) {
        const std::string before = c < got.size() ? "[" + got[c] + "]" : "nothing";
        const std::string after = c < now.size() ? "[" + now[c] + "]" : "nothing";
        if (before != after) {
            return "gives column " + std::to_string(c + 1) + " as " + before +
                   ", the table now has " + after;
        }
    }
    return "gives the same columns";
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
        std::vector<std::string> before = describedText(connection->describeTables({table}).at(0));
        const std::vector<std::string> first = describedText(freshDescription(context, table));
        require(before == first, "describe_tables " + firstDifference(before, first) +
                                     " (describe_table on a new connection)");
        size_t count = 0;
        for (const Poco::JSON::Object::Ptr& alteration :
             objectsOf(arrayOf(expected, "alterations"))) {
            const std::string what = textOf(alteration, "what");
            stage = "describe_tables after " + what;
            runSql(*context.setupCommand, textOf(alteration, "sql"), "alteration '" + what + "'");
            const std::vector<std::string> fresh = describedText(freshDescription(context, table));
            require(fresh != before, "expected.json: the alteration '" + what +
                                         "' changed nothing describe_table reports");
            const std::vector<std::string> cached =
                describedText(connection->describeTables({table}).at(0));
            require(cached == fresh,
                    "after " + what + ", describe_tables on a connection opened before " +
                        firstDifference(cached, fresh) +
                        ": the plugin answers a description it cached, so its check for a "
                        "changed table misses this change");
            before = fresh;
            ++count;
        }
        return std::to_string(count) + " alterations seen by describe_tables";
    } catch (const core::DialectError& failure) {
        throw CaseFailure(stage + ": " + describeError(failure));
    }
}

}  // namespace tapdiffgen::conformance
