// The diffgen log: paging and bounds, the exact table filter, range counts with and without
// gaps, the horizon mark of empty pages, ts_created and table_id forms, and the horizon check
// against a transaction another connection keeps open.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "mysql_test_support.hpp"

using namespace tapdiffgen;
using testing::eventIds;

namespace {

// ids 1..10 with a hole at 4 and 8; tables A, a, b (names compared exactly).
void createLog(const testing::DatabaseEnv& db, const std::string& table) {
    testing::exec(db, mytest::withTable(R"SQL(
SET SESSION sql_mode = '';
DROP TABLE IF EXISTS @T;
CREATE TABLE @T (id BIGINT AUTO_INCREMENT PRIMARY KEY, tablename VARCHAR(64),
  table_id BIGINT, op CHAR(1), ts_created DATETIME(6)) DEFAULT CHARSET = utf8mb4;
INSERT INTO @T VALUES
  (1, 'A', 11, 'i', '2024-01-02 03:04:05.678901'), (2, 'a', 12, 'u', '2024-01-02 03:04:06'),
  (3, 'b', 13, 'd', NULL), (5, 'A', 15, 'u', '2024-01-02 03:04:07'),
  (6, 'A', NULL, 'i', '2024-01-02 03:04:08'), (7, 'b', 17, '', '2024-01-02 03:04:09'),
  (9, 'A', 19, NULL, '2024-01-02 03:04:10'), (10, 'a', 20, 'i', '0000-00-00 00:00:00');
)SQL",
                                        table));
}

int64_t nowMicros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

TEST_CASE("mysql diffgen: pages honour after, up-to, limit and the exact table filter") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createLog(db, "tdg_my_dg_paging");
    auto conn = mytest::connect(db);
    core::TableRef log{"", "tdg_my_dg_paging"};

    auto all = conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"A", "a", "b"});
    CHECK(eventIds(all) == std::vector<int64_t>{1, 2, 3, 5, 6, 7, 9, 10});

    auto first = conn->readDiffgenPage(log, 0, INT64_MAX, 3, {"A", "a", "b"});
    CHECK(eventIds(first) == std::vector<int64_t>{1, 2, 3});
    auto second = conn->readDiffgenPage(log, 3, INT64_MAX, 3, {"A", "a", "b"});
    CHECK(eventIds(second) == std::vector<int64_t>{5, 6, 7});
    auto bounded = conn->readDiffgenPage(log, 3, 6, 100, {"A", "a", "b"});
    CHECK(eventIds(bounded) == std::vector<int64_t>{5, 6});
    auto single = conn->readDiffgenPage(log, 0, INT64_MAX, 1, {"b"});
    CHECK(eventIds(single) == std::vector<int64_t>{3});

    // 'A' is not 'a', although the column's collation says they are equal.
    CHECK(eventIds(conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"A"})) ==
          std::vector<int64_t>{1, 5, 6, 9});
    CHECK(eventIds(conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"a"})) ==
          std::vector<int64_t>{2, 10});
    // Many names (padded to a size class) and names matching nothing.
    CHECK(eventIds(conn->readDiffgenPage(log, 0, INT64_MAX, 100,
                                         {"x1", "x2", "b", "x3", "x4", "x5", "x6", "x7", "x8"})) ==
          std::vector<int64_t>{3, 7});
    CHECK(conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"nothing"}).empty());
    CHECK(conn->readDiffgenPage(log, 0, INT64_MAX, 100, {}).empty());
}

TEST_CASE("mysql diffgen: event fields arrive as stored") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createLog(db, "tdg_my_dg_fields");
    auto conn = mytest::connect(db);
    auto page = conn->readDiffgenPage({"", "tdg_my_dg_fields"}, 0, INT64_MAX, 100, {"A", "a", "b"});
    REQUIRE(page.size() == 8);

    CHECK(std::string(page[0].table_name) == "A");
    CHECK(std::string(page[0].table_id, page[0].table_id_size) == "11");
    CHECK(page[0].op == 'i');
    CHECK(std::string(page[0].ts_created) == "2024-01-02T03:04:05.678901+00:00");
    CHECK(std::string(page[1].ts_created) == "2024-01-02T03:04:06.000000+00:00");
    CHECK(page[2].op == 'd');
    CHECK(page[2].ts_created == nullptr);
    CHECK(page[4].table_id_is_null == 1);
    CHECK(page[4].table_id == nullptr);
    CHECK(page[5].op == '\0');             // empty op
    CHECK(page[6].op == '\0');             // NULL op
    CHECK(page[7].ts_created == nullptr);  // zero datetime
}

TEST_CASE("mysql diffgen: string keys and TIMESTAMP ts_created") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
SET SESSION time_zone = '-05:00';
DROP TABLE IF EXISTS tdg_my_dg_text;
CREATE TABLE tdg_my_dg_text (id INT AUTO_INCREMENT PRIMARY KEY, tablename VARCHAR(64),
  table_id VARCHAR(100), op VARCHAR(10), ts_created TIMESTAMP(3) NULL) DEFAULT CHARSET = utf8mb4;
INSERT INTO tdg_my_dg_text (tablename, table_id, op, ts_created) VALUES
  ('t', 'key-😀', 'insert', '2024-06-01 10:00:00.125'), ('t', '', 'u', '2024-06-01 23:30:00');
)SQL");
    auto conn = mytest::connect(db);
    auto page = conn->readDiffgenPage({"", "tdg_my_dg_text"}, 0, INT64_MAX, 10, {"t"});
    REQUIRE(page.size() == 2);
    CHECK(std::string(page[0].table_id, page[0].table_id_size) == "key-😀");
    CHECK(page[0].op == 'i');
    // Written at -05:00: the instant is 5 hours later in UTC.
    CHECK(std::string(page[0].ts_created) == "2024-06-01T15:00:00.125000+00:00");
    CHECK(std::string(page[1].ts_created) == "2024-06-02T04:30:00.000000+00:00");
    CHECK(page[1].table_id_is_null == 0);
    CHECK(page[1].table_id_size == 0);
}

TEST_CASE("mysql diffgen: range counts reveal gaps, in the same read as the events") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createLog(db, "tdg_my_dg_counts");
    auto conn = mytest::connect(db);
    core::TableRef log{"", "tdg_my_dg_counts"};

    // 1..3 has no gap: 3 rows for 3 ids.
    CHECK(conn->readDiffgenPage(log, 0, INT64_MAX, 3, {"A", "a", "b"}).rangeRowCount() == 3);
    // after 3 up to 7: ids 5, 6, 7 exist, 4 is missing.
    auto gap = conn->readDiffgenPage(log, 3, INT64_MAX, 3, {"A", "a", "b"});
    CHECK(eventIds(gap) == std::vector<int64_t>{5, 6, 7});
    CHECK(gap.rangeRowCount() == 3);  // < 7 - 3
    // The count covers every table, not only the filtered ones: up to id 6 (the last 'A'
    // event of the page) there are rows 1, 2, 3, 5, 6.
    auto filtered = conn->readDiffgenPage(log, 0, INT64_MAX, 3, {"A"});
    CHECK(eventIds(filtered) == std::vector<int64_t>{1, 5, 6});
    CHECK(filtered.rangeRowCount() == 5);
}

TEST_CASE("mysql diffgen: a range wider than sixteen pages is not counted") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, mytest::withTable(R"SQL(
DROP TABLE IF EXISTS @T;
CREATE TABLE @T (id BIGINT AUTO_INCREMENT PRIMARY KEY, tablename VARCHAR(64),
  table_id BIGINT, op CHAR(1), ts_created DATETIME(6)) DEFAULT CHARSET = utf8mb4;
INSERT INTO @T (id, tablename, table_id, op) VALUES (1, 'other', 1, 'i'), (40, 'A', 2, 'i');
)SQL",
                                        "tdg_my_dg_wide"));
    auto conn = mytest::connect(db);
    core::TableRef log{"", "tdg_my_dg_wide"};

    // A page of 2 counts up to 32 ids past after_id: (0, 40] is too wide to count.
    auto wide = conn->readDiffgenPage(log, 0, INT64_MAX, 2, {"A"});
    CHECK(eventIds(wide) == std::vector<int64_t>{40});
    CHECK(wide.rangeRowCount() == -1);
    // A page of 3 counts up to 48 ids: both rows, the gap shows.
    CHECK(conn->readDiffgenPage(log, 0, INT64_MAX, 3, {"A"}).rangeRowCount() == 2);
}

TEST_CASE("mysql diffgen: every page has a mark, empty pages too") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createLog(db, "tdg_my_dg_marks");
    auto conn = mytest::connect(db);
    core::TableRef log{"", "tdg_my_dg_marks"};

    int64_t before = nowMicros();
    auto empty = conn->readDiffgenPage(log, 10, INT64_MAX, 100, {"A", "a", "b"});
    int64_t after = nowMicros();
    CHECK(empty.empty());
    CHECK(empty.rangeRowCount() == 0);
    CHECK(empty.mark().words[0] == 2);
    // The server's clock (same machine) in microseconds since the epoch.
    CHECK(empty.mark().words[1] >= before - 2'000'000);
    CHECK(empty.mark().words[1] <= after + 2'000'000);

    auto full = conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"A"});
    CHECK(full.mark().words[0] == 2);
    CHECK(full.mark().words[1] >= empty.mark().words[1]);
}

TEST_CASE("mysql diffgen: max id, and an empty log") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createLog(db, "tdg_my_dg_max");
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_dg_empty;
CREATE TABLE tdg_my_dg_empty (id BIGINT AUTO_INCREMENT PRIMARY KEY, tablename VARCHAR(64),
  table_id BIGINT, op CHAR(1), ts_created DATETIME);
)SQL");
    auto conn = mytest::connect(db);
    CHECK(conn->maxDiffgenId({"", "tdg_my_dg_max"}) == 10);
    CHECK_FALSE(conn->maxDiffgenId({"", "tdg_my_dg_empty"}).has_value());
    auto page = conn->readDiffgenPage({"", "tdg_my_dg_empty"}, 0, INT64_MAX, 10, {"t"});
    CHECK(page.empty());
    CHECK(page.mark().words[0] == 2);
}

TEST_CASE("mysql diffgen: the horizon stays pending while an insert is uncommitted") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_dg_h;
CREATE TABLE tdg_my_dg_h (id BIGINT AUTO_INCREMENT PRIMARY KEY, tablename VARCHAR(64),
  table_id BIGINT, op CHAR(1), ts_created DATETIME(6) DEFAULT NOW(6)) ENGINE = InnoDB;
INSERT INTO tdg_my_dg_h (tablename, table_id, op) VALUES ('t', 1, 'i'), ('t', 2, 'i');
)SQL");
    auto conn = mytest::connect(db);
    core::TableRef log{"", "tdg_my_dg_h"};

    mytest::RawConnection blocker(db);
    blocker.exec("BEGIN; INSERT INTO tdg_my_dg_h (tablename, table_id, op) VALUES ('t', 3, 'i')");
    testing::exec(db, "INSERT INTO tdg_my_dg_h (tablename, table_id, op) VALUES ('t', 4, 'i')");

    // Id 3 belongs to the open transaction: the page sees 1, 2, 4 and a gap.
    auto page = conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"t"});
    REQUIRE(eventIds(page) == std::vector<int64_t>{1, 2, 4});
    CHECK(page.rangeRowCount() == 3);
    TdgHorizonMark mark = page.mark();
    CHECK(conn->checkHorizon(mark) == std::optional<bool>(false));
    CHECK(conn->checkHorizon(mark) == std::optional<bool>(false));

    blocker.exec("COMMIT");
    // Other tests may hold short transactions of their own; wait them out.
    std::optional<bool> final;
    for (int attempt = 0; attempt < 100; ++attempt) {
        final = conn->checkHorizon(mark);
        if (final == std::optional<bool>(true)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CHECK(final == std::optional<bool>(true));
    // And the committed row is visible now.
    CHECK(eventIds(conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"t"})) ==
          std::vector<int64_t>{1, 2, 3, 4});
}

// INNODB_TRX is a copy of InnoDB's transaction list, refilled only after 100 ms without a read.
// A client reading it faster keeps a copy from before the held transaction began: the check must
// notice the copy is old instead of calling the range final.
TEST_CASE("mysql diffgen: a stale INNODB_TRX copy never makes a range final") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_dg_stale;
CREATE TABLE tdg_my_dg_stale (id BIGINT AUTO_INCREMENT PRIMARY KEY, tablename VARCHAR(64),
  table_id BIGINT, op CHAR(1), ts_created DATETIME(6) DEFAULT NOW(6)) ENGINE = InnoDB;
INSERT INTO tdg_my_dg_stale (tablename, table_id, op) VALUES ('t', 1, 'i');
)SQL");
    auto conn = mytest::connect(db);
    core::TableRef log{"", "tdg_my_dg_stale"};

    // Another client polls INNODB_TRX every 20 ms from before the held transaction on.
    std::atomic<bool> stopPolling{false};
    std::atomic<int> polls{0};
    std::thread poller([&] {
        mytest::RawConnection monitor(db);
        while (!stopPolling) {
            monitor.scalar("SELECT COUNT(*) FROM information_schema.INNODB_TRX");
            ++polls;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    while (polls < 3) std::this_thread::sleep_for(std::chrono::milliseconds(5));

    mytest::RawConnection blocker(db);
    blocker.exec(
        "BEGIN; INSERT INTO tdg_my_dg_stale (tablename, table_id, op) VALUES ('t', 2, 'i')");
    testing::exec(db, "INSERT INTO tdg_my_dg_stale (tablename, table_id, op) VALUES ('t', 3, 'i')");
    // The copy the poller keeps alive predates the held transaction.
    CHECK(mytest::RawConnection(db).scalar("SELECT COUNT(*) FROM information_schema.INNODB_TRX "
                                           "WHERE trx_mysql_thread_id = " +
                                           blocker.scalar("SELECT CONNECTION_ID()")) == "0");

    auto page = conn->readDiffgenPage(log, 0, INT64_MAX, 100, {"t"});
    REQUIRE(eventIds(page) == std::vector<int64_t>{1, 3});
    TdgHorizonMark mark = page.mark();
    for (int attempt = 0; attempt < 15; ++attempt) {
        CHECK(conn->checkHorizon(mark) == std::optional<bool>(false));
        std::this_thread::sleep_for(std::chrono::milliseconds(70));
    }
    stopPolling = true;
    poller.join();

    // Once the copy is refilled the held transaction is in it: still pending.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(conn->checkHorizon(mark) == std::optional<bool>(false));

    blocker.exec("COMMIT");
    std::optional<bool> final;
    for (int attempt = 0; attempt < 100 && final != std::optional<bool>(true); ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        final = conn->checkHorizon(mark);
    }
    CHECK(final == std::optional<bool>(true));
}

TEST_CASE("mysql diffgen: without PROCESS the horizon is not implemented, said once") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    admin->exec(R"SQL(
CREATE USER IF NOT EXISTS 'tdg_my_noproc'@'127.0.0.1' IDENTIFIED BY 'np-secret-1';
GRANT SELECT ON tapdb.* TO 'tdg_my_noproc'@'127.0.0.1';
)SQL");
    testing::exec(db, R"SQL(
CREATE TABLE IF NOT EXISTS tdg_my_dg_np (id BIGINT AUTO_INCREMENT PRIMARY KEY,
  tablename VARCHAR(64), table_id BIGINT, op CHAR(1), ts_created DATETIME);
)SQL");
    auto log = std::make_shared<testing::LogLines>();
    auto conn = mytest::connect(db, {{"user", "tdg_my_noproc"}, {"password", "np-secret-1"}}, log);
    auto page = conn->readDiffgenPage({"", "tdg_my_dg_np"}, 0, INT64_MAX, 10, {"t"});
    TdgHorizonMark mark = page.mark();
    CHECK_FALSE(conn->checkHorizon(mark).has_value());
    CHECK_FALSE(conn->checkHorizon(mark).has_value());
    CHECK(log->count(TDG_LOG_WARNING, "PROCESS") == 1);
    // A mark the plugin did not make cannot be judged either.
    TdgHorizonMark none{};
    CHECK_FALSE(conn->checkHorizon(none).has_value());
}
