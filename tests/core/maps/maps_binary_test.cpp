// The map limits and the output-name collisions through the tap binary, over the engine tests'
// fake dialect plugin: what a user sees is exit code 1 and one error line naming the stream,
// the property and the expression, never a crash, and for a start-up error nothing on stdout.
#include <doctest/doctest.h>

#include <string>

#include "expression_cases.hpp"
#include "support/tap_process.hpp"

using namespace tapdiffgen::testing;

namespace {

const char* kDatabase = R"({"tables":{
  "cust":{"columns":[{"name":"id","kind":"int64","pk":true},{"name":"name","kind":"text"},
                     {"name":"amount","kind":"decimal","scale":2}],
          "rows":[[1,"Ada","1250.00"],[2,"Alan",null]]},
  "other":{"columns":[{"name":"id","kind":"int64","pk":true}],"rows":[[1]]}},
 "diffgen":[[1,"cust","1","i","2024-01-01T00:00:01+00:00"],
            [2,"cust","2","i","2024-01-01T00:00:02+00:00"],
            [3,"other","1","i","2024-01-01T00:00:03+00:00"]]})";

const char* kTables = R"("tables":[{"table_name":"cust","pk_column":"id"},
                                   {"table_name":"other","pk_column":"id"}])";

// A sync of both tables with these settings added (JSON members, each with its comma).
TapRun syncWith(const std::string& settings, const char* tables = kTables) {
    ScratchDir dir;
    const std::string database = dir.write("database.json", kDatabase);
    const std::string config = dir.write(
        "config.json", std::string(R"({"sql_dialect":")") + TDG_FAKE_PLUGIN + R"(","database":")" +
                           database + R"(",)" + tables + settings + "}");
    return runTapBinary({"--config", config});
}

TapRun withMap(const std::string& property, const std::string& expression) {
    return syncWith(R"(,"stream_maps":{"cust":{")" + property + R"(":")" + expression + R"("}})");
}

// Exit code 1 and the one error line; a start-up error also leaves stdout empty.
void checkRefused(const TapRun& run, const std::string& expected, bool atStartUp) {
    CHECK(run.exitCode == 1);
    const auto errors = run.errorMessages();
    REQUIRE_MESSAGE(errors.size() == 1, run.stderrText);
    CHECK(errors[0] == expected);
    if (atStartUp) CHECK(run.lines.empty());
}

}  // namespace

TEST_CASE("binary: an expression nested 10,000 deep is refused at start-up") {
    checkRefused(withMap("deep", repeated("(", 10000) + "id" + repeated(")", 10000)),
                 "stream_maps: stream 'cust', property 'deep', expression '" + repeated("(", 196) +
                     "...: the expression is nested more than 200 levels deep (at position 202)",
                 true);
    checkRefused(withMap("deep", repeated("-", 10000) + "id"),
                 "stream_maps: stream 'cust', property 'deep', expression '" + repeated("-", 196) +
                     "...: the expression is nested more than 200 levels deep (at position 202)",
                 true);
}

TEST_CASE("binary: a chain of 16,000 terms works") {
    const TapRun run = withMap("sum", "id" + repeated(" + id", 15999));
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    const auto records = run.records("cust");
    REQUIRE(records.size() == 2);
    CHECK(records[0]->getValue<int64_t>("sum") == 16000 * records[0]->getValue<int64_t>("id"));
    const TapRun either = withMap("first", repeated("amount or ", 15999) + "name");
    REQUIRE_MESSAGE(either.exitCode == 0, either.stderrText);
    CHECK(either.records("cust").size() == 2);
}

TEST_CASE("binary: 'x' * 10**10 ends the run with the map error, not std::bad_alloc") {
    checkRefused(withMap("big", "'x' * 10**10"),
                 "stream_maps: stream 'cust', property 'big', expression \"'x' * 10**10\": "
                 "IterableTooLong: the result would be longer than simpleeval's "
                 "MAX_STRING_LENGTH of 100000",
                 true);
    const TapRun run = withMap("big", "name * 10**10");
    checkRefused(run,
                 "stream_maps: stream 'cust', property 'big', record id=1, expression 'name * "
                 "10**10': IterableTooLong: the result would be longer than simpleeval's "
                 "MAX_STRING_LENGTH of 100000",
                 false);
    CHECK(run.records("cust").empty());
}

TEST_CASE("binary: 2.0 ** 100000 is Python's OverflowError, not null") {
    checkRefused(withMap("p", "float(amount) ** 100000"),
                 "stream_maps: stream 'cust', property 'p', record id=1, expression "
                 "'float(amount) ** 100000': OverflowError: (34, 'Numerical result out of "
                 "range')",
                 false);
}

TEST_CASE("binary: two output streams under one name are refused before any output") {
    checkRefused(syncWith(R"(,"stream_maps":{"cust":{"__alias__":"other"}})"),
                 "stream_maps: stream 'cust' through its __alias__ and stream 'other' both write "
                 "stream 'other'",
                 true);
    checkRefused(syncWith(R"(,"stream_maps":{"cust":{"__alias__":"copy"},
                                          "copy":{"__source__":"other"}})"),
                 "stream_maps: stream 'cust' through its __alias__ and 'copy' through its "
                 "__source__ 'other' both write stream 'copy'",
                 true);
    checkRefused(syncWith("", R"("tables":[{"table_name":"a.b","pk_column":"id"},
                                       {"table_name":"a-b","pk_column":"id"}])"),
                 "tables 'a.b' and 'a-b' both become stream 'a-b' in config['tables'][1]", true);
    // Renamed onto a stream the maps remove, the name is free.
    const TapRun run = syncWith(R"(,"stream_maps":{"cust":{"__alias__":"other"},"other":null})");
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.records("other").size() == 2);
}
