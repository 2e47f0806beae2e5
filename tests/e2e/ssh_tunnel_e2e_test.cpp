// The real binary through a real OpenSSH bastion (tests/servers/sshd.sh) to the real servers:
// replays through the tunnel with TLS still checking the database, the host key check, every
// tunnel failure as its exact one line, and a tunnel killed mid-run that loses nothing.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "dialect_fixture.hpp"
#include "ssh_bastion.hpp"
#include "support/tls.hpp"

using namespace tapdiffgen::testing;

namespace {

constexpr const char* kErrorPrefix = " | ERROR   | tap-diffgen | ";

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// "SHA256:..." of the bastion's host key, as ssh-keygen computes it.
std::string hostKeyFingerprint(const SshBastion& bastion) {
    const std::string command = "ssh-keygen -l -E sha256 -f '" + bastion.dir + "/host_key.pub'";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[512] = {0};
    const bool read = std::fgets(buffer, sizeof buffer, pipe) != nullptr;
    ::pclose(pipe);
    REQUIRE(read);
    const std::string line = buffer;
    const auto start = line.find("SHA256:");
    REQUIRE(start != std::string::npos);
    return line.substr(start, line.find(' ', start) - start);
}

// A journalled table with three rows, one of them deleted since.
struct SmallTable {
    JournalledSchema schema;
    std::string table;

    SmallTable(const DatabaseEnv& env, const std::string& prefix) : schema(env, prefix) {
        schema.createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
        table = schema.table("items");
        schema.exec("INSERT INTO " + table + " VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        schema.exec("DELETE FROM " + table + " WHERE id = 2");
    }

    // The schema's own config, then `overrides` (a JSON object text) over it.
    TapRun run(const std::string& overrides, const std::string& extra = "") const {
        ScratchDir dir;
        return runTapBinary({"--config", schema.writeConfig(dir, {table}, extra), "--config",
                             dir.write("tunnel.json", overrides)});
    }
};

void checkReplayed(const TapRun& run, const std::string& table) {
    REQUIRE_MESSAGE(run.exitCode == 0, run.stderrText);
    const auto replica = replicaOf(run.records(table), "id");
    CHECK(run.records(table).size() == 3);
    CHECK(replica.size() == 2);
    CHECK(replica.count("1") == 1);
    CHECK(replica.count("3") == 1);
}

// The run stopped before any output with exactly `message` as its error line, and printed
// neither the key nor its passphrase.
void checkRefused(const TapRun& run, const std::string& message, const SshBastion& bastion) {
    CHECK(run.exitCode != 0);
    CHECK(run.lines.empty());
    const auto at = run.stderrText.find(kErrorPrefix);
    REQUIRE_MESSAGE(at != std::string::npos, run.stderrText);
    CHECK(firstLine(run.stderrText.substr(at + std::string(kErrorPrefix).size())) == message);
    CHECK(run.stderrText.find(bastion.keyPassphrase) == std::string::npos);
    CHECK(run.stderrText.find("PRIVATE KEY") == std::string::npos);
    for (const char* keyFile : {"client_key", "client_key_encrypted", "stranger_key"}) {
        const std::string key = bastion.file(keyFile);
        const std::string keyBodyLine = key.substr(key.find('\n') + 1, 40);
        CHECK(run.stderrText.find(keyBodyLine) == std::string::npos);
    }
}

std::string tunnelOverrides(const DatabaseEnv& db, const SshBastion& bastion,
                            const std::string& keyFile, const std::string& tunnelExtra,
                            const std::string& dbHost = "") {
    return R"({"host":)" + jsonText(dbHost.empty() ? db.host : dbHost) + R"(,"port":)" + db.port +
           R"(,"ssh_tunnel":)" + tunnelJson(bastion, keyFile, tunnelExtra) + "}";
}

std::string knownHostsLines(const SshBastion& bastion) {
    return R"("known_hosts":)" + jsonText(bastion.file("known_hosts"));
}

}  // namespace

TEST_CASE("ssh tunnel: postgres replays through the bastion, verify-full checks the database") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    TDG_REQUIRE_TLS(tls, db);
    TDG_REQUIRE_BASTION(bastion);
    SmallTable small(db, "ssh_pg");
    // The certificate names localhost only, and the driver's socket goes to 127.0.0.1: the
    // run passes only if TLS checks the configured host, not the tunnel's address.
    const TapRun run =
        small.run(tunnelOverrides(db, bastion, "client_key", knownHostsLines(bastion), "localhost"),
                  R"("ssl_mode":"verify-full","ssl_root_cert":)" + jsonText(tls.ca));
    checkReplayed(run, small.table);
    CHECK_MESSAGE(run.stderrText.find(
                      "SSH tunnel through bastion 127.0.0.1:" + std::to_string(bastion.port) +
                      " to localhost:" + db.port + " listens on 127.0.0.1:") != std::string::npos,
                  run.stderrText);
    CHECK(run.stderrText.find("WARNING") == std::string::npos);
}

TEST_CASE("ssh tunnel: mysql replays through the bastion with a PEM key and verify-ca") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TDG_REQUIRE_BASTION(bastion);
    SmallTable small(db, "ssh_my");
    const std::string knownHostsPath = R"("known_hosts":)" + jsonText(bastion.dir + "/known_hosts");
    const TapRun run = small.run(tunnelOverrides(db, bastion, "client_key_pem", knownHostsPath),
                                 R"("ssl_mode":"verify-ca","ssl_root_cert":)" + jsonText(tls.ca));
    checkReplayed(run, small.table);
    CHECK(run.stderrText.find("WARNING") == std::string::npos);
}

TEST_CASE("ssh tunnel: an encrypted key with its passphrase logs in") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    TDG_REQUIRE_BASTION(bastion);
    SmallTable small(db, "ssh_my_pass");
    const TapRun run =
        small.run(tunnelOverrides(db, bastion, "client_key_encrypted",
                                  knownHostsLines(bastion) + R"(,"private_key_password":)" +
                                      jsonText(bastion.keyPassphrase)));
    checkReplayed(run, small.table);
    CHECK(run.stderrText.find(bastion.keyPassphrase) == std::string::npos);
}

TEST_CASE("ssh tunnel: without known_hosts the run warns with the fingerprint and the pin line") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    TDG_REQUIRE_BASTION(bastion);
    SmallTable small(db, "ssh_pg_unpinned");
    const TapRun run = small.run(tunnelOverrides(db, bastion, "client_key", ""));
    checkReplayed(run, small.table);
    const std::string pin = firstLine(bastion.file("known_hosts"));
    const std::string expected =
        " | WARNING | tap-diffgen | ssh_tunnel.known_hosts is not set: the host key of SSH "
        "bastion 127.0.0.1:" +
        std::to_string(bastion.port) + " (ssh-ed25519 " + hostKeyFingerprint(bastion) +
        ") is accepted unverified; to pin it, set ssh_tunnel.known_hosts to: " + pin + "\n";
    CHECK_MESSAGE(run.stderrText.find(expected) != std::string::npos, run.stderrText);
}

TEST_CASE("ssh tunnel: each failure is one exact line, with no secret in it") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    TDG_REQUIRE_BASTION(bastion);
    SmallTable small(db, "ssh_errors");
    const std::string bastionName = "127.0.0.1:" + std::to_string(bastion.port);
    const std::string pinned = knownHostsLines(bastion);

    SUBCASE("unreachable bastion") {
        SshBastion nowhere = bastion;
        nowhere.port = bastion.closedPort;
        checkRefused(small.run(tunnelOverrides(db, nowhere, "client_key", "")),
                     "cannot connect: cannot reach SSH bastion 127.0.0.1:1: Connection refused",
                     bastion);
    }
    SUBCASE("refused key") {
        checkRefused(small.run(tunnelOverrides(db, bastion, "stranger_key", pinned)),
                     "cannot connect: SSH bastion " + bastionName +
                         " refused the key in ssh_tunnel.private_key for user '" + bastion.user +
                         "'",
                     bastion);
    }
    SUBCASE("wrong key passphrase") {
        checkRefused(
            small.run(tunnelOverrides(db, bastion, "client_key_encrypted",
                                      pinned + R"(,"private_key_password":"not-the-passphrase")")),
            "cannot connect: ssh_tunnel.private_key_password does not decrypt "
            "ssh_tunnel.private_key (wrong passphrase)",
            bastion);
    }
    SUBCASE("encrypted key without a passphrase") {
        checkRefused(small.run(tunnelOverrides(db, bastion, "client_key_encrypted", pinned)),
                     "cannot connect: ssh_tunnel.private_key is encrypted but "
                     "ssh_tunnel.private_key_password is not set",
                     bastion);
    }
    SUBCASE("not a key") {
        checkRefused(small.run(tunnelOverrides(db, bastion, "known_hosts", pinned)),
                     "cannot connect: ssh_tunnel.private_key is not a PEM or OpenSSH private key",
                     bastion);
    }
    SUBCASE("host key mismatch") {
        const std::string other = R"("known_hosts":)" + jsonText(bastion.file("other_known_hosts"));
        checkRefused(small.run(tunnelOverrides(db, bastion, "client_key", other)),
                     "cannot connect: host key of SSH bastion " + bastionName + " (ssh-ed25519 " +
                         hostKeyFingerprint(bastion) +
                         ") does not match ssh_tunnel.known_hosts: refusing to connect",
                     bastion);
    }
    SUBCASE("host key of another host only") {
        std::string line = bastion.file("known_hosts");
        line.replace(0, line.find(' '), "[127.0.0.1]:2222");
        checkRefused(small.run(tunnelOverrides(db, bastion, "client_key",
                                               R"("known_hosts":)" + jsonText(line))),
                     "cannot connect: host key of SSH bastion " + bastionName + " (ssh-ed25519 " +
                         hostKeyFingerprint(bastion) +
                         ") is not in ssh_tunnel.known_hosts: refusing to connect",
                     bastion);
    }
    SUBCASE("forwarding refused by the bastion") {
        // The bastion's PermitOpen lists the databases only, not the bastion itself.
        DatabaseEnv forbidden = db;
        forbidden.port = std::to_string(bastion.port);
        checkRefused(small.run(tunnelOverrides(forbidden, bastion, "client_key", pinned)),
                     "cannot connect: SSH bastion " + bastionName + " refused to forward to " +
                         "127.0.0.1:" + forbidden.port +
                         " (TCP forwarding is not permitted for this user or target)",
                     bastion);
    }
    SUBCASE("database unreachable from the bastion") {
        DatabaseEnv closed = db;
        closed.port = std::to_string(bastion.closedPort);
        checkRefused(small.run(tunnelOverrides(closed, bastion, "client_key", pinned)),
                     "cannot connect: SSH bastion " + bastionName +
                         " cannot reach the database at 127.0.0.1:1: Connection refused",
                     bastion);
    }
    SUBCASE("a dialect without TCP") {
        const std::string overrides = R"({"sql_dialect":"sqlite","database":"/nonexistent.db",)" +
                                      tunnelOverrides(db, bastion, "client_key", pinned).substr(1);
        checkRefused(small.run(overrides),
                     "cannot connect: sqlite does not connect over TCP: set ssh_tunnel.enable "
                     "to false",
                     bastion);
    }
}

TEST_CASE("ssh tunnel: mysql refuses verify-full through a tunnel") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    TDG_REQUIRE_TLS(tls, db);
    TDG_REQUIRE_BASTION(bastion);
    SmallTable small(db, "ssh_my_full");
    checkRefused(
        small.run(tunnelOverrides(db, bastion, "client_key", knownHostsLines(bastion), "localhost"),
                  R"("ssl_mode":"verify-full","ssl_root_cert":)" + jsonText(tls.ca)),
        "cannot connect: ssl_mode verify-full cannot check the server's name through "
        "an SSH tunnel with MariaDB Connector/C; use ssl_mode verify-ca with "
        "ssl_root_cert",
        bastion);
}

namespace {

constexpr int kRows = 3000;

// The SSH session dies mid-run (every sshd process of the connection killed): the driver sees
// its connection lost, the tap reconnects through a new tunnel and emits every row.
void survivesAKilledTunnel(const DatabaseEnv& db, const SshBastion& bastion,
                           const std::string& prefix) {
    JournalledSchema schema(db, prefix);
    const std::string table = schema.createNumberedItems(kRows);

    ScratchDir dir;
    // One event per page: thousands of round trips, so the kill lands mid-run.
    const std::string config = schema.writeConfig(
        dir, {table}, R"("page_size":1,"max_page_size":1,"reconnect_max_wait_seconds":1)");
    const std::string tunnel = dir.write(
        "tunnel.json", tunnelOverrides(db, bastion, "client_key", knownHostsLines(bastion)));
    TapProcess process({"--config", config, "--config", tunnel});
    int killed = 0;
    for (int attempt = 0; attempt < 1000 && killed == 0; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (process.stdoutSoFar().find("\"type\":\"RECORD\"") == std::string::npos) continue;
        killed = bastion.killSessions();
    }
    TapRun run = process.wait();
    REQUIRE_MESSAGE(killed > 0, "the tap finished before its SSH session could be killed");
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(run.stderrText.find("SSH tunnel through bastion 127.0.0.1:" +
                              std::to_string(bastion.port) + " lost") != std::string::npos);
    CHECK(run.stderrText.find("connection lost") != std::string::npos);
    CHECK(emittedIds(run, table).size() == static_cast<size_t>(kRows));
    CHECK(run.lastState().find("\"replication_key_value\":" + std::to_string(kRows)) !=
          std::string::npos);
}

}  // namespace

TEST_CASE("ssh tunnel: postgres survives a killed SSH session and loses nothing") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    TDG_REQUIRE_BASTION(bastion);
    survivesAKilledTunnel(db, bastion, "ssh_kill");
}

TEST_CASE("ssh tunnel: mysql survives a killed SSH session and loses nothing") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    TDG_REQUIRE_BASTION(bastion);
    survivesAKilledTunnel(db, bastion, "ssh_kill");
}
