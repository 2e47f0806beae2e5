// check "inspect-journal": inspect_journal (ABI revision 5) against journalling the case set up.
//
//   {"check": "inspect-journal", "diffgen": "tdg_conf_ij_log",
//    "tables": ["tdg_conf_ij_orders", "tdg_conf_ij_lines", "tdg_conf_ij_absent"],
//    "id_source": "public.tdg_conf_ij_log_id_seq", "id_cache": 1,
//    "journal": [{"partitions": [], "bypassing_foreign_keys": ["name: ON DELETE CASCADE"],
//                 "triggers": ["name: INSERT, UPDATE, DELETE -> tdg_conf_ij_orders"]}, ...]}
//
// Each entry of "journal" answers for the table of "tables" at its place, in the plugin's
// words: a partition as "schema.name", a foreign key as "constraint -> parent: actions", a
// trigger as "name: events -> journal name" ("-> ?" when the plugin cannot tell). Lists compare
// as sets; "{database}" in an expected text stands for the connection's database setting. Called
// twice: with include_triggers (the triggers above) and without (none may come). "id_source" and
// "id_cache" are compared when given (null: the plugin cannot tell). A table that does not exist
// has an empty entry. A plugin without the member, or that answers NOT_IMPLEMENTED, passes: the
// engine then skips these checks and says so.
#include <algorithm>

#include "case_result.hpp"
#include "expected_json.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"

namespace tapdiffgen::conformance {
namespace {

using Poco::JSON::Object;

std::string refText(const core::TableRef& table) {
    return table.schema.empty() ? table.name : table.schema + "." + table.name;
}

std::vector<std::string> sorted(std::vector<std::string> items) {
    std::sort(items.begin(), items.end());
    return items;
}

std::string listText(const std::vector<std::string>& items) {
    std::string text = "[";
    for (const std::string& item : items) text += (text.size() > 1 ? "; " : "") + item;
    return text + "]";
}

// "{database}" replaced by the connection's database setting (MySQL names schemas so).
std::string withDatabase(std::string text, const std::string& database) {
    const std::string placeholder = "{database}";
    for (size_t at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at + database.size())) {
        text.replace(at, placeholder.size(), database);
    }
    return text;
}

void requireSameList(const std::string& what, std::vector<std::string> expected,
                     const std::vector<std::string>& actual, const std::string& database) {
    for (std::string& item : expected) item = withDatabase(item, database);
    require(sorted(expected) == sorted(actual),
            what + " are " + listText(sorted(actual)) + ", expected " + listText(sorted(expected)));
}

void checkTableJournal(const core::TableJournal& journal, const Object::Ptr& expected,
                       const std::string& table, bool withTriggers, const std::string& database) {
    std::vector<std::string> partitions, keys, triggers;
    for (const core::TableRef& partition : journal.partitions)
        partitions.push_back(refText(partition));
    for (const core::BypassingForeignKey& key : journal.bypassingForeignKeys) {
        keys.push_back(key.constraintName + " -> " + refText(key.parent) + ": " + key.actions);
    }
    for (const core::JournalTrigger& trigger : journal.triggers) {
        triggers.push_back(trigger.name + ": " + trigger.events + " -> " +
                           trigger.journalName.value_or("?"));
    }
    const std::string where = "table '" + table + "': its ";
    requireSameList(where + "partitions", stringsOf(arrayOf(expected, "partitions")), partitions,
                    database);
    requireSameList(where + "foreign keys whose actions bypass its triggers",
                    stringsOf(arrayOf(expected, "bypassing_foreign_keys")), keys, database);
    requireSameList(
        where + "journal triggers" + (withTriggers ? "" : " (not asked for: include_triggers 0)"),
        withTriggers ? stringsOf(arrayOf(expected, "triggers")) : std::vector<std::string>{},
        triggers, database);
}

}  // namespace

std::string checkInspectJournal(const LiveContext& context, const CaseFiles& files) {
    const Object::Ptr& expected = files.expected;
    auto connection = openConnection(context);
    const core::TableRef diffgen{"", textOf(expected, "diffgen")};
    std::vector<core::TableRef> tables;
    for (const std::string& name : stringsOf(arrayOf(expected, "tables")))
        tables.push_back({"", name});
    const std::vector<Object::Ptr> journal = objectsOf(arrayOf(expected, "journal"));
    std::string database;
    for (const auto& [key, value] : *context.options) {
        if (key == "database") database = value;
    }
    require(journal.size() == tables.size(), "expected.json: one 'journal' entry per table");
    for (const bool withTriggers : {true, false}) {
        std::optional<core::JournalInspection> found;
        try {
            found = connection->inspectJournal(diffgen, tables, withTriggers);
        } catch (const core::DialectError& failure) {
            throw CaseFailure("inspect_journal: " + describeError(failure));
        }
        if (!found) return "inspect_journal is not implemented (accepted)";
        require(found->tables.size() == tables.size(),
                "inspect_journal answered for " + std::to_string(found->tables.size()) +
                    " tables, " + std::to_string(tables.size()) + " were asked about");
        if (expected->has("id_source")) {
            const std::string want = expected->isNull("id_source")
                                         ? "unknown"
                                         : withDatabase(textOf(expected, "id_source"), database);
            const std::string got = found->idSource.value_or("unknown");
            require(got == want, "the id source is " + got + ", expected " + want);
        }
        if (expected->has("id_cache")) {
            require(found->idCache == integerOf(expected, "id_cache"),
                    "the id cache is " + std::to_string(found->idCache) + ", expected " +
                        std::to_string(integerOf(expected, "id_cache")));
        }
        for (size_t t = 0; t < tables.size(); ++t) {
            checkTableJournal(found->tables[t], journal[t], tables[t].name, withTriggers, database);
        }
    }
    return std::to_string(tables.size()) + " tables' journalling, with and without triggers";
}

}  // namespace tapdiffgen::conformance
