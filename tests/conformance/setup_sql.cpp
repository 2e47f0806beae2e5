#include "setup_sql.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "case_result.hpp"

namespace tapdiffgen::conformance {
namespace {

void writeAll(int fd, const std::string& text) {
    const char* data = text.data();
    size_t left = text.size();
    while (left > 0) {
        ssize_t written = write(fd, data, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;  // the command quit early; its exit status tells why
        data += written;
        left -= static_cast<size_t>(written);
    }
}

// Starts `command` with `sql` on its stdin (already written and closed when this returns).
pid_t startSql(const std::string& command, const std::string& sql, const std::string& what) {
    int ends[2];
    if (pipe(ends) != 0) throw CaseFailure(what + ": pipe failed: " + strerror(errno));
    pid_t child = fork();
    if (child < 0) throw CaseFailure(what + ": fork failed: " + strerror(errno));
    if (child == 0) {
        dup2(ends[0], STDIN_FILENO);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        close(ends[0]);
        close(ends[1]);
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(ends[0]);
    // A command that exits without reading must not kill the runner with SIGPIPE.
    struct sigaction ignore {};
    struct sigaction previous {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);
    writeAll(ends[1], sql);
    close(ends[1]);
    sigaction(SIGPIPE, &previous, nullptr);
    return child;
}

void awaitSql(pid_t child, const std::string& what) {
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw CaseFailure(what + " failed (exit status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                          ", the command's messages are on stderr)");
    }
}

}  // namespace

void runSql(const std::string& command, const std::string& sql, const std::string& what) {
    awaitSql(startSql(command, sql, what), what);
}

BackgroundSql::BackgroundSql(const std::string& command, const std::string& sql, std::string what)
    : what_(std::move(what)), pid_(startSql(command, sql, what_)) {}

BackgroundSql::~BackgroundSql() {
    try {
        finish();
    } catch (const CaseFailure&) {
        // The case has already failed or passed; the writer's own messages are on stderr.
    }
}

void BackgroundSql::finish() {
    if (pid_ < 0) return;
    pid_t child = pid_;
    pid_ = -1;
    awaitSql(child, what_);
}

}  // namespace tapdiffgen::conformance
