// The one error type: each kind's exit code, and the one line each failure reads as.
#include <doctest/doctest.h>

#include <stdexcept>

#include "cli/command_line.hpp"
#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "replay/scan/page_plan.hpp"
#include "singer/message_writer.hpp"
#include "util/tap_error.hpp"

using namespace tapdiffgen::core;

TEST_CASE("a usage error exits 2 and points at --help, every other kind exits 1") {
    const FailureReport usage = reportOf(UsageError("--config is required"));
    CHECK(usage.exitCode == 2);
    CHECK(usage.line == "--config is required (tap-diffgen --help shows the options)");

    const FailureReport config = reportOf(ConfigError("config['port']: not an integer"));
    CHECK(config.exitCode == 1);
    CHECK(config.line == "config['port']: not an integer");

    for (ErrorKind kind : {ErrorKind::Configuration, ErrorKind::Journal, ErrorKind::Connection,
                           ErrorKind::Data, ErrorKind::Output, ErrorKind::Internal}) {
        CHECK(exitCodeOf(kind) == 1);
    }
}

TEST_CASE("a plugin's failure reads with its SQLSTATE, and its status decides its kind") {
    const DialectError lost(TDG_IO, "connection lost", "08006", true);
    CHECK(lost.kind() == ErrorKind::Connection);
    CHECK(reportOf(lost).line == "connection lost [SQLSTATE 08006]");

    const DialectError missing(TDG_NOT_FOUND, "table 'x' does not exist", "", false);
    CHECK(missing.kind() == ErrorKind::Configuration);
    CHECK(reportOf(missing).line == "table 'x' does not exist");

    CHECK(DialectError(TDG_INVALID_DATA, "m", "", false).kind() == ErrorKind::Data);
    CHECK(DialectError(TDG_INTERNAL, "m", "", false).kind() == ErrorKind::Internal);
    CHECK(DialectError(TDG_UNAUTHENTICATED, "m", "", false).kind() == ErrorKind::Configuration);
}

TEST_CASE("a bad event says how to skip it, and anything not a TapError is unexpected") {
    const FailureReport bad = reportOf(BadEventError(7, "diffgen id 7: op 'x' is unknown"));
    CHECK(bad.exitCode == 1);
    CHECK(bad.line ==
          "diffgen id 7: op 'x' is unknown (set on_bad_event to 'skip' to skip such rows with a "
          "warning)");

    CHECK(reportOf(OutputClosed()).line == "stdout was closed by the reader");

    const FailureReport other = reportOf(std::logic_error("vector::at"));
    CHECK(other.exitCode == 1);
    CHECK(other.line == "unexpected error: vector::at");
}
