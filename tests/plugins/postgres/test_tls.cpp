// TLS against the test server, which presents a certificate of the test CA for DNS:localhost
// only: each ssl_mode, the CA and host-name checks, a client certificate, the settings libpq
// refuses, and a session cut while in use. What the server sees is read through the plugin's
// own session.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "pg_test_support.hpp"
#include "support/tap_process.hpp"
#include "support/tls.hpp"

using namespace tapdiffgen;

namespace {

using Row = std::vector<std::string>;

// A view over pg_stat_ssl runs in the session that reads it: read through the plugin, it shows
// what the server knows of the plugin's connection. A view per test case, as they run in
// parallel.
class TlsProbe {
public:
    TlsProbe(const testing::DatabaseEnv& db, std::string view) : view_(std::move(view)) {
        testing::exec(db, "CREATE OR REPLACE VIEW " + view_ +
                              " AS SELECT 1 AS id, ssl, client_dn FROM pg_stat_ssl"
                              " WHERE pid = pg_backend_pid()");
    }

    /// {ssl, client_dn} of `connection`'s session, rendered: {"BOOL:true", "TEXT:/CN=tap"}.
    Row of(core::DialectConnection& connection) const {
        testing::Collector collected;
        connection.scanTable({"", view_}, {"id", "ssl", "client_dn"}, "id", 10,
                             collected.callback());
        REQUIRE(collected.rows.size() == 1);
        return {collected.rows[0].begin() + 1, collected.rows[0].end()};
    }

private:
    std::string view_;
};

const Row kPlain{"BOOL:false", "NULL"};
const Row kEncrypted{"BOOL:true", "NULL"};

}  // namespace

TEST_CASE("tls: disable keeps the session in plain text") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_pg_tls_disable");
    CHECK(probe.of(*pgtest::connect(db, {{"ssl_mode", "disable"}})) == kPlain);
}

TEST_CASE("tls: prefer (the default) and require encrypt the session") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_pg_tls_require");
    CHECK(probe.of(*pgtest::connect(db)) == kEncrypted);
    CHECK(probe.of(*pgtest::connect(db, {{"ssl_mode", "prefer"}})) == kEncrypted);
    CHECK(probe.of(*pgtest::connect(db, {{"ssl_mode", "require"}})) == kEncrypted);
}

TEST_CASE("tls: verify-ca accepts the test CA and refuses an unrelated one") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_pg_tls_verify_ca");
    // The host is 127.0.0.1, which the certificate does not name: verify-ca checks the chain only.
    auto verified = pgtest::connect(db, {{"ssl_mode", "verify-ca"}, {"ssl_root_cert", tls.ca}});
    CHECK(probe.of(*verified) == kEncrypted);

    testing::checkTlsRefused(
        pgtest::connectFailure(db, {{"ssl_mode", "verify-ca"}, {"ssl_root_cert", tls.otherCa}}),
        "SSL error: certificate verify failed");
}

TEST_CASE(
    "tls: verify-full accepts host localhost and refuses 127.0.0.1, which the certificate "
    "does not name") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_pg_tls_verify_full");
    auto verifyFull = [](const std::string& host, const std::string& ca) {
        return testing::PluginOptions{
            {"host", host}, {"ssl_mode", "verify-full"}, {"ssl_root_cert", ca}};
    };
    CHECK(probe.of(*pgtest::connect(db, verifyFull("localhost", tls.ca))) == kEncrypted);

    testing::checkTlsRefused(pgtest::connectFailure(db, verifyFull("127.0.0.1", tls.ca)),
                             "does not match host name \"127.0.0.1\"");
    // The right name does not make an unrelated CA acceptable.
    testing::checkTlsRefused(pgtest::connectFailure(db, verifyFull("localhost", tls.otherCa)),
                             "certificate verify failed");
}

TEST_CASE("tls: the server sees the client certificate") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_pg_tls_client_cert");
    auto withCertificate = pgtest::connect(db, {{"host", "localhost"},
                                                {"ssl_mode", "verify-full"},
                                                {"ssl_root_cert", tls.ca},
                                                {"ssl_cert", tls.clientCert},
                                                {"ssl_key", tls.clientKey}});
    Row seen = probe.of(*withCertificate);
    CHECK(seen.at(0) == "BOOL:true");
    CHECK_MESSAGE(seen.at(1).find("CN=tap") != std::string::npos, seen.at(1));

    auto without = pgtest::connect(db, {{"ssl_mode", "require"}});
    CHECK(probe.of(*without) == kEncrypted);
}

TEST_CASE("tls: files libpq cannot use refuse the connection") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    // Without ssl_root_cert libpq looks for ~/.postgresql/root.crt, which a test machine lacks.
    testing::checkTlsRefused(pgtest::connectFailure(db, {{"ssl_mode", "verify-ca"}}),
                             "root certificate file");
    testing::checkTlsRefused(
        pgtest::connectFailure(
            db, {{"ssl_mode", "verify-full"}, {"ssl_root_cert", "/nonexistent/tdg-ca.crt"}}),
        "root certificate file \"/nonexistent/tdg-ca.crt\" does not exist");
    // Likewise ~/.postgresql/postgresql.key for a certificate without its key.
    testing::checkTlsRefused(
        pgtest::connectFailure(db, {{"ssl_mode", "require"}, {"ssl_cert", tls.clientCert}}),
        "certificate present, but not private key file");

    // A key that others may read would no longer be a secret.
    testing::ScratchDir dir;
    std::ifstream original(tls.clientKey);
    std::stringstream key;
    key << original.rdbuf();
    std::string exposed = dir.write("client.key", key.str());
    REQUIRE(::chmod(exposed.c_str(), 0644) == 0);
    testing::checkTlsRefused(
        pgtest::connectFailure(
            db, {{"ssl_mode", "require"}, {"ssl_cert", tls.clientCert}, {"ssl_key", exposed}}),
        "has group or world access");
}

TEST_CASE("tls: a session the server ends is a retryable IO error, not a refused certificate") {
    TDG_REQUIRE_DATABASE(db, testing::postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    testing::exec(db, "CREATE OR REPLACE VIEW tdg_pg_tls_backend AS SELECT pg_backend_pid() AS id");
    auto connection = pgtest::connect(db, {{"ssl_mode", "verify-ca"}, {"ssl_root_cert", tls.ca}});
    testing::Collector backend;
    connection->scanTable({"", "tdg_pg_tls_backend"}, {"id"}, "id", 10, backend.callback());
    REQUIRE(backend.rows.size() == 1);
    const std::string& cell = backend.rows[0].at(0);
    const std::string pid = cell.substr(cell.find(':') + 1);
    // Waits (up to 10 s) until the backend is gone, so the next read cannot race it.
    REQUIRE(testing::queryScalar(db, "SELECT pg_terminate_backend(" + pid + ", 10000)") == "t");

    testing::Collector after;
    core::DialectError failure = testing::dialectErrorOf(
        [&] {
            connection->scanTable({"", "tdg_pg_tls_backend"}, {"id"}, "id", 10, after.callback());
        },
        "the ended session still answered");
    CHECK_MESSAGE(failure.status() == TDG_IO, std::string(failure.what()));
    CHECK(failure.retryable());
}
