// Runs the tap in-process against the fake dialect plugin and collects what it wrote.
#pragma once

#include <string>
#include <vector>

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

/// Runs tapMain with these arguments, capturing stdout and stderr.
TapRun runTap(const std::vector<std::string>& arguments);

}  // namespace tapdiffgen::testing
