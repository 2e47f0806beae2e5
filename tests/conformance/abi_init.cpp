// abi/init-unsupported-versions and abi/required-functions: the version negotiation that lets
// old plugins and new taps (and the reverse) meet safely.
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "abi_cases.hpp"
#include "abi_error.hpp"
#include "case_result.hpp"

namespace tapdiffgen::conformance {
namespace {

constexpr unsigned char kUntouched = 0x5A;
constexpr size_t kGuardBytes = 64;

// A table with guard bytes behind it, to see whether a plugin writes where it may not.
struct GuardedTable {
    TdgDriver table;
    unsigned char guard[kGuardBytes];

    GuardedTable() {
        std::memset(static_cast<void*>(this), kUntouched, sizeof(*this));
        table.struct_size = sizeof(TdgDriver);
    }
    bool guardUntouched() const {
        return std::all_of(guard, guard + kGuardBytes,
                           [](unsigned char b) { return b == kUntouched; });
    }
};

void checkRefused(const Subject& subject, int32_t version) {
    GuardedTable before;
    GuardedTable after;
    TdgError error{};
    TdgStatus status = subject.init(version, &after.table, &error);
    std::string message = takeErrorMessage(error);
    std::string call = "tdg_driver_init(" + std::to_string(version) + ")";
    require(status == TDG_NOT_IMPLEMENTED,
            call + " returned " + describeStatus(status) + ", NOT_IMPLEMENTED expected");
    require(std::memcmp(&before, &after, sizeof(before)) == 0,
            call + " wrote into the table although it refused the version");
    require(!message.empty(), call + " refused without an error message");
}

void requireMember(bool isSet, const char* name, int32_t version) {
    require(isSet,
            std::string(name) + " is NULL after init for ABI version " + std::to_string(version));
}

// A host that announces a table smaller than version 1's must get nothing written past it.
void checkSmallTable(const Subject& subject) {
    GuardedTable tiny;
    tiny.table.struct_size = offsetof(TdgDriver, connect);
    TdgError error{};
    subject.init(TDG_ABI_VERSION_1, &tiny.table, &error);
    takeErrorMessage(error);
    const auto* bytes = reinterpret_cast<const unsigned char*>(&tiny.table);
    bool untouched = std::all_of(bytes + offsetof(TdgDriver, connect), bytes + sizeof(TdgDriver),
                                 [](unsigned char b) { return b == kUntouched; });
    require(untouched && tiny.guardUntouched(), "with struct_size " +
                                                    std::to_string(offsetof(TdgDriver, connect)) +
                                                    " init wrote members beyond it");
}

}  // namespace

std::string checkUnsupportedVersions(const Subject& subject) {
    require(subject.init != nullptr, "the plugin does not export " TDG_DRIVER_INIT_SYMBOL);
    checkRefused(subject, 0);
    checkRefused(subject, 99);
    return "versions 0 and 99 refused with NOT_IMPLEMENTED, table untouched";
}

std::string checkRequiredFunctions(const Subject& subject) {
    require(subject.init != nullptr, "the plugin does not export " TDG_DRIVER_INIT_SYMBOL);
    const TdgPluginInfo* info = subject.info();
    int32_t version = std::min<int32_t>(info->abi_version_max, TDG_ABI_VERSION);
    GuardedTable filled;
    std::memset(static_cast<void*>(&filled.table), 0, sizeof(TdgDriver));
    filled.table.struct_size = sizeof(TdgDriver);
    TdgError error{};
    TdgStatus status = subject.init(version, &filled.table, &error);
    std::string message = takeErrorMessage(error);
    require(status == TDG_OK, "tdg_driver_init(" + std::to_string(version) + ") returned " +
                                  describeStatus(status) + ": " + message);
    require(message.empty(), "init succeeded but left an error message: " + message);
    require(filled.guardUntouched(), "init wrote past the struct_size it was given");
    const TdgDriver& table = filled.table;
    require(table.abi_version == version, "abi_version is " + std::to_string(table.abi_version) +
                                              ", " + std::to_string(version) + " expected");
    requireMember(table.connect != nullptr, "connect", version);
    requireMember(table.close != nullptr, "close", version);
    requireMember(table.server_version != nullptr, "server_version", version);
    requireMember(table.describe_table != nullptr, "describe_table", version);
    requireMember(table.read_diffgen_page != nullptr, "read_diffgen_page", version);
    requireMember(table.max_diffgen_id != nullptr, "max_diffgen_id", version);
    requireMember(table.fetch_rows != nullptr, "fetch_rows", version);
    requireMember(table.scan_table != nullptr, "scan_table", version);
    checkSmallTable(subject);
    return "ABI " + std::to_string(version) + ", all required functions set; check_horizon " +
           (table.check_horizon != nullptr ? "set" : "not set") + ", cancel " +
           (table.cancel != nullptr ? "set" : "not set");
}

}  // namespace tapdiffgen::conformance
