// The real binary over TLS that verifies the test server's certificate: records arrive, and
// the same run against a name or CA the certificate does not pass stops before any output.
#include <doctest/doctest.h>

#include "dialect_fixture.hpp"
#include "support/tls.hpp"

using namespace tapdiffgen::testing;

namespace {

// Runs the tap with `verified` (ssl settings that must pass) and then with `refused` (settings
// that must not), on a small journalled table.
void replaysOverTls(const DatabaseEnv& env, const std::string& verified, const std::string& refused,
                    const std::string& refusal) {
    JournalledSchema schema(env, "tls_e2e");
    schema.createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
    const std::string table = schema.table("items");
    schema.exec("INSERT INTO " + table + " VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    schema.exec("DELETE FROM " + table + " WHERE id = 2");

    ScratchDir dir;
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {table}, verified)});
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    auto replica = replicaOf(run.records(table), "id");
    CHECK(replica.size() == 2);
    CHECK(replica.count("1") == 1);
    CHECK(replica.count("3") == 1);
    CHECK(run.records(table).size() == 3);

    TapRun stopped = runTapBinary({"--config", schema.writeConfig(dir, {table}, refused)});
    CHECK(stopped.exitCode != 0);
    CHECK(stopped.messages("RECORD").empty());
    CHECK_MESSAGE(stopped.stderrText.find(refusal) != std::string::npos, stopped.stderrText);
}

std::string tlsSettings(const std::string& mode, const std::string& ca) {
    return R"("ssl_mode":")" + mode + R"(","ssl_root_cert":")" + ca + R"(")";
}

}  // namespace

TEST_CASE("postgres: verify-full against localhost delivers the records") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    // The certificate names localhost only; libpq reaches it over TCP, like 127.0.0.1.
    DatabaseEnv byName = db;
    byName.host = "localhost";
    replaysOverTls(byName, tlsSettings("verify-full", tls.ca),
                   tlsSettings("verify-full", tls.otherCa), "certificate verify failed");
}

TEST_CASE("postgres: verify-full against 127.0.0.1 stops on the host name") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    REQUIRE(db.host == "127.0.0.1");
    ScratchDir dir;
    JournalledSchema schema(db, "tls_e2e_ip");
    schema.createTable("items", "id INTEGER PRIMARY KEY", "id");
    TapRun run = runTapBinary({"--config", schema.writeConfig(dir, {schema.table("items")},
                                                              tlsSettings("verify-full", tls.ca))});
    CHECK(run.exitCode != 0);
    CHECK(run.lines.empty());
    CHECK_MESSAGE(
        run.stderrText.find("does not match host name \"127.0.0.1\"") != std::string::npos,
        run.stderrText);
}

TEST_CASE("mysql: verify-ca with the test CA delivers the records") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    replaysOverTls(db, tlsSettings("verify-ca", tls.ca), tlsSettings("verify-ca", tls.otherCa),
                   "self-signed certificate in certificate chain");
}
