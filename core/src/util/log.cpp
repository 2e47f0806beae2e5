#include "util/log.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>

namespace tapdiffgen::core::log {
namespace {

std::atomic<int> currentLevel{Info};

const char* levelName(int level) {
    if (level >= Error) return "ERROR   ";
    if (level >= Warning) return "WARNING ";
    if (level >= Info) return "INFO    ";
    return "DEBUG   ";
}

std::string timestamp() {
    auto now = std::chrono::system_clock::now();
    auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
    std::time_t seconds = static_cast<std::time_t>(millis / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[96];
    std::snprintf(buffer, sizeof(buffer), "%04d-%02d-%02d %02d:%02d:%02d,%03d", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<int>(millis % 1000));
    return buffer;
}

}  // namespace

void setLevel(int level) { currentLevel = level; }
int level() { return currentLevel; }

int levelFromName(const std::string& name) {
    if (name == "debug") return Debug;
    if (name == "warning" || name == "warn") return Warning;
    if (name == "error") return Error;
    return Info;
}

void write(int level, const std::string& message) {
    if (level < currentLevel) return;
    std::string line = timestamp() + " | " + levelName(level) + "| tap-diffgen | ";
    // One message, one line: a multi-line text from a server must not split the log.
    for (char c : message) line.push_back(c == '\n' || c == '\r' ? ' ' : c);
    line.push_back('\n');
    // One write(2) per line so lines from several threads never interleave.
    ssize_t ignored = ::write(2, line.data(), line.size());
    (void)ignored;
}

}  // namespace tapdiffgen::core::log
