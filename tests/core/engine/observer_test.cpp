// What a run tells its observers (replay/observe/run_observer.hpp), watched from outside as the
// metrics endpoint watches it: through SyncCoordinator::addObserver, against the fake plugin.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/fake_database.hpp"
#include "replay/observe/run_observer.hpp"

using tapdiffgen::core::PageRead;
using tapdiffgen::core::RepullDone;
using tapdiffgen::core::RetryCause;
using tapdiffgen::core::RunObserver;
using tapdiffgen::core::RunPhase;
using tapdiffgen::testing::FakeSetup;
using tapdiffgen::testing::kOneSession;
using tapdiffgen::testing::numberedDatabase;
using tapdiffgen::testing::numberedTablesSetting;
using tapdiffgen::testing::runWatchedSync;

namespace {

// Keeps every call it is told, in order.
class RecordingObserver final : public RunObserver {
public:
    struct Records {
        size_t stream;
        uint64_t rows;
        uint64_t tombstones;
    };

    std::vector<std::string> streams;
    std::vector<RunPhase> phases;
    std::vector<PageRead> pages;
    std::vector<RepullDone> repulls;
    std::vector<Records> records;
    std::vector<std::vector<std::optional<int64_t>>> checkpoints;
    std::vector<RetryCause> retries;
    int runsStarted = 0;

    void runStarted(const std::vector<std::string>& names) override {
        ++runsStarted;
        streams = names;
    }
    void phaseChanged(RunPhase phase) override { phases.push_back(phase); }
    void pageRead(const PageRead& page) override { pages.push_back(page); }
    void rowsRepulled(const RepullDone& repull) override { repulls.push_back(repull); }
    void recordsWritten(size_t stream, uint64_t rows, uint64_t tombstones) override {
        records.push_back({stream, rows, tombstones});
    }
    void retried(RetryCause cause) override { retries.push_back(cause); }
    void checkpointed(const std::vector<std::optional<int64_t>>& bookmarks) override {
        checkpoints.push_back(bookmarks);
    }

    uint64_t rowsOf(size_t stream) const {
        uint64_t rows = 0;
        for (const Records& r : records) rows += r.stream == stream ? r.rows : 0;
        return rows;
    }
    uint64_t tombstonesOf(size_t stream) const {
        uint64_t tombstones = 0;
        for (const Records& r : records) tombstones += r.stream == stream ? r.tombstones : 0;
        return tombstones;
    }
};

// Two tables; rows 1 and 3 of invoices exist, 2 and 9 do not; customer 7 exists.
const char* kDatabase = R"({"tables":{
  "invoices":{"columns":[{"name":"id","kind":"int64","pk":true},{"name":"note","kind":"text"}],
              "rows":[[1,"one"],[3,"three"]]},
  "customers":{"columns":[{"name":"id","kind":"int64","pk":true},{"name":"name","kind":"text"}],
               "rows":[[7,"seven"]]}},
  "diffgen":[[1,"invoices","1","i","2024-01-01T00:00:01+00:00"],
             [2,"invoices","1","u","2024-01-01T00:00:02+00:00"],
             [3,"invoices","2","i","2024-01-01T00:00:03+00:00"],
             [4,"invoices","2","d","2024-01-01T00:00:04+00:00"],
             [5,"customers","7","u","2024-01-01T00:00:05+00:00"],
             [6,"invoices","3","u","2024-01-01T00:00:06+00:00"],
             [7,"invoices","9","u","2024-01-01T00:00:07+00:00"]]})";

const char* kTables = R"("tables":[{"table_name":"invoices","pk_column":"id"},
                                   {"table_name":"customers","pk_column":"id"}])";

}  // namespace

TEST_CASE("an observer added to the run hears its pages, records, tombstones and checkpoints") {
    FakeSetup setup(kDatabase, std::string(kTables) + R"(,"page_size":4)");
    RecordingObserver seen;
    const auto run = runWatchedSync(setup, seen);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);

    CHECK(seen.runsStarted == 1);
    CHECK(seen.streams == std::vector<std::string>{"invoices", "customers"});
    CHECK(seen.phases ==
          std::vector<RunPhase>{RunPhase::Starting, RunPhase::CatchUp, RunPhase::Ended});

    // Pages of 4: ids 1-4 (full), then 5-7.
    REQUIRE(seen.pages.size() == 2);
    CHECK(seen.pages[0].events == 4);
    CHECK(seen.pages[0].full);
    CHECK(seen.pages[0].lastId == 4);
    REQUIRE(seen.pages[0].oldestEventEpochSeconds.has_value());
    CHECK(*seen.pages[0].oldestEventEpochSeconds == doctest::Approx(1704067201.0));
    CHECK(seen.pages[1].events == 3);
    CHECK_FALSE(seen.pages[1].full);
    CHECK(seen.pages[1].lastId == 7);
    CHECK(*seen.pages[1].oldestEventEpochSeconds == doctest::Approx(1704067205.0));

    // invoices: keys 1 and 2 in the first page (2 gone: a tombstone), 3 and 9 in the second
    // (9 gone); customers: key 7.
    CHECK(seen.rowsOf(0) == 2);
    CHECK(seen.tombstonesOf(0) == 2);
    CHECK(seen.rowsOf(1) == 1);
    CHECK(seen.tombstonesOf(1) == 0);
    uint64_t keys = 0;
    for (const RepullDone& repull : seen.repulls) keys += repull.keys;
    CHECK(keys == 5);
    CHECK(run.records("invoices").size() == 4);
    CHECK(run.records("customers").size() == 1);

    // A STATE after each page, each told with both bookmarks.
    REQUIRE(seen.checkpoints.size() == 2);
    CHECK(seen.checkpoints[0] == std::vector<std::optional<int64_t>>{4, 4});
    CHECK(seen.checkpoints[1] == std::vector<std::optional<int64_t>>{7, 7});
    CHECK(run.lastState() ==
          R"({"bookmarks":{"customers":{"replication_key":"diffgen_id","replication_key_value":7},)"
          R"("invoices":{"replication_key":"diffgen_id","replication_key_value":7}}})");
}

TEST_CASE("a following run is told it follows once at the head, and of a lost connection") {
    // 10 events in pages of 4; the second read fails, and the run reconnects at once.
    FakeSetup setup(numberedDatabase(1, 10, R"(,"lose_connection_at_page":2)"),
                    numberedTablesSetting(1) + kOneSession +
                        R"(,"page_size":4,"max_page_size":4,"follow":true,"max_run_seconds":2,)"
                        R"("poll_interval_seconds":0.1,"reconnect_max_wait_seconds":1)");
    RecordingObserver seen;
    const auto run = runWatchedSync(setup, seen);
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);

    CHECK(seen.retries == std::vector<RetryCause>{RetryCause::ConnectionLost});
    REQUIRE(seen.phases.size() >= 4);
    CHECK(seen.phases.front() == RunPhase::Starting);
    CHECK(seen.phases[1] == RunPhase::CatchUp);
    CHECK(seen.phases.back() == RunPhase::Ended);
    CHECK(seen.phases[seen.phases.size() - 2] == RunPhase::Following);
    uint64_t events = 0;
    for (const PageRead& page : seen.pages) events += page.events;
    // The page lost with the connection is read again after it.
    CHECK(events >= 10);
    REQUIRE_FALSE(seen.checkpoints.empty());
    CHECK(seen.checkpoints.back() == std::vector<std::optional<int64_t>>{10});
}
