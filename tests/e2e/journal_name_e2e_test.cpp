// Which diffgen.tablename a configured table reads: by default its name without the schema,
// what the shipped triggers write; journal_name when its triggers write something else; and a
// run that stops, instead of replaying nothing, when events sit under a near name.
#include <doctest/doctest.h>

#include <map>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;

namespace {

std::vector<std::string> notes(const TapRun& run, const std::string& stream) {
    std::vector<std::string> found;
    for (const auto& record : run.records(stream)) {
        found.push_back(record->getValue<std::string>("note"));
    }
    return found;
}

// Two schemas of one database, each with a table `cust` journalled into one diffgen, the
// first with the bare name, the second schema-qualified (the trigger's 'qualified' argument).
struct TwoSchemas {
    // Schema names of their own per test: ctest runs test cases at the same time.
    TwoSchemas(JournalledSchema& schema, const std::string& prefix)
        : first(prefix + "_first"), second(prefix + "_second"), schema_(schema) {
        drop();
        const std::string journal = schema.diffgenTable() + "_journal";
        for (const std::string& name : {first, second}) {
            schema.exec("CREATE SCHEMA " + name);
            schema.exec("CREATE TABLE " + name + ".cust (id integer PRIMARY KEY, note text)");
            std::string arguments = name == first ? "'id'" : "'id', 'qualified'";
            schema.exec("CREATE TRIGGER cust_dg AFTER INSERT OR UPDATE OR DELETE ON " + name +
                        ".cust FOR EACH ROW EXECUTE FUNCTION " + journal + "(" + arguments + ")");
        }
        schema.exec("INSERT INTO " + first + ".cust VALUES (1, 'first schema')");
        schema.exec("INSERT INTO " + second + ".cust VALUES (1, 'second schema')");
        schema.exec("UPDATE " + second + ".cust SET note = 'second schema, updated'");
    }
    ~TwoSchemas() {
        try {
            drop();
        } catch (...) {
            // dropped again by the next run
        }
    }
    void drop() {
        for (const std::string& name : {first, second}) {
            schema_.exec("DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }
    }

    const std::string first;
    const std::string second;

private:
    JournalledSchema& schema_;
};

std::string config(const ScratchDir& dir, const JournalledSchema& schema,
                   const std::string& tables) {
    return dir.write("config.json", schema.env().configPrefix() + R"(,"diffgen_table":")" +
                                        schema.diffgenTable() + R"(","tables":)" + tables + "}");
}

}  // namespace

TEST_CASE("postgres: a schema-qualified table_name reads what the shipped trigger writes") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jn_public");
    schema.createTable("cust", "id integer PRIMARY KEY, note text", "id");
    schema.exec("INSERT INTO " + schema.table("cust") + " VALUES (1, 'one'), (2, 'two')");
    schema.exec("DELETE FROM " + schema.table("cust") + " WHERE id = 2");

    ScratchDir dir;
    std::string path =
        config(dir, schema,
               R"([{"table_name":"public.)" + schema.table("cust") + R"(","pk_column":"id"}])");
    TapRun run = runTapBinary({"--config", path});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    std::map<int, Poco::JSON::Object::Ptr> byId;
    for (const auto& record : run.records("public-" + schema.table("cust"))) {
        byId[record->getValue<int>("id")] = record;
    }
    REQUIRE(byId.size() == 2);
    CHECK(byId[2]->getValue<bool>("is_deleted"));
    CHECK(byId[1]->getValue<std::string>("note") == "one");
}

TEST_CASE("postgres: two schemas sharing a table name, told apart by journal_name") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jn_two");
    TwoSchemas schemas(schema, "jn_two");

    ScratchDir dir;
    std::string path = config(dir, schema,
                              R"([{"table_name":"jn_two_first.cust","pk_column":"id"},
        {"table_name":"jn_two_second.cust","pk_column":"id","journal_name":"jn_two_second.cust"}])");
    TapRun run = runTapBinary({"--config", path});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(notes(run, "jn_two_first-cust") == std::vector<std::string>{"first schema"});
    CHECK(notes(run, "jn_two_second-cust") == std::vector<std::string>{"second schema, updated"});
}

TEST_CASE("postgres: events only under the qualified name stop a run that reads the bare one") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    JournalledSchema schema(db, "jn_near");
    TwoSchemas schemas(schema, "jn_near");
    schema.exec("TRUNCATE " + schema.diffgenTable());
    schema.exec("UPDATE jn_near_second.cust SET note = 'only the qualified name has events'");

    ScratchDir dir;
    TapRun run = runTapBinary({"--config", config(dir, schema,
                                                  R"([{"table_name":"jn_near_second.cust",
                                                       "pk_column":"id"}])")});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(run.stderrText.find("table 'jn_near_second.cust': diffgen has events under "
                              "'jn_near_second.cust' but none under its journal name 'cust'; set "
                              "journal_name to what its trigger writes into diffgen.tablename") !=
          std::string::npos);
}

TEST_CASE("mysql: journal_name matches triggers that write the qualified name") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    JournalledSchema schema(db, "jn_mysql");
    const std::string cust = schema.table("cust");
    const std::string qualified = db.database + "." + cust;
    schema.exec("DROP TABLE IF EXISTS " + cust);
    schema.exec("CREATE TABLE " + cust + " (id INTEGER PRIMARY KEY, note VARCHAR(40))");
    schema.exec("CREATE TRIGGER " + cust + "_dg_i AFTER INSERT ON " + cust +
                " FOR EACH ROW INSERT INTO " + schema.diffgenTable() +
                " (tablename, table_id, op) VALUES ('" + qualified + "', NEW.id, 'i')");
    schema.exec("INSERT INTO " + cust + " VALUES (7, 'seven')");
    const std::string stream = db.database + "-" + cust;

    ScratchDir dir;
    TapRun byDefault = runTapBinary(
        {"--config",
         config(dir, schema, R"([{"table_name":")" + qualified + R"(","pk_column":"id"}])")});
    CHECK(byDefault.exitCode == 1);
    CHECK(byDefault.stderrText.find("table '" + qualified + "': diffgen has events under '" +
                                    qualified + "' but none under its journal name '" + cust +
                                    "'") != std::string::npos);

    TapRun named = runTapBinary(
        {"--config", config(dir, schema,
                            R"([{"table_name":")" + qualified +
                                R"(","pk_column":"id","journal_name":")" + qualified + R"("}])")});
    REQUIRE_MESSAGE(named.exitCode == 0, named.stderrText);
    CHECK(notes(named, stream) == std::vector<std::string>{"seven"});
    schema.exec("DROP TABLE " + cust);
}
