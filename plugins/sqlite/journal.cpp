#include "journal.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "statement.hpp"
#include "tap-diffgen/sdk/journal_writes.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::sqlite {

// A rowid table's one INTEGER PRIMARY KEY column is its rowid; any other primary key (and every
// key of a WITHOUT ROWID table) has an index of origin 'pk', the rowid none.
const char* const kIdIsRowidSql = R"SQL(
((SELECT count(*) FROM pragma_table_info(?1, ?2) WHERE pk > 0) = 1
 AND EXISTS (SELECT 1 FROM pragma_table_info(?1, ?2)
              WHERE name = 'id' COLLATE NOCASE AND pk = 1 AND upper(type) = 'INTEGER')
 AND NOT EXISTS (SELECT 1 FROM pragma_index_list(?1, ?2) WHERE origin = 'pk')))SQL";

namespace {

// Names of one statement's IN list.
constexpr size_t kTablesPerStatement = 500;

std::string lowered(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string schemaSql(const std::string& schema) { return sdk::quoteIdentifier(schema, '"'); }

// The statement a trigger fires on: the first of INSERT, UPDATE, DELETE in its CREATE TRIGGER
// (a name spelled like one would be quoted).
std::string eventOf(const std::vector<sdk::SqlToken>& tokens) {
    for (const sdk::SqlToken& token : tokens) {
        for (const char* event : {"INSERT", "UPDATE", "DELETE"}) {
            if (token.isKeyword(event)) return event;
        }
    }
    return "";
}

// The body: what follows the first BEGIN, so the header's "INSERT ON t" is not read as one.
std::vector<sdk::SqlToken> bodyOf(const std::vector<sdk::SqlToken>& tokens) {
    auto begin = std::find_if(tokens.begin(), tokens.end(),
                              [](const sdk::SqlToken& token) { return token.isKeyword("BEGIN"); });
    return std::vector<sdk::SqlToken>(begin, tokens.end());
}

void readIdSource(Session& database, const sdk::TableName& diffgen, sdk::JournalInspection& facts) {
    const std::string schema = diffgen.schema.value_or("main");
    const std::string context = "looking up diffgen table '" + diffgen.display() + "'";
    auto statement = database.prepare(std::string("SELECT sql, ") + kIdIsRowidSql + " FROM " +
                                          schemaSql(schema) +
                                          ".sqlite_master WHERE type = 'table' AND name = ?1 "
                                          "COLLATE NOCASE",
                                      context);
    Cursor cursor(*statement);
    cursor.bindText(1, diffgen.name).bindText(2, schema);
    facts.idCache = 1;  // one writer at a time takes each id as it inserts the row
    if (!cursor.next() || cursor.int64(1) == 0) return;
    const std::vector<sdk::SqlToken> tokens =
        sdk::sqlTokens(cursor.text(0), sdk::SqlSpelling::sqlite());
    bool autoincrement = std::any_of(tokens.begin(), tokens.end(), [](const sdk::SqlToken& token) {
        return token.isKeyword("AUTOINCREMENT");
    });
    facts.idSource =
        autoincrement ? schema + ".sqlite_sequence" : schema + "." + diffgen.name + " rowid";
}

// The triggers of `names` (lower case) of one schema that write into diffgen, by table.
std::map<std::string, std::vector<sdk::JournalTrigger>> readTriggers(
    Session& database, const std::string& schema, const std::vector<std::string>& names,
    const sdk::TableName& diffgen) {
    const std::string context = "looking up the triggers of schema '" + schema + "'";
    auto statement = database.prepare(
        "SELECT tbl_name, name, sql FROM " + schemaSql(schema) +
            ".sqlite_master WHERE type = 'trigger' AND tbl_name COLLATE NOCASE IN (" +
            placeholders(1, names.size()) + ") ORDER BY tbl_name, name",
        context);
    Cursor cursor(*statement);
    for (size_t i = 0; i < names.size(); ++i) cursor.bindText(static_cast<int>(i) + 1, names[i]);
    const sdk::SqlSpelling spelling = sdk::SqlSpelling::sqlite();
    const sdk::TableName journal{schema, diffgen.name};
    std::map<std::string, std::vector<sdk::JournalTrigger>> byTable;
    while (cursor.next()) {
        const std::vector<sdk::SqlToken> tokens = sdk::sqlTokens(cursor.text(2), spelling);
        sdk::JournalWrites writes = sdk::journalWritesOf(bodyOf(tokens), journal, spelling);
        if (!writes.writes) continue;
        byTable[lowered(cursor.text(0))].push_back(
            {std::string(cursor.text(1)), eventOf(tokens), writes.journalName, writes.keyColumns});
    }
    return byTable;
}

}  // namespace

sdk::JournalInspection inspectJournal(Session& database, const sdk::JournalRequest& request) {
    sdk::JournalInspection facts;
    facts.tables.resize(request.tables.size());
    readIdSource(database, request.diffgen, facts);
    if (!request.includeTriggers) return facts;
    // SQLite compares table names without regard to case: so are they grouped.
    std::map<std::string, std::map<std::string, std::vector<size_t>>> entries;
    for (size_t i = 0; i < request.tables.size(); ++i) {
        const sdk::TableName& table = request.tables[i];
        entries[table.schema.value_or("main")][lowered(table.name)].push_back(i);
    }
    for (const auto& [schema, tables] : entries) {
        std::vector<std::string> names;
        for (auto table = tables.begin(); table != tables.end();) {
            names.push_back((table++)->first);
            if (names.size() < kTablesPerStatement && table != tables.end()) continue;
            for (auto& [name, triggers] : readTriggers(database, schema, names, request.diffgen)) {
                for (size_t entry : tables.at(name)) facts.tables[entry].triggers = triggers;
            }
            names.clear();
        }
    }
    return facts;
}

}  // namespace tapdiffgen::sqlite
