#include "ssh_bastion.hpp"

#include <pwd.h>
#include <unistd.h>

#include <Poco/JSON/Object.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tapdiffgen::testing {
namespace {

std::string variable(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
}

}  // namespace

std::string SshBastion::file(const std::string& name) const {
    std::ifstream in(dir + "/" + name, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + dir + "/" + name);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

int SshBastion::killSessions() const {
    const std::string command = "bash '" + script + "' kill-sessions 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) throw std::runtime_error("cannot run " + script);
    std::string output;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
    if (::pclose(pipe) != 0) throw std::runtime_error("sshd.sh kill-sessions: " + output);
    const auto list = output.find("killed sessions:");
    if (list == std::string::npos) return 0;
    std::istringstream pids(output.substr(list + 16));
    int count = 0;
    for (std::string pid; pids >> pid;) ++count;
    return count;
}

std::optional<SshBastion> sshBastion() {
    SshBastion bastion;
    bastion.host = "127.0.0.1";
    const std::string port = variable("TDG_TEST_SSH_PORT");
    bastion.dir = variable("TDG_TEST_SSH_DIR");
    bastion.script = variable("TDG_TEST_SSH_SCRIPT");
    if (port.empty() || bastion.dir.empty() || bastion.script.empty()) return std::nullopt;
    bastion.port = std::stoi(port);
    const passwd* user = ::getpwuid(::geteuid());
    bastion.user = user != nullptr ? user->pw_name : "root";
    bastion.keyPassphrase = "tunnel-passphrase";
    bastion.closedPort = 1;
    return bastion;
}

std::string jsonText(const std::string& text) {
    std::ostringstream out;
    Poco::JSON::Stringifier::formatString(text, out);
    return out.str();
}

std::string tunnelJson(const SshBastion& bastion, const std::string& keyFile,
                       const std::string& extra) {
    return R"({"enable":true,"host":)" + jsonText(bastion.host) + R"(,"port":)" +
           std::to_string(bastion.port) + R"(,"username":)" + jsonText(bastion.user) +
           R"(,"private_key":)" + jsonText(bastion.file(keyFile)) +
           (extra.empty() ? "" : "," + extra) + "}";
}

}  // namespace tapdiffgen::testing
