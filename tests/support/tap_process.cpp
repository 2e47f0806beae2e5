#include "support/tap_process.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tapdiffgen::testing {
namespace {

std::string readAll(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

}  // namespace

std::string tapBinary() {
    const char* path = std::getenv("TDG_TEST_TAP_BINARY");
    if (path == nullptr || path[0] == '\0') {
        throw std::runtime_error("TDG_TEST_TAP_BINARY is not set (run the tests through ctest)");
    }
    return path;
}

ScratchDir::ScratchDir() {
    char pattern[] = "/tmp/tdg-test-XXXXXX";
    if (mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string ScratchDir::write(const std::string& name, const std::string& content) const {
    std::string file = path_ + "/" + name;
    std::ofstream(file, std::ios::binary) << content;
    return file;
}

namespace {

pid_t spawn(const std::vector<std::string>& arguments, const std::string& workingDir,
            const std::string& outPath, const std::string& errPath) {
    std::vector<std::string> storage = {tapBinary()};
    storage.insert(storage.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& argument : storage) argv.push_back(argument.data());
    argv.push_back(nullptr);

    // The test runner's own signal handlers must not run in the child: a signal sent before
    // execv would otherwise report a crashed test case from the child, into the tap's output.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t child = fork();
    if (child == 0) {
        for (int number = 1; number < NSIG; ++number) std::signal(number, SIG_DFL);
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(out, 1);
        dup2(err, 2);
        // Nothing else of the test's: a database session it holds open (libmariadb's sockets
        // are inherited) would otherwise count among the tap's sessions (tests/e2e/tap_sessions).
        close_range(3, ~0U, 0);
        if (chdir(workingDir.c_str()) != 0) _exit(126);
        execv(argv[0], argv.data());
        _exit(127);
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (child < 0) throw std::runtime_error("fork failed");
    return child;
}

TapRun collect(pid_t child, const std::string& outPath, const std::string& errPath) {
    int status = 0;
    waitpid(child, &status, 0);
    TapRun run;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.setOutput(readAll(outPath), readAll(errPath));
    return run;
}

}  // namespace

TapRun runTapBinary(const std::vector<std::string>& arguments, const std::string& workingDir) {
    ScratchDir output;
    const std::string outPath = output.path() + "/stdout";
    const std::string errPath = output.path() + "/stderr";
    return collect(spawn(arguments, workingDir, outPath, errPath), outPath, errPath);
}

TapProcess::TapProcess(const std::vector<std::string>& arguments, const std::string& workingDir) {
    char pattern[] = "/tmp/tdg-proc-XXXXXX";
    if (mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    pid_ = spawn(arguments, workingDir, dir_ + "/stdout", dir_ + "/stderr");
}

TapProcess::~TapProcess() {
    if (pid_ > 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void TapProcess::signal(int number) const { kill(pid_, number); }

std::string TapProcess::stdoutSoFar() const {
    std::string out = readAll(dir_ + "/stdout");
    const size_t lastNewline = out.rfind('\n');
    out.resize(lastNewline == std::string::npos ? 0 : lastNewline + 1);
    return out;
}

size_t TapProcess::stdoutSize() const {
    std::error_code missing;
    const auto size = std::filesystem::file_size(dir_ + "/stdout", missing);
    return missing ? 0 : static_cast<size_t>(size);
}

std::string TapProcess::stdoutFrom(size_t offset) const {
    std::ifstream file(dir_ + "/stdout", std::ios::binary);
    file.seekg(static_cast<std::streamoff>(offset));
    std::stringstream rest;
    rest << file.rdbuf();
    return rest.str();
}

bool TapProcess::exited() const {
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid_;
}

TapRun TapProcess::wait() {
    TapRun run = collect(pid_, dir_ + "/stdout", dir_ + "/stderr");
    pid_ = -1;
    return run;
}

}  // namespace tapdiffgen::testing
