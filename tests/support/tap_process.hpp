// Runs the real tap-diffgen executable (TDG_TEST_TAP_BINARY) as a child process.
#pragma once

#include <string>
#include <vector>

#include "support/tap_output.hpp"

namespace tapdiffgen::testing {

/// The built executable's path, from TDG_TEST_TAP_BINARY.
std::string tapBinary();

/// Runs the tap with `arguments` in `workingDir`, waits, and collects stdout and stderr.
TapRun runTapBinary(const std::vector<std::string>& arguments,
                    const std::string& workingDir = "/tmp");

/// A tap run in the background, for tests that signal it mid-run.
class TapProcess {
public:
    TapProcess(const std::vector<std::string>& arguments, const std::string& workingDir = "/tmp");
    ~TapProcess();
    void signal(int number) const;
    int pid() const { return pid_; }
    /// The lines written to stdout so far, each whole: a line the tap is still writing is left
    /// out, so that a test parsing them while the tap runs never reads half a message.
    std::string stdoutSoFar() const;
    /// How many, without reading them.
    size_t stdoutSize() const;
    /// The bytes written to stdout from `offset` on.
    std::string stdoutFrom(size_t offset) const;
    /// Whether the process has exited (it is then collected by wait()).
    bool exited() const;
    /// Waits for the exit and collects the output.
    TapRun wait();

private:
    std::string dir_;
    int pid_ = -1;
};

/// A scratch directory removed with the object.
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    const std::string& path() const { return path_; }
    /// Writes a file in the directory and returns its path.
    std::string write(const std::string& name, const std::string& content) const;

private:
    std::string path_;
};

}  // namespace tapdiffgen::testing
