// abi/null-arguments: every function given NULL pointers must answer with an error, not crash.
// Each call runs in its own process, so the report names the call that crashed.
#include <functional>
#include <set>

#include "abi_cases.hpp"
#include "abi_error.hpp"
#include "case_result.hpp"
#include "probe_runner.hpp"

namespace tapdiffgen::conformance {
namespace {

constexpr int kProbeTimeoutSeconds = 20;

struct Probe {
    const char* call;
    std::function<TdgStatus(TdgError*)> invoke;
    // With no connection at all, "wrong state" is as right an answer as "bad argument".
    std::set<TdgStatus> accepted;
};

std::vector<Probe> probes(const Subject& subject) {
    const TdgDriver d = subject.driver();  // a copy: each probe keeps its own table
    const std::set<TdgStatus> argument = {TDG_INVALID_ARGUMENT};
    const std::set<TdgStatus> argumentOrState = {TDG_INVALID_ARGUMENT, TDG_INVALID_STATE};
    std::vector<Probe> list = {
        {"tdg_driver_init(1, NULL, error)",
         [&subject](TdgError* e) { return subject.init(TDG_ABI_VERSION_1, nullptr, e); }, argument},
        {"connect(NULL, &out, error)",
         [d](TdgError* e) {
             TdgConnection* out = nullptr;
             TdgStatus status = d.connect(nullptr, &out, e);
             if (out != nullptr) throw CaseFailure("connect(NULL, ...) set *out");
             return status;
         },
         argument},
        {"connect(params, NULL, error)",
         [d](TdgError* e) {
             TdgConnectParams params{};
             params.struct_size = sizeof(params);
             return d.connect(&params, nullptr, e);
         },
         argument},
        {"server_version(NULL, NULL, 0, error)",
         [d](TdgError* e) { return d.server_version(nullptr, nullptr, 0, e); }, argumentOrState},
        {"describe_table(NULL, NULL, NULL, error)",
         [d](TdgError* e) { return d.describe_table(nullptr, nullptr, nullptr, e); },
         argumentOrState},
        {"read_diffgen_page(NULL, NULL, NULL, error)",
         [d](TdgError* e) { return d.read_diffgen_page(nullptr, nullptr, nullptr, e); },
         argumentOrState},
        {"max_diffgen_id(NULL, NULL, NULL, NULL, error)",
         [d](TdgError* e) { return d.max_diffgen_id(nullptr, nullptr, nullptr, nullptr, e); },
         argumentOrState},
        {"fetch_rows(NULL, NULL, NULL, NULL, error)",
         [d](TdgError* e) { return d.fetch_rows(nullptr, nullptr, nullptr, nullptr, e); },
         argumentOrState},
        {"scan_table(NULL, NULL, NULL, NULL, error)",
         [d](TdgError* e) { return d.scan_table(nullptr, nullptr, nullptr, nullptr, e); },
         argumentOrState},
    };
    if (d.check_horizon != nullptr) {
        list.push_back(
            {"check_horizon(NULL, NULL, NULL, NULL, error)",
             [d](TdgError* e) { return d.check_horizon(nullptr, nullptr, nullptr, nullptr, e); },
             {TDG_INVALID_ARGUMENT, TDG_INVALID_STATE, TDG_NOT_IMPLEMENTED}});
    }
    if (d.cancel != nullptr) {
        // Best effort by contract: "nothing to cancel" may also be success.
        list.push_back({"cancel(NULL, error)",
                        [d](TdgError* e) { return d.cancel(nullptr, e); },
                        {TDG_OK, TDG_INVALID_ARGUMENT, TDG_INVALID_STATE}});
    }
    return list;
}

std::string names(const std::set<TdgStatus>& statuses) {
    std::string text;
    for (TdgStatus status : statuses) text += (text.empty() ? "" : " or ") + describeStatus(status);
    return text;
}

std::string runProbe(const Probe& probe) {
    TdgError error{};
    TdgStatus status = probe.invoke(&error);
    std::string message = takeErrorMessage(error);
    require(probe.accepted.count(status) == 1, std::string(probe.call) + " returned " +
                                                   describeStatus(status) + ", expected " +
                                                   names(probe.accepted));
    require(status == TDG_OK || !message.empty(),
            std::string(probe.call) + " failed without an error message");
    return {};
}

}  // namespace

std::string checkNullArguments(const Subject& subject) {
    std::vector<Probe> list = probes(subject);
    std::vector<IsolatedProbe> isolated;
    for (const Probe& probe : list) {
        isolated.push_back({probe.call, [&probe] { return runProbe(probe); }});
    }
    runProbes(isolated, kProbeTimeoutSeconds);
    return std::to_string(list.size()) + " calls with NULL pointers answered with errors";
}

}  // namespace tapdiffgen::conformance
