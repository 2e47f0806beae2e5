// check "null-arguments": on a live connection, NULL requests and outputs are INVALID_ARGUMENT,
// and the connection stays usable afterwards (the engine keeps using it after an error).
// Each call runs in its own process with its own connection, so a crash names the call.
#include <functional>

#include "abi_error.hpp"
#include "case_result.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"
#include "probe_runner.hpp"

namespace tapdiffgen::conformance {
namespace {

constexpr int kConnectedProbeTimeoutSeconds = 60;

using Invoke = std::function<TdgStatus(const TdgDriver&, TdgConnection*, TdgError*)>;

struct ConnectedProbe {
    const char* call;
    Invoke invoke;
};

int32_t ignoreBatch(void*, const TdgRowBatch*) { return 0; }

std::vector<ConnectedProbe> probes() {
    return {
        {"server_version(connection, NULL, 64, error)",
         [](const TdgDriver& d, TdgConnection* c, TdgError* e) {
             return d.server_version(c, nullptr, 64, e);
         }},
        {"describe_table(connection, NULL, &out, error)",
         [](const TdgDriver& d, TdgConnection* c, TdgError* e) {
             TdgColumnList out{};
             return d.describe_table(c, nullptr, &out, e);
         }},
        {"describe_table(connection, {NULL, NULL}, &out, error)",
         [](const TdgDriver& d, TdgConnection* c, TdgError* e) {
             TdgTableRef table{nullptr, nullptr};
             TdgColumnList out{};
             return d.describe_table(c, &table, &out, e);
         }},
        {"read_diffgen_page(connection, NULL, &out, error)",
         [](const TdgDriver& d, TdgConnection* c, TdgError* e) {
             TdgEventPage out{};
             return d.read_diffgen_page(c, nullptr, &out, e);
         }},
        {"max_diffgen_id(connection, NULL, &max, &empty, error)",
         [](const TdgDriver& d, TdgConnection* c, TdgError* e) {
             int64_t max = 0;
             int32_t empty = 0;
             return d.max_diffgen_id(c, nullptr, &max, &empty, e);
         }},
        {"fetch_rows(connection, NULL, sink, NULL, error)",
         [](const TdgDriver& d, TdgConnection* c, TdgError* e) {
             return d.fetch_rows(c, nullptr, &ignoreBatch, nullptr, e);
         }},
        {"scan_table(connection, NULL, sink, NULL, error)",
         [](const TdgDriver& d, TdgConnection* c, TdgError* e) {
             return d.scan_table(c, nullptr, &ignoreBatch, nullptr, e);
         }},
    };
}

std::string runProbe(const LiveContext& context, const ConnectedProbe& probe) {
    const TdgDriver& driver = context.subject->driver();
    TdgConnection* connection = connectRaw(context, driver);
    TdgError error{};
    TdgStatus status = probe.invoke(driver, connection, &error);
    std::string message = takeErrorMessage(error);
    require(status == TDG_INVALID_ARGUMENT,
            "returned " + describeStatus(status) + ", expected INVALID_ARGUMENT");
    require(!message.empty(), "failed without an error message");
    char version[128] = {0};
    TdgError after{};
    TdgStatus again = driver.server_version(connection, version, sizeof(version), &after);
    std::string afterMessage = takeErrorMessage(after);
    driver.close(connection);
    require(again == TDG_OK, "the connection was unusable afterwards: server_version returned " +
                                 describeStatus(again) + ": " + afterMessage);
    return {};
}

}  // namespace

std::string checkConnectedNullArguments(const LiveContext& context, const CaseFiles&) {
    std::vector<ConnectedProbe> list = probes();
    std::vector<IsolatedProbe> isolated;
    for (const ConnectedProbe& probe : list) {
        isolated.push_back({probe.call, [&context, &probe] { return runProbe(context, probe); }});
    }
    runProbes(isolated, kConnectedProbeTimeoutSeconds);
    return std::to_string(list.size()) + " calls with NULL pointers answered INVALID_ARGUMENT";
}

}  // namespace tapdiffgen::conformance
