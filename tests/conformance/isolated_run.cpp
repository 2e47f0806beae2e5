#include "isolated_run.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace tapdiffgen::conformance {
namespace {

// The child's verdict travels as one tag character followed by the detail.
constexpr char kOk = 'o';
constexpr char kFail = 'F';
constexpr char kSkip = 's';

bool isolation = true;

CaseResult evaluate(const CaseBody& body) {
    try {
        return {Outcome::Ok, body()};
    } catch (const CaseFailure& failure) {
        return {Outcome::Fail, failure.what()};
    } catch (const CaseSkipped& skipped) {
        return {Outcome::Skip, skipped.what()};
    } catch (const std::exception& failure) {
        return {Outcome::Fail, std::string("unexpected exception: ") + failure.what()};
    } catch (...) {
        return {Outcome::Fail, "unexpected exception of unknown type"};
    }
}

[[noreturn]] void runChild(const CaseBody& body, int writeEnd) {
    CaseResult result = evaluate(body);
    char tag = result.outcome == Outcome::Ok     ? kOk
               : result.outcome == Outcome::Skip ? kSkip
                                                 : kFail;
    std::string message = tag + result.detail;
    const char* data = message.data();
    size_t left = message.size();
    while (left > 0) {
        ssize_t written = write(writeEnd, data, left);
        if (written <= 0) break;
        data += written;
        left -= static_cast<size_t>(written);
    }
    // _exit: the child must not run the parent's atexit handlers or flush its buffers twice.
    _exit(0);
}

// Reads until EOF or the deadline; false on timeout.
bool readUntilClosed(int readEnd, std::chrono::steady_clock::time_point deadline,
                     std::string& out) {
    char buffer[4096];
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd descriptor{readEnd, POLLIN, 0};
        int ready = poll(&descriptor, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) return false;
        ssize_t got = read(readEnd, buffer, sizeof(buffer));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return true;
        out.append(buffer, static_cast<size_t>(got));
    }
}

CaseResult verdict(const std::string& message, int status) {
    if (WIFSIGNALED(status)) {
        int signal = WTERMSIG(status);
        return {Outcome::Fail, "the plugin crashed the process with signal " +
                                   std::to_string(signal) + " (" + strsignal(signal) + ")"};
    }
    if (message.empty()) {
        return {Outcome::Fail, "the case ended without a verdict (exit status " +
                                   std::to_string(WEXITSTATUS(status)) + ")"};
    }
    Outcome outcome = message[0] == kOk     ? Outcome::Ok
                      : message[0] == kSkip ? Outcome::Skip
                                            : Outcome::Fail;
    return {outcome, message.substr(1)};
}

}  // namespace

void setIsolation(bool enabled) { isolation = enabled; }

CaseResult runIsolated(const CaseBody& body, int timeoutSeconds) {
    if (!isolation) return evaluate(body);
    std::cout << std::flush;
    std::cerr << std::flush;
    std::fflush(nullptr);
    int ends[2];
    if (pipe(ends) != 0) return {Outcome::Fail, "pipe failed: " + std::string(strerror(errno))};
    pid_t child = fork();
    if (child < 0) {
        close(ends[0]);
        close(ends[1]);
        return {Outcome::Fail, "fork failed: " + std::string(strerror(errno))};
    }
    if (child == 0) {
        close(ends[0]);
        runChild(body, ends[1]);
    }
    close(ends[1]);
    std::string message;
    bool finished = readUntilClosed(
        ends[0], std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds), message);
    close(ends[0]);
    if (!finished) kill(child, SIGKILL);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (!finished) {
        return {Outcome::Fail, "did not finish within " + std::to_string(timeoutSeconds) + " s"};
    }
    return verdict(message, status);
}

}  // namespace tapdiffgen::conformance
