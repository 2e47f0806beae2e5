// journal_bounds and inspect_journal against MariaDB: the log's bounds as it is filled, pruned,
// emptied and reset (AUTO_INCREMENT and a SEQUENCE); the foreign keys whose actions bypass the
// child's triggers, also for a user who may only SELECT; the journal triggers and the names they
// write; the horizon's missing PROCESS privilege; and the statements an inspection costs,
// counted by the server, for 2 tables and for 200.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mysql_test_support.hpp"

using namespace tapdiffgen;
using testing::boundsOf;
using testing::foreignKeyLines;
using testing::triggerLines;

namespace {

core::TableRef unqualified(const std::string& name) { return {"", name}; }

std::string createLogSql(const std::string& table, const std::string& id) {
    return mytest::withTable("DROP TABLE IF EXISTS @T; CREATE TABLE @T (" + id +
                                 ", tablename VARCHAR(128) NOT NULL, table_id VARCHAR(255) NOT "
                                 "NULL, op CHAR(1) NOT NULL, ts_created TIMESTAMP(6) NOT NULL "
                                 "DEFAULT CURRENT_TIMESTAMP(6))",
                             table);
}

void createLog(const testing::DatabaseEnv& db, const std::string& table, const std::string& id) {
    testing::exec(db, createLogSql(table, id));
}

// Parents and children (tables @T_*): two whose actions bypass the child's triggers, one with
// none.
constexpr const char* kForeignKeys = R"SQL(
DROP TABLE IF EXISTS @T_cascade, @T_setnull, @T_restrict, @T_parent;
CREATE TABLE @T_parent (id INT PRIMARY KEY) ENGINE = InnoDB;
CREATE TABLE @T_cascade (id INT PRIMARY KEY, p INT,
    CONSTRAINT @T_fk_cascade FOREIGN KEY (p) REFERENCES @T_parent (id)
        ON DELETE CASCADE) ENGINE = InnoDB;
CREATE TABLE @T_setnull (id INT PRIMARY KEY, p INT, q INT,
    CONSTRAINT @T_fk_setnull FOREIGN KEY (p) REFERENCES @T_parent (id)
        ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT @T_fk_quiet FOREIGN KEY (q) REFERENCES @T_parent (id))
    ENGINE = InnoDB;
CREATE TABLE @T_restrict (id INT PRIMARY KEY, p INT,
    CONSTRAINT @T_fk_restrict FOREIGN KEY (p) REFERENCES @T_parent (id)
        ON DELETE RESTRICT ON UPDATE NO ACTION) ENGINE = InnoDB;
)SQL";

std::vector<core::TableRef> childrenOf(const std::string& prefix) {
    return {unqualified(prefix + "_cascade"), unqualified(prefix + "_setnull"),
            unqualified(prefix + "_restrict"), unqualified(prefix + "_parent")};
}

void checkBypassingKeys(const core::JournalInspection& facts, const std::string& prefix) {
    REQUIRE(facts.tables.size() >= 4);
    CHECK(foreignKeyLines(facts.tables[0]) ==
          std::vector<std::string>{prefix + "_fk_cascade -> tapdb." + prefix +
                                   "_parent: ON DELETE CASCADE"});
    CHECK(foreignKeyLines(facts.tables[1]) ==
          std::vector<std::string>{prefix + "_fk_setnull -> tapdb." + prefix +
                                   "_parent: ON DELETE SET NULL, ON UPDATE CASCADE"});
    CHECK(facts.tables[2].bypassingForeignKeys.empty());
    CHECK(facts.tables[3].bypassingForeignKeys.empty());  // a parent is no child
}

// A login of its own with `grants` on tapdb (and whatever else `grants` says).
void createUser(mytest::RawConnection& admin, const std::string& user, const std::string& grants) {
    admin.exec("CREATE USER IF NOT EXISTS '" + user +
               "'@'127.0.0.1' IDENTIFIED BY 'jn-secret-1'; REVOKE ALL PRIVILEGES, GRANT OPTION "
               "FROM '" +
               user + "'@'127.0.0.1'; " + grants);
}

testing::PluginOptions loginOf(const std::string& user) {
    return {{"user", user}, {"password", "jn-secret-1"}};
}

}  // namespace

TEST_CASE("mysql journal bounds: filled, pruned, emptied, truncated and recreated") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    const std::string log = "tdg_my_jn_bounds";
    const std::string id = "id BIGINT AUTO_INCREMENT PRIMARY KEY";
    createLog(db, log, id);
    auto connection = mytest::connect(db);
    testing::checkBoundsThroughLife(*connection, log,
                                    {[&](const std::string& sql) { testing::exec(db, sql); },
                                     "TRUNCATE TABLE " + log, createLogSql(log, id)});
}

TEST_CASE("mysql journal: a SEQUENCE with CACHE 50 hands out ids one by one to every session") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    const std::string log = "tdg_my_jn_seqlog";
    testing::exec(db, "DROP TABLE IF EXISTS " + log +
                          "; DROP SEQUENCE IF EXISTS tdg_my_jn_seq; CREATE SEQUENCE "
                          "tdg_my_jn_seq CACHE 50");
    createLog(db, log, "id BIGINT NOT NULL DEFAULT NEXT VALUE FOR tdg_my_jn_seq PRIMARY KEY");
    // Two sessions taking turns get consecutive ids: the cache is the server's, not a session's,
    // so no session holds ids between its transactions.
    mytest::RawConnection first(db), second(db);
    for (int round = 0; round < 2; ++round) {
        for (mytest::RawConnection* session : {&first, &second}) {
            session->exec("INSERT INTO " + log +
                          " (tablename, table_id, op) VALUES ('t', '1', 'i')");
        }
    }
    CHECK(first.scalar("SELECT GROUP_CONCAT(id ORDER BY id) FROM " + log) == "1,2,3,4");

    auto connection = mytest::connect(db);
    // The next value not yet in the server's cache: the end of the block of 50.
    CHECK(boundsOf(*connection, log) == "1..4 next 51");
    CHECK(boundsOf(*connection, log) == "1..4 next 51");
    auto facts = connection->inspectJournal(unqualified(log), {}, false);
    REQUIRE(facts.has_value());
    CHECK(facts->idSource == "tapdb.tdg_my_jn_seq");
    CHECK(facts->idCache == 1);
    testing::exec(db, "DELETE FROM " + log + "; ALTER SEQUENCE tdg_my_jn_seq RESTART");
    CHECK(boundsOf(*connection, log) == "empty next 1");

    // A login that may read the log but not the sequence: the next id is unknown.
    createUser(*admin, "tdg_my_jn_logonly",
               "GRANT SELECT ON tapdb." + log + " TO 'tdg_my_jn_logonly'@'127.0.0.1'");
    auto limited = mytest::connect(db, loginOf("tdg_my_jn_logonly"));
    testing::exec(db, "INSERT INTO " + log + " (tablename, table_id, op) VALUES ('t', '1', 'i')");
    CHECK(boundsOf(*limited, log) == "1..1 next unknown");
    CHECK(boundsOf(*limited, log) == "1..1 next unknown");
}

TEST_CASE("mysql inspect journal: AUTO_INCREMENT, bypassing foreign keys, no partitions") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    testing::exec(db, mytest::withTable(kForeignKeys, "tdg_my_jn_fk"));
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_jn_parted;
CREATE TABLE tdg_my_jn_parted (id INT PRIMARY KEY) PARTITION BY HASH (id) PARTITIONS 2;
)SQL");
    createLog(db, "tdg_my_jn_log", "id BIGINT AUTO_INCREMENT PRIMARY KEY");
    auto connection = mytest::connect(db);
    std::vector<core::TableRef> tables = childrenOf("tdg_my_jn_fk");
    tables.push_back(unqualified("tdg_my_jn_parted"));
    tables.push_back(unqualified("tdg_my_jn_missing"));
    tables.push_back({"tapdb", "tdg_my_jn_fk_cascade"});
    auto facts = connection->inspectJournal(unqualified("tdg_my_jn_log"), tables, false);
    REQUIRE(facts.has_value());
    CHECK(facts->idSource == "tapdb.tdg_my_jn_log AUTO_INCREMENT");
    CHECK(facts->idCache == 1);
    CHECK_FALSE(facts->horizonProblem.has_value());
    REQUIRE(facts->tables.size() == tables.size());
    checkBypassingKeys(*facts, "tdg_my_jn_fk");
    for (size_t i = 4; i < tables.size(); ++i) {
        CHECK(facts->tables[i].bypassingForeignKeys.size() == (i + 1 == tables.size() ? 1 : 0));
        CHECK(facts->tables[i].partitions.empty());
        CHECK(facts->tables[i].triggers.empty());
    }
    CHECK(foreignKeyLines(facts->tables.back()) == foreignKeyLines(facts->tables[0]));

    // The actions do bypass the child's trigger: the cascade leaves no trace in the log.
    testing::exec(db, R"SQL(
CREATE TRIGGER tdg_my_jn_fk_cascade_d AFTER DELETE ON tdg_my_jn_fk_cascade FOR EACH ROW
    INSERT INTO tdg_my_jn_log (tablename, table_id, op) VALUES ('cascade', OLD.id, 'd');
INSERT INTO tdg_my_jn_fk_parent VALUES (1);
INSERT INTO tdg_my_jn_fk_cascade VALUES (10, 1);
DELETE FROM tdg_my_jn_fk_parent WHERE id = 1;
)SQL");
    CHECK(testing::queryScalar(db, "SELECT COUNT(*) FROM tdg_my_jn_fk_cascade") == "0");
    CHECK(testing::queryScalar(db, "SELECT COUNT(*) FROM tdg_my_jn_log") == "0");
}

TEST_CASE("mysql inspect journal: a SELECT-only login, with and without PROCESS") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    testing::exec(db, mytest::withTable(kForeignKeys, "tdg_my_jn_sfk"));
    const std::vector<core::TableRef> children = childrenOf("tdg_my_jn_sfk");
    createLog(db, "tdg_my_jn_log2", "id BIGINT AUTO_INCREMENT PRIMARY KEY");
    createUser(*admin, "tdg_my_jn_select",
               "GRANT SELECT ON tapdb.* TO 'tdg_my_jn_select'@'127.0.0.1'");
    createUser(*admin, "tdg_my_jn_process",
               "GRANT SELECT ON tapdb.* TO 'tdg_my_jn_process'@'127.0.0.1'; GRANT PROCESS ON *.* "
               "TO 'tdg_my_jn_process'@'127.0.0.1'");

    // Without PROCESS: the horizon's problem names the grant; information_schema hides the
    // foreign keys' actions, which a warning says instead of reporting none silently.
    auto log = std::make_shared<testing::LogLines>();
    auto select = mytest::connect(db, loginOf("tdg_my_jn_select"), log);
    auto facts = select->inspectJournal(unqualified("tdg_my_jn_log2"), children, false);
    REQUIRE(facts.has_value());
    REQUIRE(facts->horizonProblem.has_value());
    CHECK(facts->horizonProblem->find("GRANT PROCESS ON *.* TO 'tdg_my_jn_select'@'127.0.0.1'") !=
          std::string::npos);
    CHECK(facts->horizonProblem->find('\n') == std::string::npos);
    for (const core::TableJournal& table : facts->tables) CHECK(table.bypassingForeignKeys.empty());
    CHECK(log->count(TDG_LOG_WARNING, "tdg_my_jn_sfk_fk_cascade of tapdb.tdg_my_jn_sfk_cascade") ==
          1);
    CHECK(log->count(TDG_LOG_WARNING, "tdg_my_jn_sfk_fk_quiet") == 1);
    // The horizon check then says the same once, not again.
    TdgHorizonMark mark =
        select->readDiffgenPage(unqualified("tdg_my_jn_log2"), 0, INT64_MAX, 10, {"t"}).mark();
    CHECK_FALSE(select->checkHorizon(mark).has_value());
    CHECK(log->count(TDG_LOG_WARNING, "GRANT PROCESS") == 1);
    // Triggers are shown only to a user with the TRIGGER privilege: an error, not "none".
    std::string message;
    CHECK(testing::statusOf(
              [&] { select->inspectJournal(unqualified("tdg_my_jn_log2"), children, true); },
              &message) == TDG_UNAUTHORIZED);
    CHECK(message.find("GRANT TRIGGER ON `tapdb`.`tdg_my_jn_sfk_cascade`") != std::string::npos);

    // With PROCESS the actions come from InnoDB's own list.
    auto process = mytest::connect(db, loginOf("tdg_my_jn_process"));
    facts = process->inspectJournal(unqualified("tdg_my_jn_log2"), children, false);
    REQUIRE(facts.has_value());
    CHECK_FALSE(facts->horizonProblem.has_value());
    checkBypassingKeys(*facts, "tdg_my_jn_sfk");
}

TEST_CASE("mysql inspect journal: journal triggers and the names they write") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    createLog(db, "tdg_my_jn_tlog", "id BIGINT AUTO_INCREMENT PRIMARY KEY");
    testing::exec(db, R"SQL(
DROP TABLE IF EXISTS tdg_my_jn_shipped, tdg_my_jn_bytes, tdg_my_jn_other;
CREATE TABLE tdg_my_jn_shipped (id INT PRIMARY KEY);
CREATE TABLE tdg_my_jn_bytes (k VARCHAR(20) PRIMARY KEY);
CREATE TABLE tdg_my_jn_other (id INT PRIMARY KEY);
-- The shipped triggers (packaging/diffgen/mysql.sql).
CREATE TRIGGER tdg_my_jn_shipped_i AFTER INSERT ON tdg_my_jn_shipped FOR EACH ROW
    INSERT INTO tdg_my_jn_tlog (tablename, table_id, op) VALUES ('tdg_my_jn_shipped', NEW.id, 'i');
CREATE TRIGGER tdg_my_jn_shipped_u AFTER UPDATE ON tdg_my_jn_shipped FOR EACH ROW
    INSERT INTO tdg_my_jn_tlog (tablename, table_id, op)
    SELECT 'tdg_my_jn_shipped', OLD.id, 'd' FROM DUAL WHERE NOT (OLD.id <=> NEW.id)
    UNION ALL SELECT 'tdg_my_jn_shipped', NEW.id, 'u';
CREATE TRIGGER tdg_my_jn_shipped_d AFTER DELETE ON tdg_my_jn_shipped FOR EACH ROW
    INSERT INTO `tapdb`.`tdg_my_jn_tlog` (tablename, table_id, op)
    VALUES ('tdg_my_jn_shipped', OLD.id, 'd');
-- Keys compared byte for byte, in a compound body, under another journal name.
CREATE TRIGGER tdg_my_jn_bytes_u AFTER UPDATE ON tdg_my_jn_bytes FOR EACH ROW
BEGIN
    IF NOT (CAST(OLD.k AS BINARY) <=> CAST(NEW.k AS BINARY)) THEN
        INSERT INTO tdg_my_jn_tlog (tablename, table_id, op) VALUES ('sales.bytes', OLD.k, 'd');
    END IF;
    INSERT INTO tdg_my_jn_tlog SET tablename = 'sales.bytes', table_id = NEW.k, op = 'u';
END;
-- A name the catalog cannot tell, and a trigger that writes elsewhere.
CREATE TRIGGER tdg_my_jn_other_i AFTER INSERT ON tdg_my_jn_other FOR EACH ROW
    INSERT INTO tdg_my_jn_tlog (tablename, table_id, op)
    VALUES (CONCAT('tdg_', 'my_jn_other'), NEW.id, 'i');
CREATE TRIGGER tdg_my_jn_other_d AFTER DELETE ON tdg_my_jn_other FOR EACH ROW
    INSERT INTO tdg_my_jn_parent_audit (id) VALUES (OLD.id);
)SQL");
    auto connection = mytest::connect(db);
    const std::vector<core::TableRef> tables = {unqualified("tdg_my_jn_shipped"),
                                                unqualified("tdg_my_jn_bytes"),
                                                unqualified("tdg_my_jn_other")};
    auto facts = connection->inspectJournal(unqualified("tdg_my_jn_tlog"), tables, true);
    REQUIRE(facts.has_value());
    REQUIRE(facts->tables.size() == 3);
    CHECK(triggerLines(facts->tables[0]) ==
          std::vector<std::string>{"tdg_my_jn_shipped_i INSERT -> tdg_my_jn_shipped",
                                   "tdg_my_jn_shipped_u UPDATE -> tdg_my_jn_shipped",
                                   "tdg_my_jn_shipped_d DELETE -> tdg_my_jn_shipped"});
    CHECK(triggerLines(facts->tables[1]) ==
          std::vector<std::string>{"tdg_my_jn_bytes_u UPDATE -> sales.bytes"});
    CHECK(triggerLines(facts->tables[2]) ==
          std::vector<std::string>{"tdg_my_jn_other_i INSERT -> (unknown)"});
    // Not asked for: none.
    facts = connection->inspectJournal(unqualified("tdg_my_jn_tlog"), tables, false);
    REQUIRE(facts.has_value());
    CHECK(facts->tables[0].triggers.empty());
}

// MariaDB counts each user's statements (information_schema.USER_STATISTICS, with userstat on):
// a login only this test uses counts the plugin's. The counts for 2 and 200 tables must agree.
TEST_CASE("mysql inspect journal: the same few statements for 200 tables as for 2") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    admin->exec("SET GLOBAL userstat = 1");
    createUser(*admin, "tdg_my_jn_count",
               "GRANT ALL ON tapdb.* TO 'tdg_my_jn_count'@'127.0.0.1'; GRANT PROCESS ON *.* TO "
               "'tdg_my_jn_count'@'127.0.0.1'");
    createLog(db, "tdg_my_jn_clog", "id BIGINT AUTO_INCREMENT PRIMARY KEY");
    // MEMORY tables: 200 InnoDB tables took 6 s to create; the catalog reads them alike.
    std::string tables;
    for (int i = 1; i <= 200; ++i) {
        tables += "CREATE TABLE IF NOT EXISTS tdg_my_jn_c" + std::to_string(i) +
                  " (id INT PRIMARY KEY) ENGINE = MEMORY; ";
    }
    testing::exec(db, tables);
    auto counted = [&] {
        return std::stoll(admin->scalar(
            "SELECT SELECT_COMMANDS + OTHER_COMMANDS FROM information_schema.USER_STATISTICS "
            "WHERE USER = 'tdg_my_jn_count'"));
    };
    // A session that ended is added to the counts a moment later: the count before the work
    // is the one that no longer changes, or the last session's statements land in this one's.
    auto settledCount = [&] {
        int64_t last = counted();
        for (int i = 0; i < 40; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            const int64_t now = counted();
            if (now == last) return now;
            last = now;
        }
        return last;
    };
    // Both counts settle, and the work's session ends before the second: its statements are
    // all in it, and none of them can land in the next measurement's count before the work.
    auto statements = [&](const std::function<void(core::DialectConnection&)>& work) {
        int64_t before = 0;
        {
            auto connection = mytest::connect(db, loginOf("tdg_my_jn_count"));
            before = settledCount();
            work(*connection);
        }
        return settledCount() - before;
    };
    auto tablesUpTo = [](int count) {
        std::vector<core::TableRef> refs;
        for (int i = 1; i <= count; ++i)
            refs.push_back(unqualified("tdg_my_jn_c" + std::to_string(i)));
        return refs;
    };
    const core::TableRef log = unqualified("tdg_my_jn_clog");
    const int64_t two = statements([&](core::DialectConnection& connection) {
        connection.inspectJournal(log, tablesUpTo(2), true);
    });
    const int64_t many = statements([&](core::DialectConnection& connection) {
        connection.inspectJournal(log, tablesUpTo(200), true);
    });
    const int64_t bounds = statements([&](core::DialectConnection& connection) {
        connection.journalBounds(log);
        connection.journalBounds(log);
    });
    MESSAGE("statements: inspect 2 tables " << two << ", 200 tables " << many << ", bounds twice "
                                            << bounds);
    CHECK(two == many);
    // The id column, the chunk's five SELECTs (foreign keys, their actions, triggers, two
    // privilege reads) and the horizon's INNODB_TRX read.
    CHECK(many == 7);
    CHECK(bounds == 2);
}
