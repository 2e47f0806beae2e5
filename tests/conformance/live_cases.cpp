#include "live_cases.hpp"

#include <functional>
#include <map>

#include "case_result.hpp"
#include "setup_sql.hpp"

namespace tapdiffgen::conformance {
namespace {

using Check = std::string (*)(const LiveContext&, const CaseFiles&);

Check checkFor(const std::string& kind) {
    static const std::map<std::string, Check> checks = {
        {"table", &checkTable},
        {"diffgen", &checkDiffgen},
        {"connect-error", &checkConnectError},
        {"missing-table", &checkMissingTable},
        {"null-arguments", &checkConnectedNullArguments},
        {"cancel", &checkCancel},
        {"cancel-statement", &checkCancelStatement},
        {"keyset", &checkKeyset},
        {"horizon", &checkHorizon},
        {"wait-for-change", &checkWaitForChange},
        {"journal-bounds", &checkJournalBounds},
        {"describe-tables", &checkDescribeTables},
        {"inspect-journal", &checkInspectJournal},
        {"lost-connection", &checkLostConnection},
    };
    auto found = checks.find(kind);
    if (found == checks.end()) throw CaseFailure("unknown check '" + kind + "' in expected.json");
    return found->second;
}

// Teardown runs however the check ends (short of a crash; the next setup cleans up then).
class Teardown {
public:
    Teardown(const LiveContext& context, const CaseFiles& files)
        : context_(context), files_(files) {}
    ~Teardown() {
        if (!files_.teardownSql || !context_.setupCommand) return;
        try {
            runSql(*context_.setupCommand, *files_.teardownSql, "teardown SQL");
        } catch (const CaseFailure&) {
            // Leftovers are dropped by the next run's setup.
        }
    }
    Teardown(const Teardown&) = delete;
    Teardown& operator=(const Teardown&) = delete;

private:
    const LiveContext& context_;
    const CaseFiles& files_;
};

std::string runCase(const LiveContext& context, const CaseLocation& location) {
    CaseFiles files = loadCaseFiles(location, {context.setupOverrides, context.expectedOverrides});
    if (files.expected->has("skip")) {
        throw CaseSkipped(files.expected->getValue<std::string>("skip"));
    }
    if (!context.options) throw CaseSkipped("TDG_CONFORMANCE_OPTIONS is not set");
    if (files.setupSql && !context.setupCommand) {
        throw CaseSkipped("needs --setup-command for its setup SQL");
    }
    Check check = checkFor(files.expected->optValue<std::string>("check", ""));
    Teardown teardown(context, files);
    if (files.setupSql) runSql(*context.setupCommand, *files.setupSql, "setup SQL");
    return check(context, files);
}

}  // namespace

std::vector<NamedCase> liveCases(const LiveContext& context, const std::filesystem::path& casesDir,
                                 const std::optional<std::filesystem::path>& overridesDir) {
    std::vector<NamedCase> cases;
    for (CaseLocation& location : caseLocations(casesDir, overridesDir)) {
        std::string name = "live/" + location.name;
        cases.push_back({name, [&context, location = std::move(location)] {
                             return runCase(context, location);
                         }});
    }
    return cases;
}

}  // namespace tapdiffgen::conformance
