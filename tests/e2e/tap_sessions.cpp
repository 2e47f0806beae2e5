#include "tap_sessions.hpp"

#include <dirent.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace tapdiffgen::testing {

std::set<int> clientPorts(int pid) {
    std::set<std::string> inodes;
    const std::string fdDir = "/proc/" + std::to_string(pid) + "/fd";
    if (DIR* dir = opendir(fdDir.c_str())) {
        while (dirent* entry = readdir(dir)) {
            char target[128] = {};
            std::string link = fdDir + "/" + entry->d_name;
            ssize_t size = readlink(link.c_str(), target, sizeof target - 1);
            std::string text(target, size > 0 ? static_cast<size_t>(size) : 0);
            if (text.rfind("socket:[", 0) == 0) inodes.insert(text.substr(8, text.size() - 9));
        }
        closedir(dir);
    }
    std::set<int> ports;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        std::ifstream file(table);
        std::string line;
        std::getline(file, line);
        while (std::getline(file, line)) {
            std::istringstream fields(line);
            std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
            fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
                timeout >> inode;
            if (inodes.count(inode))
                ports.insert(std::stoi(local.substr(local.find(':') + 1), nullptr, 16));
        }
    }
    return ports;
}

int endSessionsOf(const DatabaseEnv& env, int pid) {
    int ended = 0;
    for (int port : clientPorts(pid)) {
        if (env.dialect == "postgres") {
            ended += std::stoi(
                queryScalar(env,
                            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
                            "client_port = " +
                                std::to_string(port)));
            continue;
        }
        for (const auto& id :
             queryColumn(env, "SELECT id FROM information_schema.PROCESSLIST WHERE HOST LIKE '%:" +
                                  std::to_string(port) + "'")) {
            try {
                exec(env, "KILL CONNECTION " + *id);
                ++ended;
            } catch (const std::runtime_error&) {
                // The session ended between the look-up and the kill.
            }
        }
    }
    return ended;
}

int endNewestSessionOf(const DatabaseEnv& env, int pid) {
    std::string ports;
    for (int port : clientPorts(pid)) ports += (ports.empty() ? "" : ",") + std::to_string(port);
    if (ports.empty()) return 0;
    if (env.dialect == "postgres") {
        return std::stoi(queryScalar(
            env,
            "SELECT count(pg_terminate_backend(pid)) FROM (SELECT pid FROM pg_stat_activity "
            "WHERE client_port IN (" +
                ports +
                ") ORDER BY backend_start DESC LIMIT 1) AS "
                "newest WHERE (SELECT count(*) FROM pg_stat_activity WHERE client_port IN (" +
                ports + ")) >= 2"));
    }
    std::string hosts;
    for (int port : clientPorts(pid)) {
        hosts += (hosts.empty() ? "" : " OR ") + std::string("HOST LIKE '%:") +
                 std::to_string(port) + "'";
    }
    const auto ids = queryColumn(
        env, "SELECT ID FROM information_schema.PROCESSLIST WHERE " + hosts + " ORDER BY ID DESC");
    if (ids.size() < 2) return 0;
    try {
        exec(env, "KILL CONNECTION " + *ids.front());
        return 1;
    } catch (const std::runtime_error&) {
        return 0;  // the session ended between the look-up and the kill
    }
}

}  // namespace tapdiffgen::testing
