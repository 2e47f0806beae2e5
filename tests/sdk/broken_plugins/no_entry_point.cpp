// What a plugin looks like when its entry points lost extern "C": the functions exist, but
// under mangled names, so the tap cannot find tdg_plugin_info.
#include "tap-diffgen/dialect_abi.h"

__attribute__((visibility("default"))) const TdgPluginInfo* tdg_plugin_info() {
    static const TdgPluginInfo info = {
        sizeof(TdgPluginInfo), 1,      1, "noentry", nullptr, "0.0.1", "0.0.1",
        "broken on purpose",   nullptr};
    return &info;
}
