/* A plugin linked against a library that is not on the loader's search path when the tap runs
 * (libtdg-missing.so, built into a directory nobody searches): dlopen must fail with the
 * loader's own message naming the library. */
#include "tap-diffgen/dialect_abi.h"

int tdg_missing_library_marker(void);

const TdgPluginInfo* tdg_plugin_info(void) {
    static const TdgPluginInfo info = {
        sizeof(TdgPluginInfo),     1,   1, "missingdep", NULL, "0.0.1", "0.0.1",
        "needs libtdg-missing.so", NULL};
    return &info;
}

/* Uses the library, so no linker drops it as unneeded. */
TdgStatus tdg_driver_init(int32_t version, TdgDriver* driver, TdgError* error) {
    (void)version;
    (void)driver;
    (void)error;
    return tdg_missing_library_marker() == 1 ? TDG_NOT_IMPLEMENTED : TDG_INTERNAL;
}
