// The frozen layout of ABI version 1. Plugins built years apart must keep working with any tap
// that speaks version 1, so no member of a v1 structure may move, grow or change type. A failure
// here means the header changed in a way that breaks every plugin already built: add members
// only at the end of TdgDriver (documented "since N") or in a new structure instead.
//
// The literals were computed once from the v1 header on x86_64 Linux (LP64) and written down;
// they are deliberately not derived from the header.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tap-diffgen/dialect_abi.h"

extern "C" size_t tdgAbiSizeFromC(int which);

#if UINTPTR_MAX == UINT64_MAX

// TdgError
static_assert(sizeof(TdgError) == 40);
static_assert(alignof(TdgError) == 8);
static_assert(offsetof(TdgError, message) == 0);
static_assert(offsetof(TdgError, sqlstate) == 8);
static_assert(offsetof(TdgError, retryable) == 14);
static_assert(offsetof(TdgError, reserved_) == 15);
static_assert(offsetof(TdgError, vendor_code) == 16);
static_assert(offsetof(TdgError, release) == 24);
static_assert(offsetof(TdgError, private_data) == 32);

// TdgPluginInfo
static_assert(sizeof(TdgPluginInfo) == 64);
static_assert(alignof(TdgPluginInfo) == 8);
static_assert(offsetof(TdgPluginInfo, struct_size) == 0);
static_assert(offsetof(TdgPluginInfo, abi_version_min) == 4);
static_assert(offsetof(TdgPluginInfo, abi_version_max) == 8);
static_assert(offsetof(TdgPluginInfo, dialect_name) == 16);
static_assert(offsetof(TdgPluginInfo, aliases) == 24);
static_assert(offsetof(TdgPluginInfo, plugin_version) == 32);
static_assert(offsetof(TdgPluginInfo, sdk_version) == 40);
static_assert(offsetof(TdgPluginInfo, description) == 48);
static_assert(offsetof(TdgPluginInfo, settings) == 56);
static_assert(TDG_PLUGIN_INFO_SIZE_1 == 56);
static_assert(TDG_PLUGIN_INFO_SIZE_4 == 64);

// TdgSettingDeclaration (since 4)
static_assert(sizeof(TdgSettingDeclaration) == 64);
static_assert(alignof(TdgSettingDeclaration) == 8);
static_assert(offsetof(TdgSettingDeclaration, struct_size) == 0);
static_assert(offsetof(TdgSettingDeclaration, type) == 4);
static_assert(offsetof(TdgSettingDeclaration, name) == 8);
static_assert(offsetof(TdgSettingDeclaration, description) == 16);
static_assert(offsetof(TdgSettingDeclaration, default_json) == 24);
static_assert(offsetof(TdgSettingDeclaration, allowed) == 32);
static_assert(offsetof(TdgSettingDeclaration, minimum) == 40);
static_assert(offsetof(TdgSettingDeclaration, maximum) == 48);
static_assert(offsetof(TdgSettingDeclaration, has_minimum) == 56);
static_assert(offsetof(TdgSettingDeclaration, has_maximum) == 57);
static_assert(offsetof(TdgSettingDeclaration, secret) == 58);
static_assert(offsetof(TdgSettingDeclaration, reserved_) == 59);
static_assert(TDG_SETTING_DECLARATION_SIZE_4 == 64);

// TdgCell
static_assert(sizeof(TdgCell) == 32);
static_assert(alignof(TdgCell) == 8);
static_assert(offsetof(TdgCell, kind) == 0);
static_assert(offsetof(TdgCell, reserved_) == 4);
static_assert(offsetof(TdgCell, i64) == 8);
static_assert(offsetof(TdgCell, data) == 16);
static_assert(offsetof(TdgCell, size) == 24);

// TdgRowBatch
static_assert(sizeof(TdgRowBatch) == 24);
static_assert(alignof(TdgRowBatch) == 8);
static_assert(offsetof(TdgRowBatch, num_rows) == 0);
static_assert(offsetof(TdgRowBatch, num_columns) == 8);
static_assert(offsetof(TdgRowBatch, reserved_) == 12);
static_assert(offsetof(TdgRowBatch, cells) == 16);

// TdgOption
static_assert(sizeof(TdgOption) == 16);
static_assert(alignof(TdgOption) == 8);
static_assert(offsetof(TdgOption, key) == 0);
static_assert(offsetof(TdgOption, value) == 8);

// TdgConnectParams
static_assert(sizeof(TdgConnectParams) == 32);
static_assert(alignof(TdgConnectParams) == 8);
static_assert(offsetof(TdgConnectParams, struct_size) == 0);
static_assert(offsetof(TdgConnectParams, num_options) == 4);
static_assert(offsetof(TdgConnectParams, options) == 8);
static_assert(offsetof(TdgConnectParams, log) == 16);
static_assert(offsetof(TdgConnectParams, log_context) == 24);

// TdgTableRef
static_assert(sizeof(TdgTableRef) == 16);
static_assert(alignof(TdgTableRef) == 8);
static_assert(offsetof(TdgTableRef, schema) == 0);
static_assert(offsetof(TdgTableRef, name) == 8);

// TdgColumn
static_assert(sizeof(TdgColumn) == 48);
static_assert(alignof(TdgColumn) == 8);
static_assert(offsetof(TdgColumn, name) == 0);
static_assert(offsetof(TdgColumn, ordinal) == 8);
static_assert(offsetof(TdgColumn, value_kind) == 12);
static_assert(offsetof(TdgColumn, sql_type) == 16);
static_assert(offsetof(TdgColumn, precision) == 24);
static_assert(offsetof(TdgColumn, scale) == 28);
static_assert(offsetof(TdgColumn, nullable) == 32);
static_assert(offsetof(TdgColumn, primary_key) == 33);
static_assert(offsetof(TdgColumn, key_support) == 34);
static_assert(offsetof(TdgColumn, reserved_) == 35);
static_assert(offsetof(TdgColumn, json_schema) == 40);

// TdgColumnList
static_assert(sizeof(TdgColumnList) == 32);
static_assert(alignof(TdgColumnList) == 8);
static_assert(offsetof(TdgColumnList, num_columns) == 0);
static_assert(offsetof(TdgColumnList, reserved_) == 4);
static_assert(offsetof(TdgColumnList, columns) == 8);
static_assert(offsetof(TdgColumnList, release) == 16);
static_assert(offsetof(TdgColumnList, private_data) == 24);

// TdgEvent
static_assert(sizeof(TdgEvent) == 48);
static_assert(alignof(TdgEvent) == 8);
static_assert(offsetof(TdgEvent, id) == 0);
static_assert(offsetof(TdgEvent, op) == 8);
static_assert(offsetof(TdgEvent, table_id_is_null) == 9);
static_assert(offsetof(TdgEvent, reserved_) == 10);
static_assert(offsetof(TdgEvent, table_name) == 16);
static_assert(offsetof(TdgEvent, table_id) == 24);
static_assert(offsetof(TdgEvent, table_id_size) == 32);
static_assert(offsetof(TdgEvent, ts_created) == 40);

// TdgHorizonMark
static_assert(sizeof(TdgHorizonMark) == 32);
static_assert(alignof(TdgHorizonMark) == 8);
static_assert(offsetof(TdgHorizonMark, words) == 0);

// TdgPageRequest
static_assert(sizeof(TdgPageRequest) == 56);
static_assert(alignof(TdgPageRequest) == 8);
static_assert(offsetof(TdgPageRequest, struct_size) == 0);
static_assert(offsetof(TdgPageRequest, num_table_names) == 4);
static_assert(offsetof(TdgPageRequest, diffgen) == 8);
static_assert(offsetof(TdgPageRequest, after_id) == 24);
static_assert(offsetof(TdgPageRequest, up_to_id) == 32);
static_assert(offsetof(TdgPageRequest, limit) == 40);
static_assert(offsetof(TdgPageRequest, table_names) == 48);

// TdgEventPage
static_assert(sizeof(TdgEventPage) == 72);
static_assert(alignof(TdgEventPage) == 8);
static_assert(offsetof(TdgEventPage, num_events) == 0);
static_assert(offsetof(TdgEventPage, events) == 8);
static_assert(offsetof(TdgEventPage, range_row_count) == 16);
static_assert(offsetof(TdgEventPage, mark) == 24);
static_assert(offsetof(TdgEventPage, release) == 56);
static_assert(offsetof(TdgEventPage, private_data) == 64);

// TdgFetchRequest: revision 1 is the first 72 bytes, revision 2 appends 24.
static_assert(TDG_FETCH_REQUEST_SIZE_1 == 72);
static_assert(TDG_FETCH_REQUEST_SIZE_2 == 96);
static_assert(sizeof(TdgFetchRequest) == 96);
static_assert(alignof(TdgFetchRequest) == 8);
static_assert(offsetof(TdgFetchRequest, struct_size) == 0);
static_assert(offsetof(TdgFetchRequest, num_columns) == 4);
static_assert(offsetof(TdgFetchRequest, table) == 8);
static_assert(offsetof(TdgFetchRequest, columns) == 24);
static_assert(offsetof(TdgFetchRequest, key_column) == 32);
static_assert(offsetof(TdgFetchRequest, num_keys) == 40);
static_assert(offsetof(TdgFetchRequest, keys) == 48);
static_assert(offsetof(TdgFetchRequest, key_sizes) == 56);
static_assert(offsetof(TdgFetchRequest, batch_rows) == 64);
static_assert(offsetof(TdgFetchRequest, num_key_columns) == 72);  // since 2
static_assert(offsetof(TdgFetchRequest, reserved_) == 76);
static_assert(offsetof(TdgFetchRequest, key_columns) == 80);
static_assert(offsetof(TdgFetchRequest, column_kinds) == 88);

// TdgScanRequest: revision 1 is the first 48 bytes, revision 2 appends 24, revision 5 16.
static_assert(TDG_SCAN_REQUEST_SIZE_1 == 48);
static_assert(TDG_SCAN_REQUEST_SIZE_2 == 72);
static_assert(TDG_SCAN_REQUEST_SIZE_5 == 88);
static_assert(sizeof(TdgScanRequest) == 88);
static_assert(alignof(TdgScanRequest) == 8);
static_assert(offsetof(TdgScanRequest, struct_size) == 0);
static_assert(offsetof(TdgScanRequest, num_columns) == 4);
static_assert(offsetof(TdgScanRequest, table) == 8);
static_assert(offsetof(TdgScanRequest, columns) == 24);
static_assert(offsetof(TdgScanRequest, key_column) == 32);
static_assert(offsetof(TdgScanRequest, batch_rows) == 40);
static_assert(offsetof(TdgScanRequest, num_key_columns) == 48);  // since 2
static_assert(offsetof(TdgScanRequest, reserved_) == 52);
static_assert(offsetof(TdgScanRequest, key_columns) == 56);
static_assert(offsetof(TdgScanRequest, column_kinds) == 64);
static_assert(offsetof(TdgScanRequest, after_key) == 72);  // since 5
static_assert(offsetof(TdgScanRequest, max_rows) == 80);

// The journal facts of revision 5.
static_assert(TDG_JOURNAL_BOUNDS_SIZE_5 == 32);
static_assert(offsetof(TdgJournalBounds, struct_size) == 0);
static_assert(offsetof(TdgJournalBounds, is_empty) == 4);
static_assert(offsetof(TdgJournalBounds, has_next_id) == 5);
static_assert(offsetof(TdgJournalBounds, oldest_id) == 8);
static_assert(offsetof(TdgJournalBounds, newest_id) == 16);
static_assert(offsetof(TdgJournalBounds, next_id) == 24);
static_assert(TDG_JOURNAL_BOUNDS_SIZE_6 == 48);  // since 6: the prune record
static_assert(offsetof(TdgJournalBounds, has_prune_record) == 32);
static_assert(offsetof(TdgJournalBounds, highest_pruned_id) == 40);
static_assert(TDG_JOURNAL_REQUEST_SIZE_5 == 40);
static_assert(offsetof(TdgJournalRequest, num_tables) == 4);
static_assert(offsetof(TdgJournalRequest, diffgen) == 8);
static_assert(offsetof(TdgJournalRequest, tables) == 24);
static_assert(offsetof(TdgJournalRequest, include_triggers) == 32);
static_assert(TDG_BYPASSING_FOREIGN_KEY_SIZE_5 == 40);
static_assert(offsetof(TdgBypassingForeignKey, constraint_name) == 8);
static_assert(offsetof(TdgBypassingForeignKey, parent) == 16);
static_assert(offsetof(TdgBypassingForeignKey, actions) == 32);
static_assert(TDG_JOURNAL_TRIGGER_SIZE_5 == 32);
static_assert(offsetof(TdgJournalTrigger, name) == 8);
static_assert(offsetof(TdgJournalTrigger, events) == 16);
static_assert(offsetof(TdgJournalTrigger, journal_name) == 24);
static_assert(TDG_JOURNAL_TRIGGER_SIZE_6 == 48);  // since 6: the journalled key columns
static_assert(offsetof(TdgJournalTrigger, num_key_columns) == 32);
static_assert(offsetof(TdgJournalTrigger, key_columns) == 40);
static_assert(TDG_TABLE_JOURNAL_SIZE_5 == 40);
static_assert(offsetof(TdgTableJournal, num_partitions) == 4);
static_assert(offsetof(TdgTableJournal, partitions) == 8);
static_assert(offsetof(TdgTableJournal, num_bypassing_foreign_keys) == 16);
static_assert(offsetof(TdgTableJournal, num_triggers) == 20);
static_assert(offsetof(TdgTableJournal, bypassing_foreign_keys) == 24);
static_assert(offsetof(TdgTableJournal, triggers) == 32);
static_assert(TDG_JOURNAL_INSPECTION_SIZE_5 == 56);
static_assert(offsetof(TdgJournalInspection, num_tables) == 4);
static_assert(offsetof(TdgJournalInspection, id_source) == 8);
static_assert(offsetof(TdgJournalInspection, id_cache) == 16);
static_assert(offsetof(TdgJournalInspection, horizon_problem) == 24);
static_assert(offsetof(TdgJournalInspection, tables) == 32);
static_assert(offsetof(TdgJournalInspection, release) == 40);
static_assert(offsetof(TdgJournalInspection, private_data) == 48);

// TdgDriver: revision 1 ends before fetch_rows_many, revision 2 before wait_for_change,
// revision 3 before describe_tables, revision 4 before journal_bounds.
static_assert(TDG_DRIVER_SIZE_1 == 88);
static_assert(TDG_DRIVER_SIZE_2 == 96);
static_assert(TDG_DRIVER_SIZE_3 == 104);
static_assert(TDG_DRIVER_SIZE_4 == 112);
static_assert(TDG_DRIVER_SIZE_5 == 144);
static_assert(sizeof(TdgDriver) == 144);
static_assert(alignof(TdgDriver) == 8);
static_assert(offsetof(TdgDriver, struct_size) == 0);
static_assert(offsetof(TdgDriver, abi_version) == 4);
static_assert(offsetof(TdgDriver, connect) == 8);
static_assert(offsetof(TdgDriver, close) == 16);
static_assert(offsetof(TdgDriver, server_version) == 24);
static_assert(offsetof(TdgDriver, describe_table) == 32);
static_assert(offsetof(TdgDriver, read_diffgen_page) == 40);
static_assert(offsetof(TdgDriver, max_diffgen_id) == 48);
static_assert(offsetof(TdgDriver, fetch_rows) == 56);
static_assert(offsetof(TdgDriver, scan_table) == 64);
static_assert(offsetof(TdgDriver, check_horizon) == 72);
static_assert(offsetof(TdgDriver, cancel) == 80);
static_assert(offsetof(TdgDriver, fetch_rows_many) == 88);   // since 2, optional
static_assert(offsetof(TdgDriver, wait_for_change) == 96);   // since 3, optional
static_assert(offsetof(TdgDriver, describe_tables) == 104);  // since 4, optional
static_assert(offsetof(TdgDriver, journal_bounds) == 112);   // since 5, optional
static_assert(offsetof(TdgDriver, inspect_journal) == 120);  // since 5, optional
static_assert(offsetof(TdgDriver, scan_chunk) == 128);       // since 5, optional
static_assert(offsetof(TdgDriver, estimate_rows) == 136);    // since 5, optional

#endif  // UINTPTR_MAX == UINT64_MAX

// Signatures are part of the ABI as much as offsets are.
static_assert(std::is_same_v<decltype(TdgDriver::connect),
                             TdgStatus (*)(const TdgConnectParams*, TdgConnection**, TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::close), void (*)(TdgConnection*)>);
static_assert(std::is_same_v<decltype(TdgDriver::server_version),
                             TdgStatus (*)(TdgConnection*, char*, size_t, TdgError*)>);
static_assert(
    std::is_same_v<decltype(TdgDriver::describe_table),
                   TdgStatus (*)(TdgConnection*, const TdgTableRef*, TdgColumnList*, TdgError*)>);
static_assert(
    std::is_same_v<decltype(TdgDriver::read_diffgen_page),
                   TdgStatus (*)(TdgConnection*, const TdgPageRequest*, TdgEventPage*, TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::max_diffgen_id),
                             TdgStatus (*)(TdgConnection*, const TdgTableRef*, int64_t*, int32_t*,
                                           TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::fetch_rows),
                             TdgStatus (*)(TdgConnection*, const TdgFetchRequest*, TdgBatchSink,
                                           void*, TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::scan_table),
                             TdgStatus (*)(TdgConnection*, const TdgScanRequest*, TdgBatchSink,
                                           void*, TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::check_horizon),
                             TdgStatus (*)(TdgConnection*, const TdgHorizonMark*, int32_t*,
                                           TdgHorizonMark*, TdgError*)>);
static_assert(
    std::is_same_v<decltype(TdgDriver::cancel), TdgStatus (*)(TdgConnection*, TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::fetch_rows_many),
                             TdgStatus (*)(TdgConnection*, const TdgFetchRequest*, int64_t,
                                           const TdgBatchSink*, void* const*, TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::journal_bounds),
                             TdgStatus (*)(TdgConnection*, const TdgTableRef*, TdgJournalBounds*,
                                           TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::inspect_journal),
                             TdgStatus (*)(TdgConnection*, const TdgJournalRequest*,
                                           TdgJournalInspection*, TdgError*)>);
static_assert(std::is_same_v<decltype(TdgDriver::scan_chunk),
                             TdgStatus (*)(TdgConnection*, const TdgScanRequest*, TdgBatchSink,
                                           void*, TdgError*)>);
static_assert(
    std::is_same_v<decltype(TdgDriver::estimate_rows),
                   TdgStatus (*)(TdgConnection*, const TdgTableRef*, int64_t*, TdgError*)>);
static_assert(std::is_same_v<TdgBatchSink, int32_t (*)(void*, const TdgRowBatch*)>);
static_assert(std::is_same_v<TdgPluginInfoFn, const TdgPluginInfo* (*)()>);
static_assert(std::is_same_v<TdgDriverInitFn, TdgStatus (*)(int32_t, TdgDriver*, TdgError*)>);
static_assert(std::is_same_v<TdgStatus, int32_t>);
static_assert(std::is_same_v<TdgValueKind, int32_t>);

TEST_CASE("the ABI version of this header is 6") {
    CHECK(TDG_ABI_VERSION_1 == 1);
    CHECK(TDG_ABI_VERSION_2 == 2);
    CHECK(TDG_ABI_VERSION_3 == 3);
    CHECK(TDG_ABI_VERSION_4 == 4);
    CHECK(TDG_ABI_VERSION_5 == 5);
    CHECK(TDG_ABI_VERSION_6 == 6);
    CHECK(TDG_ABI_VERSION == 6);
    CHECK(TDG_KEY_SUPPORT_UNSTATED == 0);
    CHECK(TDG_KEY_SUPPORT_YES == 1);
    CHECK(TDG_KEY_SUPPORT_NO == 2);
    CHECK(TDG_SETTING_STRING == 1);
    CHECK(TDG_SETTING_INTEGER == 2);
    CHECK(TDG_SETTING_NUMBER == 3);
    CHECK(TDG_SETTING_BOOLEAN == 4);
    CHECK(std::strcmp(TDG_PLUGIN_INFO_SYMBOL, "tdg_plugin_info") == 0);
    CHECK(std::strcmp(TDG_DRIVER_INIT_SYMBOL, "tdg_driver_init") == 0);
}

TEST_CASE("status codes keep their v1 values") {
    CHECK(TDG_OK == 0);
    CHECK(TDG_UNKNOWN == 1);
    CHECK(TDG_NOT_IMPLEMENTED == 2);
    CHECK(TDG_NOT_FOUND == 3);
    CHECK(TDG_INVALID_ARGUMENT == 4);
    CHECK(TDG_INVALID_STATE == 5);
    CHECK(TDG_IO == 6);
    CHECK(TDG_UNAUTHENTICATED == 7);
    CHECK(TDG_UNAUTHORIZED == 8);
    CHECK(TDG_CANCELLED == 9);
    CHECK(TDG_INVALID_DATA == 10);
    CHECK(TDG_INTERNAL == 11);
}

TEST_CASE("status codes added later keep their values") {
    CHECK(TDG_TABLE_CHANGED == 12);  // since 5
}

TEST_CASE("value kinds keep their v1 values") {
    CHECK(TDG_KIND_NULL == 0);
    CHECK(TDG_KIND_BOOL == 1);
    CHECK(TDG_KIND_INT64 == 2);
    CHECK(TDG_KIND_DECIMAL == 3);
    CHECK(TDG_KIND_TEXT == 4);
    CHECK(TDG_KIND_BYTES == 5);
    CHECK(TDG_KIND_JSON == 6);
    CHECK(TDG_KIND_DATE == 7);
    CHECK(TDG_KIND_TIME == 8);
    CHECK(TDG_KIND_TIMESTAMP == 9);
    CHECK(TDG_KIND_TIMESTAMPTZ == 10);
}

TEST_CASE("log levels, diffgen ops and horizon states keep their v1 values") {
    CHECK(TDG_LOG_DEBUG == 10);
    CHECK(TDG_LOG_INFO == 20);
    CHECK(TDG_LOG_WARNING == 30);
    CHECK(TDG_LOG_ERROR == 40);
    CHECK(TDG_OP_INSERT == 'i');
    CHECK(TDG_OP_UPDATE == 'u');
    CHECK(TDG_OP_DELETE == 'd');
    CHECK(TDG_HORIZON_PENDING == 0);
    CHECK(TDG_HORIZON_FINAL == 1);
}

// A plugin may be written in C: the header must give a C compiler the same layout.
TEST_CASE("a C compiler sees the same structure sizes") {
    CHECK(tdgAbiSizeFromC(0) == sizeof(TdgCell));
    CHECK(tdgAbiSizeFromC(1) == sizeof(TdgDriver));
    CHECK(tdgAbiSizeFromC(2) == sizeof(TdgEventPage));
    CHECK(tdgAbiSizeFromC(3) == sizeof(TdgColumn));
    CHECK(tdgAbiSizeFromC(4) == sizeof(TdgFetchRequest));
    CHECK(tdgAbiSizeFromC(5) == sizeof(TdgPluginInfo));
    CHECK(tdgAbiSizeFromC(6) == sizeof(TdgSettingDeclaration));
}
