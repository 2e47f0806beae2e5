// The ssh_tunnel setting: a nested object in files, one variable per key with --config ENV.
#include <doctest/doctest.h>

#include <string>

#include "config/tap_config.hpp"
#include "config_test_support.hpp"

using namespace tapdiffgen::core;
using tapdiffgen::core::testing::CleanSettingEnvironment;
using tapdiffgen::core::testing::minimalConfig;
using tapdiffgen::core::testing::parseErrorOf;
using tapdiffgen::core::testing::ScopedEnv;
using tapdiffgen::core::testing::TempDir;

namespace {

constexpr const char* kDatabase = R"(,"host":"db.internal","port":5432)";
constexpr const char* kKey = "-----BEGIN OPENSSH PRIVATE KEY-----\\nsecret-key-body\\n";

std::string tunnel(const std::string& members) {
    return std::string(R"(,"ssh_tunnel":{)") + members + "}";
}

std::string enabledTunnel(const std::string& extra = "") {
    return tunnel(
        std::string(R"("enable":true,"host":"bastion","username":"tap","private_key":")") + kKey +
        "\"" + extra);
}

}  // namespace

TEST_CASE("ssh_tunnel: absent or disabled means no tunnel") {
    CHECK_FALSE(parseConfigObject(minimalConfig()).sshTunnel);
    CHECK_FALSE(parseConfigObject(minimalConfig(tunnel(R"("enable":false,"host":"b")"))).sshTunnel);
}

TEST_CASE("ssh_tunnel: an enabled tunnel gets its keys, defaults and the database's address") {
    const TapConfig config = parseConfigObject(minimalConfig(
        kDatabase + enabledTunnel(R"(,"private_key_password":"pw","known_hosts":"/k")")));
    REQUIRE(config.sshTunnel);
    CHECK(config.sshTunnel->host == "bastion");
    CHECK(config.sshTunnel->port == 22);
    CHECK(config.sshTunnel->username == "tap");
    CHECK(config.sshTunnel->privateKey == "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-key-body\n");
    CHECK(config.sshTunnel->privateKeyPassword == "pw");
    CHECK(config.sshTunnel->knownHosts == "/k");
    CHECK(config.sshTunnel->targetHost == "db.internal");
    CHECK(config.sshTunnel->targetPort == 5432);
    // The tunnel's settings never reach the driver.
    CHECK(config.connectionOption("ssh_tunnel") == nullptr);
    for (const auto& [key, value] : config.connectionOptions) {
        CAPTURE(key);
        CHECK(value.find("secret-key-body") == std::string::npos);
    }
}

TEST_CASE("ssh_tunnel: what an enabled tunnel needs is named") {
    CHECK(parseErrorOf(minimalConfig(kDatabase + tunnel(R"("enable":true,"username":"u")"))) ==
          "'host' is required when ssh_tunnel.enable is true in config['ssh_tunnel']");
    CHECK(parseErrorOf(
              minimalConfig(kDatabase + tunnel(R"("enable":true,"host":"b","username":"u")"))) ==
          "'private_key' is required when ssh_tunnel.enable is true in config['ssh_tunnel']");
    CHECK(parseErrorOf(minimalConfig(R"(,"host":"db")" + enabledTunnel())) ==
          "'port' (the database as the bastion reaches it) is required when ssh_tunnel.enable "
          "is true");
    CHECK(parseErrorOf(minimalConfig(R"(,"port":1)" + enabledTunnel())) ==
          "'host' (the database as the bastion reaches it) is required when ssh_tunnel.enable "
          "is true");
}

TEST_CASE("ssh_tunnel: bad values are reported at their path, secrets masked") {
    CHECK(parseErrorOf(minimalConfig(R"(,"ssh_tunnel":true)")) ==
          "True is not of type 'object' in config['ssh_tunnel']");
    CHECK(parseErrorOf(minimalConfig(tunnel(R"("port":0)"))) ==
          "0 is less than the minimum of 1 in config['ssh_tunnel']['port']");
    CHECK(parseErrorOf(minimalConfig(tunnel(R"("private_key":12)"))) ==
          "'***' is not of type 'string' in config['ssh_tunnel']['private_key']");
    CHECK(parseConfigObject(minimalConfig(tunnel(R"("hots":"b")"))).warnings ==
          std::vector<std::string>{
              "unknown key 'hots' in config['ssh_tunnel'] (did you mean 'host'?)"});
}

TEST_CASE("ssh_tunnel: ENV reads one variable per key, as Meltano names them") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const std::string file = dir.write(
        "c.json",
        minimalConfig(kDatabase + tunnel(R"("host":"from-file","username":"file-user")")));
    ScopedEnv enable("TAP_DIFFGEN_SSH_TUNNEL_ENABLE", "true");
    ScopedEnv port("TAP_DIFFGEN_SSH_TUNNEL_PORT", "2222");
    ScopedEnv key("TAP_DIFFGEN_SSH_TUNNEL_PRIVATE_KEY", "key text");
    ScopedEnv user("TAP_DIFFGEN_SSH_TUNNEL_USERNAME", "env-user");
    // The environment adds keys to the file's object rather than replacing it.
    const TapConfig config = loadConfig({file, "ENV"}, dir.path());
    REQUIRE(config.sshTunnel);
    CHECK(config.sshTunnel->host == "from-file");
    CHECK(config.sshTunnel->username == "env-user");
    CHECK(config.sshTunnel->port == 2222);
    CHECK(config.sshTunnel->privateKey == "key text");
}

TEST_CASE("ssh_tunnel: a .env file holds the key over several lines") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const std::string file = dir.write("c.json", minimalConfig(kDatabase));
    dir.write(".env",
              "TAP_DIFFGEN_SSH_TUNNEL_ENABLE=true\n"
              "TAP_DIFFGEN_SSH_TUNNEL_HOST=bastion\n"
              "TAP_DIFFGEN_SSH_TUNNEL_USERNAME=tap\n"
              "TAP_DIFFGEN_SSH_TUNNEL_PRIVATE_KEY=\"-----BEGIN OPENSSH PRIVATE KEY-----\n"
              "b3BlbnNzaC1rZXktdjEAAAAA\n"
              "-----END OPENSSH PRIVATE KEY-----\n\"\n");
    const TapConfig config = loadConfig({file, "ENV"}, dir.path());
    REQUIRE(config.sshTunnel);
    CHECK(config.sshTunnel->privateKey ==
          "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
          "-----END OPENSSH PRIVATE KEY-----\n");
}
