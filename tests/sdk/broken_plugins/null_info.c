/* A plugin that breaks the first promise of the ABI: tdg_plugin_info returns NULL. */
#include <stddef.h>

#include "tap-diffgen/dialect_abi.h"

const TdgPluginInfo* tdg_plugin_info(void) { return NULL; }

TdgStatus tdg_driver_init(int32_t version, TdgDriver* driver, TdgError* error) {
    (void)version;
    (void)driver;
    (void)error;
    return TDG_NOT_IMPLEMENTED;
}
