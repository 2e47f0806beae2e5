// The tap's one error type. A failure that ends a run is a TapError of a kind; the kind alone
// decides the exit code, and line() is the one line the user reads on stderr. The classes that
// name where a failure comes from (ConfigError, JournalError, DialectError, ...) derive from it,
// so code that handles one of them still catches it by name, and the top level needs one clause.
#pragma once

#include <stdexcept>
#include <string>

namespace tapdiffgen::core {

enum class ErrorKind {
    Usage,          ///< the command line is wrong: exit 2
    Configuration,  ///< a setting, the catalog, the state or a configured table cannot be used
    Journal,        ///< the journal can no longer tell every change (pruned, reset, ...)
    Connection,     ///< the database or the plugin failed; retryable ones were retried already
    Data,           ///< a value the tap cannot replay (a diffgen row, a key, a changed table)
    Output,         ///< stdout was closed by the reader
    Internal,       ///< anything else: a bug or an unexpected library failure
};

class TapError : public std::runtime_error {
public:
    TapError(ErrorKind kind, const std::string& message)
        : std::runtime_error(message), kind_(kind) {}

    ErrorKind kind() const { return kind_; }
    /// The line for stderr: what() with whatever the kind's reader needs to act on it.
    virtual std::string line() const { return what(); }

private:
    ErrorKind kind_;
};

/// The process's exit code for a failure of `kind`.
int exitCodeOf(ErrorKind kind);

/// How any exception that reached the top reads: a TapError as itself, anything else as an
/// internal error.
struct FailureReport {
    std::string line;
    int exitCode = 1;
};
FailureReport reportOf(const std::exception& failure);

}  // namespace tapdiffgen::core
