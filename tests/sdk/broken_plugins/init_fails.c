/* A plugin whose initialisation fails the way a real one does when its database client is
 * unusable: a status plus a message the user must get to see. */
#include <stdlib.h>
#include <string.h>

#include "tap-diffgen/dialect_abi.h"

static void releaseError(TdgError* error) {
    free(error->message);
    memset(error, 0, sizeof(*error));
}

const TdgPluginInfo* tdg_plugin_info(void) {
    static const TdgPluginInfo info = {
        sizeof(TdgPluginInfo), 1,   1, "initfails", NULL, "0.0.1", "0.0.1",
        "fails to initialise", NULL};
    return &info;
}

TdgStatus tdg_driver_init(int32_t version, TdgDriver* driver, TdgError* error) {
    (void)version;
    (void)driver;
    error->message = strdup("the vendor client library is too old (need 3.2, found 2.9)");
    error->release = &releaseError;
    return TDG_INTERNAL;
}
