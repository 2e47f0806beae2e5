/* A plugin from a future tap-diffgen that speaks only ABI version 99. The tap must refuse it
 * from the info block alone: initialising it with a version it does not speak is exactly what
 * the info block exists to avoid, so init reports being called. */
#include <stdlib.h>
#include <string.h>

#include "tap-diffgen/dialect_abi.h"

static void releaseError(TdgError* error) {
    free(error->message);
    memset(error, 0, sizeof(*error));
}

const TdgPluginInfo* tdg_plugin_info(void) {
    static const TdgPluginInfo info = {
        sizeof(TdgPluginInfo), 99,  99, "wrongabi", NULL, "99.0.0", "99.0.0",
        "speaks only ABI 99",  NULL};
    return &info;
}

TdgStatus tdg_driver_init(int32_t version, TdgDriver* driver, TdgError* error) {
    (void)version;
    (void)driver;
    error->message = strdup("tdg_driver_init was called despite the ABI mismatch");
    error->release = &releaseError;
    return TDG_NOT_IMPLEMENTED;
}
