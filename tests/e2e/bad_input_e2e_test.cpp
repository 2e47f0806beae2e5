// Bad input is answered by one clear line: non-zero exit, one ERROR line naming the culprit,
// no stack trace, no secret anywhere, no RECORD, and no STATE beyond what was emitted.
#include <doctest/doctest.h>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;

namespace {

struct Case {
    std::string name;
    std::vector<std::string> arguments;
    std::string expected;  // a fragment the error line must contain
};

void checkCase(const Case& c, const std::string& secret) {
    CAPTURE(c.name);
    TapRun run = runTapBinary(c.arguments);
    CHECK(run.exitCode != 0);
    auto errors = run.errorMessages();
    REQUIRE_MESSAGE(errors.size() == 1, run.stderrText);
    MESSAGE(c.name << " → " << errors[0]);
    CHECK_MESSAGE(errors[0].find(c.expected) != std::string::npos, errors[0]);
    CHECK(run.stderrText.find(secret) == std::string::npos);
    CHECK(run.stderrText.find("terminate called") == std::string::npos);
    for (const auto& line : run.lines) {
        CHECK(line.find(secret) == std::string::npos);
        CHECK(line.find(R"("type":"RECORD")") == std::string::npos);
        CHECK(line.find(R"("type":"STATE")") == std::string::npos);
    }
}

void badInputMatrix(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    schema.createTable("invoices", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
    const std::string invoices = schema.table("invoices");
    schema.exec("INSERT INTO " + invoices + " VALUES (1, 'x')");
    ScratchDir dir;
    const std::string good = schema.writeConfig(dir, {invoices});
    auto config = [&](const std::string& name, const std::string& members) {
        return dir.write(name, env.configPrefix() + R"(,"diffgen_table":")" +
                                   schema.diffgenTable() + "\"," + members + "}");
    };
    auto tableList = [&](const std::string& pk) {
        return R"("tables":[{"table_name":")" + invoices + R"(","pk_column":")" + pk + "\"}]";
    };
    auto replacing = [&](const std::string& name, const std::string& from, const std::string& to) {
        std::string text = env.configPrefix() + R"(,"diffgen_table":")" + schema.diffgenTable() +
                           "\"," + tableList("id") + "}";
        text.replace(text.find(from), from.size(), to);
        return dir.write(name, text);
    };

    std::vector<Case> cases = {
        {"missing config file", {"--config", dir.path() + "/nope.json"}, "cannot read config file"},
        {"config is a directory", {"--config", dir.path()}, "config file"},
        {"invalid JSON in config",
         {"--config", dir.write("bad.json", "{\"sql_dialect\":")},
         "is not valid JSON"},
        {"wrong type",
         {"--config", replacing("type.json", "\"port\":" + env.port, "\"port\":\"abc\"")},
         "'abc' is not of type 'integer' in config['port']"},
        {"missing required setting",
         {"--config", config("noreq.json", R"("page_size":5,"max_page_size":5)")},
         "'tables' is a required property"},
        {"unknown sql_dialect",
         {"--config", replacing("dialect.json", "\"" + env.dialect + "\"", "\"oracle\"")},
         "no dialect plugin for sql_dialect 'oracle'"},
        {"wrong password",
         {"--config", replacing("password.json", "\"" + env.password + "\"", "\"not-the-pw\"")},
         "cannot connect"},
        {"unreachable host",
         {"--config",
          replacing("host.json", "\"port\":" + env.port, "\"port\":1,\"connect_timeout\":2")},
         "cannot connect"},
        {"unknown database",
         {"--config", replacing("database.json", "\"" + env.database + "\"", "\"no_such_db\"")},
         "no_such_db"},
        {"missing table",
         {"--config",
          config("table.json", R"("tables":[{"table_name":"no_such_table","pk_column":"id"}])")},
         "table 'no_such_table'"},
        {"missing diffgen table",
         {"--config", replacing("diffgen.json", schema.diffgenTable(), "no_such_diffgen")},
         "diffgen table 'no_such_diffgen'"},
        {"pk_column not a column",
         {"--config", config("pk.json", tableList("nope"))},
         "pk_column 'nope'"},
        {"invalid JSON in state",
         {"--config", good, "--state", dir.write("s.json", "{oops")},
         "is not valid JSON"},
        {"invalid JSON in catalog",
         {"--config", good, "--catalog", dir.write("c.json", "[1,")},
         "catalog"},
        {"catalog names an unconfigured stream",
         {"--config", good, "--catalog",
          dir.write("c2.json", R"({"streams":[{"tap_stream_id":"payments","metadata":[]}]})")},
         "'payments'"},
        {"state from another tap",
         {"--config", good, "--state",
          dir.write(
              "s2.json",
              R"({"bookmarks":{")" + invoices +
                  R"(":{"replication_key":"updated_at","replication_key_value":"2024-01-01"}}})")},
         "another tap"},
    };
    for (const Case& c : cases) checkCase(c, env.password);
}

}  // namespace

TEST_CASE("postgres: bad input matrix") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    badInputMatrix(db, "bad_input");
}

TEST_CASE("mysql: bad input matrix") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    badInputMatrix(db, "bad_input");
}
