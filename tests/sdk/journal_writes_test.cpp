// sdk::sqlTokens and sdk::journalWritesOf: what a trigger's SQL text writes into the diffgen
// table, in the three dialects' spellings, for the shipped triggers and hand-written ones.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "tap-diffgen/sdk/journal_writes.hpp"

using tapdiffgen::sdk::JournalWrites;
using tapdiffgen::sdk::journalWritesOf;
using tapdiffgen::sdk::SqlSpelling;
using tapdiffgen::sdk::SqlToken;
using tapdiffgen::sdk::sqlTokens;
using tapdiffgen::sdk::TableName;

namespace {

const TableName kDiffgen{std::nullopt, "diffgen"};

std::optional<std::string> nameWritten(const std::string& body, const SqlSpelling& spelling,
                                       const TableName& diffgen = kDiffgen) {
    JournalWrites writes = journalWritesOf(body, diffgen, spelling);
    REQUIRE(writes.writes);
    return writes.journalName;
}

}  // namespace

TEST_CASE("sql tokens: strings, names and comments in each spelling") {
    auto tokens = sqlTokens("SELECT 'it''s', \"a\"\"b\", `c` -- x\n /* y */ 12 ::text",
                            SqlSpelling::postgres());
    REQUIRE(tokens.size() == 11);
    CHECK(tokens[1].kind == SqlToken::Kind::String);
    CHECK(tokens[1].text == "it's");
    CHECK(tokens[3].kind == SqlToken::Kind::QuotedName);
    CHECK(tokens[3].text == "a\"b");
    CHECK(tokens[5].isSymbol("`"));  // no quote in PostgreSQL
    CHECK(tokens[8].kind == SqlToken::Kind::Number);
    CHECK(tokens[9].isSymbol("::"));
    // A parameter is no dollar quote.
    CHECK(sqlTokens("f($1, $2)", SqlSpelling::postgres()).size() == 8);

    auto mysql = sqlTokens("INSERT 'a\\'b' \"s\" `x``y` # c\n E", SqlSpelling::mysql(""));
    REQUIRE(mysql.size() == 5);
    CHECK(mysql[1].text == "a'b");
    CHECK(mysql[2].kind == SqlToken::Kind::String);
    CHECK(mysql[3].text == "x`y");
    CHECK(mysql[4].isKeyword("e"));
    auto ansi = sqlTokens("'a\\' \"s\"", SqlSpelling::mysql("ANSI_QUOTES,NO_BACKSLASH_ESCAPES"));
    REQUIRE(ansi.size() == 2);
    CHECK(ansi[0].text == "a\\");
    CHECK(ansi[1].kind == SqlToken::Kind::QuotedName);

    auto dollar = sqlTokens("$f$ it's $x$ $f$ E'a\\'b' x", SqlSpelling::postgres());
    REQUIRE(dollar.size() == 3);
    CHECK(dollar[0].text == " it's $x$ ");
    CHECK(dollar[1].kind == SqlToken::Kind::OtherString);
    CHECK(dollar[2].isKeyword("X"));

    auto sqlite = sqlTokens("[a b] \"c\" `d`", SqlSpelling::sqlite());
    REQUIRE(sqlite.size() == 3);
    CHECK(sqlite[0].text == "a b");
    // An unfinished comment or string ends the tokens.
    CHECK(sqlTokens("a /* b", SqlSpelling::sqlite()).size() == 1);
    CHECK(sqlTokens("a 'b", SqlSpelling::sqlite()).size() == 1);
}

TEST_CASE("journal writes: the shipped MySQL and SQLite triggers name their table") {
    const SqlSpelling mysql = SqlSpelling::mysql("STRICT_TRANS_TABLES");
    CHECK(nameWritten("INSERT INTO diffgen (tablename, table_id, op) VALUES ('invoices', "
                      "NEW.id, 'i')",
                      mysql) == "invoices");
    CHECK(nameWritten("INSERT INTO diffgen (tablename, table_id, op)\n"
                      "SELECT 'invoices', OLD.id, 'd' FROM DUAL WHERE NOT (OLD.id <=> NEW.id)\n"
                      "UNION ALL SELECT 'invoices', NEW.id, 'u'",
                      mysql) == "invoices");
    CHECK(nameWritten("INSERT INTO `tapdb`.`diffgen` (op, table_id, tablename) VALUES ('d', "
                      "JSON_ARRAY(OLD.a, OLD.b), _utf8mb4'sales.order_lines')",
                      mysql, {"tapdb", "diffgen"}) == "sales.order_lines");
    // Byte comparisons and a compound body with IF: every INSERT names the same table.
    CHECK(nameWritten("BEGIN IF NOT (CAST(OLD.k AS BINARY) <=> CAST(NEW.k AS BINARY)) THEN "
                      "INSERT INTO diffgen (tablename, table_id, op) VALUES ('t', OLD.k, 'd'); "
                      "END IF; INSERT INTO diffgen SET op = 'u', tablename = 't', table_id = "
                      "NEW.k; END",
                      mysql) == "t");

    const SqlSpelling sqlite = SqlSpelling::sqlite();
    CHECK(nameWritten("CREATE TRIGGER invoices_diffgen_u AFTER UPDATE ON invoices BEGIN\n"
                      "  -- a key change journals a delete\n"
                      "  INSERT INTO diffgen (tablename, table_id, op)\n"
                      "      SELECT 'invoices', OLD.id, 'd' WHERE OLD.id IS NOT NEW.id;\n"
                      "  INSERT INTO \"DIFFGEN\" (tablename, table_id, op) VALUES ('invoices', "
                      "NEW.id, 'u');\nEND",
                      sqlite) == "invoices");
    CHECK(nameWritten("INSERT OR IGNORE INTO main.diffgen(tablename,table_id,op) VALUES "
                      "('a' COLLATE NOCASE, 1, 'i')",
                      sqlite, {"main", "diffgen"}) == "a");
}

TEST_CASE("journal writes: PostgreSQL functions with a literal, a variable or a cast") {
    const SqlSpelling pg = SqlSpelling::postgres();
    CHECK(nameWritten("BEGIN IF TG_OP = 'DELETE' THEN INSERT INTO public.diffgen AS d "
                      "(tablename, table_id, op) VALUES ('invoices'::text, OLD.id::text, 'd'); "
                      "RETURN NULL; END IF; INSERT INTO diffgen (tablename, table_id, op) VALUES "
                      "('invoices', NEW.id::text, lower(left(TG_OP, 1))); RETURN NULL; END",
                      pg, {"public", "diffgen"}) == "invoices");
    // The shipped generic function writes a variable: no name from the text.
    CHECK(nameWritten("DECLARE journal_name text := TG_TABLE_NAME; BEGIN INSERT INTO diffgen "
                      "(tablename, table_id, op) VALUES (journal_name, NEW.id, 'i'); END",
                      pg) == std::nullopt);
    // Two names, an expression, an escape string or no column list: not one known name.
    CHECK(nameWritten("INSERT INTO diffgen (tablename, table_id, op) VALUES ('a', 1, 'i'), "
                      "('b', 2, 'i')",
                      pg) == std::nullopt);
    CHECK(nameWritten("INSERT INTO diffgen (tablename, table_id, op) VALUES ('s.' || 't', 1, "
                      "'i')",
                      pg) == std::nullopt);
    CHECK(nameWritten("INSERT INTO diffgen (tablename, op) VALUES (E't\\'x', 'i')", pg) ==
          std::nullopt);
    CHECK(nameWritten("INSERT INTO diffgen VALUES (DEFAULT, 't', '1', 'i')", pg) == std::nullopt);
    // A CASE before the name does not shift the name's position.
    CHECK(nameWritten("INSERT INTO diffgen (op, tablename) SELECT CASE WHEN x THEN 'i' ELSE "
                      "'u' END, 't' FROM y",
                      pg) == "t");
}

TEST_CASE("journal writes: other tables, other schemas and quoted names are told apart") {
    const SqlSpelling pg = SqlSpelling::postgres();
    const std::string audit = "INSERT INTO audit (tablename) VALUES ('t')";
    CHECK_FALSE(journalWritesOf(audit, kDiffgen, pg).writes);
    CHECK_FALSE(journalWritesOf("SELECT 'INSERT INTO diffgen (tablename) VALUES (1)'", kDiffgen, pg)
                    .writes);
    CHECK_FALSE(journalWritesOf("INSERT INTO other.diffgen (tablename) VALUES ('t')",
                                {"public", "diffgen"}, pg)
                    .writes);
    // PostgreSQL folds an unquoted name and matches a quoted one exactly; the others ignore case.
    CHECK(journalWritesOf("INSERT INTO DIFFGEN (tablename) VALUES ('t')", kDiffgen, pg).writes);
    CHECK_FALSE(
        journalWritesOf("INSERT INTO \"DIFFGEN\" (tablename) VALUES ('t')", kDiffgen, pg).writes);
    CHECK(journalWritesOf("INSERT INTO `DIFFGEN` (tablename) VALUES ('t')", kDiffgen,
                          SqlSpelling::mysql(""))
              .writes);
    CHECK(journalWritesOf("REPLACE INTO diffgen (tablename) VALUES ('t')", kDiffgen,
                          SqlSpelling::sqlite())
              .journalName == "t");
}
