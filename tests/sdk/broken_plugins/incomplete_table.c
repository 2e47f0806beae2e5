/* A plugin that initialises successfully but leaves required members of the v1 table unset
 * (here fetch_rows and scan_table): the tap must refuse it at load time, naming what is
 * missing, instead of calling through a NULL pointer in the middle of a sync. */
#include <stddef.h>

#include "tap-diffgen/dialect_abi.h"

static TdgStatus connectStub(const TdgConnectParams* params, TdgConnection** out, TdgError* error) {
    (void)params;
    (void)out;
    (void)error;
    return TDG_NOT_IMPLEMENTED;
}

static void closeStub(TdgConnection* connection) { (void)connection; }

static TdgStatus serverVersionStub(TdgConnection* connection, char* buffer, size_t size,
                                   TdgError* error) {
    (void)connection;
    (void)buffer;
    (void)size;
    (void)error;
    return TDG_NOT_IMPLEMENTED;
}

static TdgStatus describeStub(TdgConnection* connection, const TdgTableRef* table,
                              TdgColumnList* out, TdgError* error) {
    (void)connection;
    (void)table;
    (void)out;
    (void)error;
    return TDG_NOT_IMPLEMENTED;
}

static TdgStatus pageStub(TdgConnection* connection, const TdgPageRequest* request,
                          TdgEventPage* out, TdgError* error) {
    (void)connection;
    (void)request;
    (void)out;
    (void)error;
    return TDG_NOT_IMPLEMENTED;
}

static TdgStatus maxIdStub(TdgConnection* connection, const TdgTableRef* diffgen, int64_t* maxId,
                           int32_t* isEmpty, TdgError* error) {
    (void)connection;
    (void)diffgen;
    (void)maxId;
    (void)isEmpty;
    (void)error;
    return TDG_NOT_IMPLEMENTED;
}

const TdgPluginInfo* tdg_plugin_info(void) {
    static const TdgPluginInfo info = {sizeof(TdgPluginInfo),
                                       1,
                                       1,
                                       "incomplete",
                                       NULL,
                                       "0.0.1",
                                       "0.0.1",
                                       "forgets fetch_rows and scan_table",
                                       NULL};
    return &info;
}

TdgStatus tdg_driver_init(int32_t version, TdgDriver* driver, TdgError* error) {
    (void)version;
    (void)error;
    driver->abi_version = 1;
    driver->connect = &connectStub;
    driver->close = &closeStub;
    driver->server_version = &serverVersionStub;
    driver->describe_table = &describeStub;
    driver->read_diffgen_page = &pageStub;
    driver->max_diffgen_id = &maxIdStub;
    return TDG_OK;
}
