// The sync end to end through the real loader and ABI, against the fake plugin.
#include <doctest/doctest.h>

#include <chrono>
#include <map>

#include "engine/fake_database.hpp"

using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::runTap;

namespace {

const char* kInvoices = R"("invoices":{"columns":[
    {"name":"id","kind":"int64","pk":true},
    {"name":"amount","kind":"decimal","scale":2},
    {"name":"note","kind":"text"}],
  "rows":[[1,"10.50","first"],[3,"7.00",null],[4,"1.25","four"],[5,"2.00","five"]]})";

std::string database(const std::string& diffgen, const std::string& extra = "") {
    return std::string(R"({"tables":{)") + kInvoices + R"(},"diffgen":[)" + diffgen + "]" + extra +
           "}";
}

const char* kInvoiceTable = R"("tables":[{"table_name":"invoices","pk_column":"id"}])";

}  // namespace

TEST_CASE("only the latest event per row drives the output, deletes become tombstones") {
    FakeSetup setup(database(R"([1,"invoices","1","i","2024-01-01T00:00:01+00:00"],
                                [2,"invoices","1","u","2024-01-01T00:00:02+00:00"],
                                [3,"invoices","2","i","2024-01-01T00:00:03+00:00"],
                                [4,"invoices","2","d","2024-01-01T00:00:04+00:00"],
                                [5,"invoices","3","u","2024-01-01T00:00:05+00:00"])"),
                    kInvoiceTable);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    auto unordered = run.records("invoices");
    REQUIRE(unordered.size() == 3);
    // Rows of one page are independent of each other: find them by key.
    std::map<int64_t, Poco::JSON::Object::Ptr> byId;
    for (const auto& record : unordered) byId[record->getValue<int64_t>("id")] = record;
    std::vector<Poco::JSON::Object::Ptr> records = {byId[1], byId[2], byId[3]};
    REQUIRE(byId.size() == 3);

    CHECK(records[0]->getValue<int64_t>("id") == 1);
    CHECK(records[0]->getValue<bool>("is_deleted") == false);
    CHECK(records[0]->getValue<std::string>("note") == "first");
    CHECK(records[0]->getValue<std::string>("_sdc_diffgen_ts_created") ==
          "2024-01-01T00:00:02+00:00");
    CHECK(records[0]->isNull("_sdc_deleted_at"));

    CHECK(records[1]->getValue<int64_t>("id") == 2);
    CHECK(records[1]->getValue<bool>("is_deleted") == true);
    CHECK(records[1]->has("amount"));
    CHECK(records[1]->isNull("amount"));
    CHECK(records[1]->isNull("note"));
    CHECK(records[1]->getValue<std::string>("_sdc_deleted_at") == "2024-01-01T00:00:04+00:00");

    CHECK(records[2]->getValue<int64_t>("id") == 3);
    CHECK(records[2]->isNull("note"));
    CHECK(
        run.lastState() ==
        R"({"bookmarks":{"invoices":{"replication_key":"diffgen_id","replication_key_value":5}}})");
}

TEST_CASE("decimals keep their exact digits") {
    FakeSetup setup(database(R"([1,"invoices","5","i","2024-01-01T00:00:01+00:00"])"),
                    kInvoiceTable);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    bool found = false;
    for (const auto& line : run.lines)
        found = found || line.find(R"("amount":2.00,)") != std::string::npos;
    CHECK(found);
}

TEST_CASE("a re-pull that finds no row emits a tombstone") {
    FakeSetup setup(database(R"([1,"invoices","99","u","2024-01-01T00:00:01+00:00"])"),
                    kInvoiceTable);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    auto records = run.records("invoices");
    REQUIRE(records.size() == 1);
    CHECK(records[0]->getValue<int64_t>("id") == 99);
    CHECK(records[0]->getValue<bool>("is_deleted"));
}

TEST_CASE("a delete whose row exists when the page is read emits the row, not a tombstone") {
    // UPDATE invoices SET id = id + 1 over ids 2, 3, 4 journals, row by row, 2d 3u 3d 4u 4d 5u:
    // the latest event of 3 and 4 is a delete, yet both rows exist (ids 3, 4 and 5 now).
    FakeSetup setup(database(R"([1,"invoices","2","d","t1"],[2,"invoices","3","u","t2"],
                                [3,"invoices","3","d","t3"],[4,"invoices","4","u","t4"],
                                [5,"invoices","4","d","t5"],[6,"invoices","5","u","t6"])"),
                    kInvoiceTable);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    std::map<int64_t, Poco::JSON::Object::Ptr> byId;
    for (const auto& record : run.records("invoices")) {
        byId[record->getValue<int64_t>("id")] = record;
    }
    REQUIRE(byId.size() == 4);
    CHECK(byId[2]->getValue<bool>("is_deleted"));
    CHECK(byId[2]->getValue<std::string>("_sdc_deleted_at") == "t1");
    for (int64_t id : {3, 4, 5}) {
        CAPTURE(id);
        CHECK_FALSE(byId[id]->getValue<bool>("is_deleted"));
        CHECK(byId[id]->isNull("_sdc_deleted_at"));
    }
    CHECK(byId[3]->getValue<std::string>("_sdc_diffgen_ts_created") == "t3");
    CHECK(byId[4]->getValue<std::string>("note") == "four");
}

TEST_CASE("tombstones_only streams emit only deletes, each once its row is verified gone") {
    FakeSetup setup(
        database(R"([1,"invoices","1","i","2024-01-01T00:00:01+00:00"],
                                [2,"invoices","2","d","2024-01-01T00:00:02+00:00"],
                                [3,"invoices","4","d","2024-01-01T00:00:03+00:00"])"),
        R"("tables":[{"table_name":"invoices","pk_column":"id","mode":"tombstones_only"}])");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    auto records = run.records("invoices");
    // Row 4 exists again, so its delete is not one any more.
    REQUIRE(records.size() == 1);
    CHECK(records[0]->getValue<int64_t>("id") == 2);
    CHECK(records[0]->getValue<bool>("is_deleted"));
}

TEST_CASE("pages advance the bookmark one page at a time, each STATE after its records") {
    FakeSetup setup(database(R"([1,"invoices","1","i","t1"],[2,"invoices","3","i","t2"],
                                [3,"invoices","4","i","t3"],[4,"invoices","5","i","t4"],
                                [5,"invoices","1","u","t5"])"),
                    std::string(kInvoiceTable) + R"(,"page_size":2,"max_page_size":2)");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    std::vector<std::string> order;
    for (const auto& line : run.lines) {
        if (line.find(R"("type":"RECORD")") != std::string::npos) order.push_back("R");
        if (line.find(R"("type":"STATE")") != std::string::npos) {
            auto at = line.find("replication_key_value\":");
            order.push_back("S" + line.substr(at + 23, 1));
        }
    }
    std::vector<std::string> expected = {"R", "R", "S2", "R", "R", "S4", "R", "S5"};
    CHECK(order == expected);
}

TEST_CASE("a state resumes after its bookmark and is echoed first") {
    FakeSetup setup(database(R"([1,"invoices","1","i","t1"],[2,"invoices","3","i","t2"])"),
                    kInvoiceTable);
    std::string state = setup.write(
        "state.json",
        R"({"bookmarks":{"invoices":{"replication_key":"diffgen_id","replication_key_value":1}}})");
    auto run = runTap({"--config", setup.configPath(), "--state", state});
    REQUIRE(run.exitCode == 0);
    auto records = run.records("invoices");
    REQUIRE(records.size() == 1);
    CHECK(records[0]->getValue<int64_t>("id") == 3);
    REQUIRE(run.lines.size() >= 2);
    CHECK(run.lines[1].find(R"("replication_key_value":1)") != std::string::npos);
}

TEST_CASE("a run with nothing new still writes a STATE") {
    FakeSetup setup(database(""), kInvoiceTable);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    CHECK(run.records("invoices").empty());
    CHECK(
        run.lastState() ==
        R"({"bookmarks":{"invoices":{"replication_key":"diffgen_id","replication_key_value":0}}})");
}

TEST_CASE("an id that commits late is emitted once the horizon is final, never skipped") {
    // Id 2 is held by a running transaction while 1 and 3 are visible.
    FakeSetup setup(database(R"([1,"invoices","1","i","t1"],[3,"invoices","3","i","t3"])",
                             R"(,"late":[[2,"invoices","4","i","t2",2]])"),
                    kInvoiceTable);
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    auto records = run.records("invoices");
    REQUIRE(records.size() == 3);
    CHECK(records[2]->getValue<int64_t>("id") == 4);
    // While id 2 was pending, no STATE passed 0; at the end the bookmark is 3.
    auto states = run.messages("STATE");
    REQUIRE(states.size() >= 2);
    CHECK(states[0]
              ->getObject("value")
              ->getObject("bookmarks")
              ->getObject("invoices")
              ->getValue<int64_t>("replication_key_value") == 0);
    CHECK(run.lastState().find(R"("replication_key_value":3)") != std::string::npos);
}

TEST_CASE("a gap that stays pending keeps the bookmark before it") {
    FakeSetup setup(database(R"([1,"invoices","1","i","t1"],[3,"invoices","3","i","t3"])",
                             R"(,"late":[[2,"invoices","4","i","t2",1000000]])"),
                    std::string(kInvoiceTable) + R"(,"horizon_wait_seconds":1)");
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE(run.exitCode == 0);
    CHECK(run.records("invoices").size() == 2);
    CHECK(run.lastState().find(R"("replication_key_value":0)") != std::string::npos);
}

TEST_CASE("a gap that fills is emitted at once, without waiting for the horizon") {
    // Id 2 commits by the second page read while the horizon stays pending (another
    // transaction is held open): reading the range again finds every id, which proves it.
    FakeSetup setup(
        database(R"([1,"invoices","1","i","t1"],[3,"invoices","3","i","t3"])",
                 R"(,"horizon":"pending","late":[[2,"invoices","4","i","t2",1000000,2]])"),
        std::string(kInvoiceTable) + R"(,"horizon_wait_seconds":30,"read_ahead":false)");
    const auto start = std::chrono::steady_clock::now();
    auto run = runTap({"--config", setup.configPath()});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    std::map<int64_t, int> emitted;
    for (const auto& record : run.records("invoices")) ++emitted[record->getValue<int64_t>("id")];
    CHECK(emitted == std::map<int64_t, int>{{1, 1}, {3, 1}, {4, 1}});
    CHECK(run.lastState().find(R"("replication_key_value":3)") != std::string::npos);
    CHECK(run.stderrText.find("may still be committed") == std::string::npos);
}

TEST_CASE("an unknown op stops the run naming the diffgen id, with no bookmark past it") {
    FakeSetup setup(database(R"([1,"invoices","1","i","t1"],[2,"invoices","3","x","t2"])"),
                    std::string(kInvoiceTable) + R"(,"page_size":1,"max_page_size":1)");
    auto run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(run.stderrText.find("diffgen id 2") != std::string::npos);
    CHECK(run.stderrText.find("unknown op 'x'") != std::string::npos);
    CHECK(run.lastState().find(R"("replication_key_value":1)") != std::string::npos);
}

TEST_CASE("on_bad_event skip warns and goes on") {
    FakeSetup setup(database(R"([1,"invoices",null,"i","t1"],[2,"invoices","3","i","t2"])"),
                    std::string(kInvoiceTable) + R"(,"on_bad_event":"skip")");
    auto run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 0);
    CHECK(run.stderrText.find("diffgen id 1") != std::string::npos);
    CHECK(run.records("invoices").size() == 1);
    // The summary counts what was passed over.
    CHECK(run.stderrText.find("1 bad events skipped (on_bad_event skip)") != std::string::npos);
}

TEST_CASE("a missing table or key column is named before any output") {
    FakeSetup setup(database(""), R"("tables":[{"table_name":"invoices","pk_column":"nope"}])");
    auto run = runTap({"--config", setup.configPath()});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(run.stderrText.find("pk_column 'nope'") != std::string::npos);
    CHECK(run.stderrText.find("'invoices'") != std::string::npos);

    FakeSetup missing(database(""), R"("tables":[{"table_name":"orders","pk_column":"id"}])");
    auto second = runTap({"--config", missing.configPath()});
    CHECK(second.exitCode == 1);
    CHECK(second.lines.empty());
    CHECK(second.stderrText.find("table 'orders'") != std::string::npos);
}
