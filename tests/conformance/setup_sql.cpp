#include "setup_sql.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
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

// A file without a name that holds the command's output until it ends: shown only when the
// command fails, so a server's chatter (NOTICE: table ... does not exist, skipping) never
// reaches the report.
int outputFile(const std::string& what) {
    char path[] = "/tmp/tdg-conformance-sql-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        throw CaseFailure(what + ": cannot create a file for its output: " + strerror(errno));
    unlink(path);
    return fd;
}

// The command's output, for a message: its lines joined, at most 400 characters.
std::string outputOf(int fd) {
    std::string text;
    char buffer[4096];
    lseek(fd, 0, SEEK_SET);
    for (ssize_t got; (got = read(fd, buffer, sizeof(buffer))) > 0;) {
        text.append(buffer, static_cast<size_t>(got));
    }
    close(fd);
    std::string line;
    for (char c : text) {
        if (c == '\n') {
            if (!line.empty() && line.back() != ' ') line += " | ";
        } else {
            line += c;
        }
    }
    while (line.size() >= 3 && line.compare(line.size() - 3, 3, " | ") == 0)
        line.resize(line.size() - 3);
    return line.size() > 400 ? line.substr(0, 400) + "..." : line;
}

// Starts `command` with `sql` on its stdin (already written and closed when this returns), its
// stdout and stderr into `output`.
pid_t startSql(const std::string& command, const std::string& sql, const std::string& what,
               int output) {
    int ends[2];
    if (pipe(ends) != 0) throw CaseFailure(what + ": pipe failed: " + strerror(errno));
    pid_t child = fork();
    if (child < 0) throw CaseFailure(what + ": fork failed: " + strerror(errno));
    if (child == 0) {
        dup2(ends[0], STDIN_FILENO);
        dup2(output, STDOUT_FILENO);
        dup2(output, STDERR_FILENO);
        close(output);
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

void awaitSql(pid_t child, int output, const std::string& what) {
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        throw CaseFailure(what + " failed (exit status " +
                          std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                          "): " + outputOf(output));
    }
    close(output);
}

}  // namespace

void runSql(const std::string& command, const std::string& sql, const std::string& what) {
    const int output = outputFile(what);
    awaitSql(startSql(command, sql, what, output), output, what);
}

BackgroundSql::BackgroundSql(const std::string& command, const std::string& sql, std::string what)
    : what_(std::move(what)),
      output_(outputFile(what_)),
      pid_(startSql(command, sql, what_, output_)) {}

BackgroundSql::~BackgroundSql() {
    try {
        finish();
    } catch (const CaseFailure&) {
        // The case has already failed or passed; a writer's failure shows in what it checked.
    }
}

void BackgroundSql::finish() {
    if (pid_ < 0) return;
    pid_t child = pid_;
    pid_ = -1;
    awaitSql(child, output_, what_);
}

}  // namespace tapdiffgen::conformance
