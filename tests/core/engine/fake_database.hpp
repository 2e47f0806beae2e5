// Runs the tap in-process against the fake dialect plugin and collects what it wrote.
#pragma once

#include <string>
#include <vector>

#include "replay/observe/run_observer.hpp"
#include "support/tap_output.hpp"

namespace tapdiffgen::testing {

/// A scratch directory with a fake database file and a config file.
class FakeSetup {
public:
    /// databaseJson: the fake database (see tests/core/fake_driver); extraConfig: more settings
    /// as JSON members (e.g. R"("page_size":2,"tables":[...])"), tables included.
    FakeSetup(const std::string& databaseJson, const std::string& extraConfig);
    ~FakeSetup();

    const std::string& dir() const { return dir_; }
    std::string configPath() const { return dir_ + "/config.json"; }
    std::string write(const std::string& name, const std::string& content) const;

private:
    std::string dir_;
};

/// A fake database of tables t0..t(tables-1), each with rows 1..3 of (id int64 key, v text),
/// and `events` updates: event e on table t(e % tables), key e % 3 + 1. `extra`: more members
/// of the file, as JSON text (R"(,"page_delay_ms":300)").
std::string numberedDatabase(int tables, int events, const std::string& extra = "");

/// Rows of each numbered table: ids 1..present exist (v "v<table>-<id>"), and `gone` more
/// keys have events but no row (deleted since).
struct NumberedRows {
    int present;
    int gone;
};
/// The same with these rows: event e is on key e % (present + gone) + 1.
std::string numberedDatabase(int tables, int events, NumberedRows rows,
                             const std::string& extra = "");
/// The `tables` setting naming t0..t(tables-1), each keyed by id.
std::string numberedTablesSetting(int tables);

/// The setting that has the run read every page itself: a loss at the Nth page read hits the
/// page a test means only then (read_ahead_test.cpp has the loss of a second session).
inline constexpr const char* kOneSession = R"(,"read_ahead":false)";

/// Runs tapMain with these arguments, capturing stdout and stderr.
TapRun runTap(const std::vector<std::string>& arguments);

/// Runs a sync of `setup`'s configuration as the tap would, from no state, with `observer`
/// attached to the run (SyncCoordinator::addObserver), capturing stdout and stderr. A failure
/// is thrown as it came.
TapRun runWatchedSync(const FakeSetup& setup, core::RunObserver& observer);

}  // namespace tapdiffgen::testing
