// TLS against the test server, which presents a certificate of the test CA for DNS:localhost
// only: each ssl_mode, the CA and host-name checks, an account that requires a client
// certificate, and a session cut while in use. What the server sees is read through the
// plugin's own session. (Settings refused before connecting: test_session.cpp.)
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "mysql_test_support.hpp"
#include "support/tls.hpp"

using namespace tapdiffgen;

namespace {

// A view over SESSION_STATUS runs in the session that reads it: read through the plugin, it
// shows the cipher of the plugin's connection, "" without TLS. A view per test case, as they run
// in parallel.
class TlsProbe {
public:
    TlsProbe(const testing::DatabaseEnv& db, std::string view) : view_(std::move(view)) {
        testing::exec(db, "CREATE OR REPLACE VIEW " + view_ +
                              " AS SELECT 1 AS id, VARIABLE_VALUE AS cipher"
                              " FROM information_schema.SESSION_STATUS"
                              " WHERE VARIABLE_NAME = 'SSL_CIPHER'");
    }

    const std::string& view() const { return view_; }

    /// The cipher of `connection`'s session, "" when it is in plain text.
    std::string cipherOf(core::DialectConnection& connection) const {
        testing::Collector collected;
        connection.scanTable({"", view_}, {"id", "cipher"}, "id", 10, collected.callback());
        REQUIRE(collected.rows.size() == 1);
        const std::string& cell = collected.rows[0].at(1);
        REQUIRE(cell.rfind("TEXT:", 0) == 0);
        return cell.substr(5);
    }

private:
    std::string view_;
};

}  // namespace

TEST_CASE("mysql tls: disable keeps the session in plain text") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_my_tls_disable");
    CHECK(probe.cipherOf(*mytest::connect(db, {{"ssl_mode", "disable"}})) == "");
    CHECK(probe.cipherOf(*mytest::connect(db, {{"ssl_mode", "DISABLED"}})) == "");
}

TEST_CASE("mysql tls: prefer (the default) and require encrypt the session") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_my_tls_require");
    CHECK_FALSE(probe.cipherOf(*mytest::connect(db)).empty());
    CHECK_FALSE(probe.cipherOf(*mytest::connect(db, {{"ssl_mode", "PREFERRED"}})).empty());
    CHECK_FALSE(probe.cipherOf(*mytest::connect(db, {{"ssl_mode", "require"}})).empty());
    // require promises encryption, not a verified server: a CA file is not consulted.
    CHECK_FALSE(probe
                    .cipherOf(*mytest::connect(
                        db, {{"ssl_mode", "require"}, {"ssl_root_cert", tls.otherCa}}))
                    .empty());
}

TEST_CASE("mysql tls: verify-ca accepts the test CA and refuses an unrelated one") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_my_tls_verify_ca");
    // The host is 127.0.0.1, which the certificate does not name: verify-ca checks the chain only.
    REQUIRE(db.host == "127.0.0.1");
    auto verified = mytest::connect(db, {{"ssl_mode", "verify-ca"}, {"ssl_root_cert", tls.ca}});
    CHECK_FALSE(probe.cipherOf(*verified).empty());

    testing::checkTlsRefused(
        mytest::connectError(db, {{"ssl_mode", "verify-ca"}, {"ssl_root_cert", tls.otherCa}}),
        "TLS/SSL error: self-signed certificate in certificate chain");
    testing::checkTlsRefused(mytest::connectError(db, {{"ssl_mode", "verify-ca"},
                                                       {"ssl_root_cert", "/nonexistent/ca.pem"}}),
                             "TLS/SSL error");
}

TEST_CASE(
    "mysql tls: verify-full accepts host localhost and refuses 127.0.0.1, which the "
    "certificate does not name") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TlsProbe probe(db, "tdg_my_tls_verify_full");
    auto verifyFull = [](const std::string& host, const std::string& ca) {
        return testing::PluginOptions{
            {"host", host}, {"ssl_mode", "verify-full"}, {"ssl_root_cert", ca}};
    };
    // "localhost" is the server's unix socket (see mysql_test_support.hpp), where the server
    // speaks TLS just as well and the client checks the certificate against that name.
    CHECK_FALSE(probe.cipherOf(*mytest::connect(db, verifyFull("localhost", tls.ca))).empty());

    testing::checkTlsRefused(mytest::connectError(db, verifyFull("127.0.0.1", tls.ca)),
                             "TLS/SSL error: Validation of SSL server certificate failed");
    // The right name does not make an unrelated CA acceptable.
    testing::checkTlsRefused(mytest::connectError(db, verifyFull("localhost", tls.otherCa)),
                             "TLS/SSL error: self-signed certificate in certificate chain");
    // Nor does the system's CA store know the test CA.
    testing::checkTlsRefused(
        mytest::connectError(db, {{"host", "localhost"}, {"ssl_mode", "verify-full"}}),
        "TLS/SSL error");
}

TEST_CASE("mysql tls: an account that requires X509 gets in with the client certificate only") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    TlsProbe probe(db, "tdg_my_tls_x509");
    admin->exec(R"SQL(
CREATE USER IF NOT EXISTS 'tap_x509'@'%' IDENTIFIED BY 'x509-secret-pw' REQUIRE X509;
ALTER USER 'tap_x509'@'%' IDENTIFIED BY 'x509-secret-pw' REQUIRE X509;
)SQL");
    admin->exec("GRANT SELECT ON " + db.database + "." + probe.view() + " TO 'tap_x509'@'%'");
    const testing::PluginOptions account{{"user", "tap_x509"}, {"password", "x509-secret-pw"}};
    auto with = [&](testing::PluginOptions options) {
        options.insert(options.end(), account.begin(), account.end());
        return options;
    };

    auto certified = mytest::connect(db, with({{"ssl_mode", "verify-ca"},
                                               {"ssl_root_cert", tls.ca},
                                               {"ssl_cert", tls.clientCert},
                                               {"ssl_key", tls.clientKey}}));
    CHECK_FALSE(probe.cipherOf(*certified).empty());

    core::DialectError encryptedOnly = mytest::connectError(db, with({{"ssl_mode", "require"}}));
    CHECK(encryptedOnly.status() == TDG_UNAUTHENTICATED);
    CHECK(encryptedOnly.sqlstate() == "28000");
    CHECK_MESSAGE(std::string(encryptedOnly.what()).find("Access denied for user 'tap_x509'") !=
                      std::string::npos,
                  std::string(encryptedOnly.what()));
    core::DialectError plain = mytest::connectError(db, with({{"ssl_mode", "disable"}}));
    CHECK(plain.status() == TDG_UNAUTHENTICATED);
    CHECK_MESSAGE(
        std::string(plain.what()).find("Access denied for user 'tap_x509'") != std::string::npos,
        std::string(plain.what()));
}

TEST_CASE(
    "mysql tls: a session the server ends is a retryable IO error, not a refused "
    "certificate") {
    TDG_REQUIRE_DATABASE(db, testing::mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TDG_REQUIRE_MYSQL_ADMIN(admin);
    testing::exec(db, "CREATE OR REPLACE VIEW tdg_my_tls_thread AS SELECT CONNECTION_ID() AS id");
    auto connection = mytest::connect(db, {{"ssl_mode", "verify-ca"}, {"ssl_root_cert", tls.ca}});
    testing::Collector thread;
    connection->scanTable({"", "tdg_my_tls_thread"}, {"id"}, "id", 10, thread.callback());
    REQUIRE(thread.rows.size() == 1);
    // "INT64:42" or, as CONNECTION_ID() is unsigned, "DECIMAL:42".
    const std::string& cell = thread.rows[0].at(0);
    const std::string id = cell.substr(cell.find(':') + 1);
    admin->exec("KILL CONNECTION " + id);
    // So that the next read cannot race the server's closing of the session.
    for (int wait = 0; wait < 100; ++wait) {
        if (admin->scalar("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + id) ==
            "0") {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }

    // Over TLS the client library reports the dropped connection as a TLS error.
    testing::Collector after;
    core::DialectError failure = testing::dialectErrorOf(
        [&] {
            connection->scanTable({"", "tdg_my_tls_thread"}, {"id"}, "id", 10, after.callback());
        },
        "the killed session still answered");
    CHECK_MESSAGE(failure.status() == TDG_IO, std::string(failure.what()));
    CHECK(failure.retryable());
}
