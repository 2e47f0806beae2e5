#include "sqlite_driver.hpp"

#include <sqlite3.h>

#include "catalog.hpp"
#include "diffgen.hpp"
#include "horizon.hpp"
#include "journal.hpp"
#include "row_reader.hpp"
#include "settings.hpp"
#include "tap-diffgen/sdk/export.hpp"

namespace tapdiffgen::sqlite {

SqliteDriver::SqliteDriver(const sdk::ConnectOptions& options, sdk::HostLog log)
    : database_(Settings::from(options), callCancel()),
      warnings_(std::move(log)),
      descriptions_([this](const sdk::TableName& table) {
          return sqlite::describeTable(database_, table);
      }) {}

std::string SqliteDriver::serverVersionImpl() {
    return std::string("SQLite ") + sqlite3_libversion();
}

std::vector<sdk::ColumnInfo> SqliteDriver::describeTableImpl(const sdk::TableName& table) {
    return descriptions_.get(table, true);
}

void SqliteDriver::readDiffgenPageImpl(const sdk::PageRequest& request, sdk::EventPage& page) {
    sqlite::readDiffgenPage(database_, request, page, warnings_);
}

std::optional<int64_t> SqliteDriver::maxDiffgenIdImpl(const sdk::TableName& diffgen) {
    return sqlite::maxDiffgenId(database_, diffgen);
}

void SqliteDriver::fetchRowsImpl(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    SelectPlan select = plan(request.table, request.columns, request.keyColumns);
    sqlite::fetchRows(database_, request.table, select, request.keys, rows, warnings_);
}

void SqliteDriver::scanTableImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    SelectPlan select = plan(request.table, request.columns, request.keyColumns);
    sqlite::scanTable(database_, request.table, select, request.batchRows, rows, warnings_);
}

void SqliteDriver::scanChunkImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    SelectPlan select = plan(request.table, request.columns, request.keyColumns);
    sqlite::scanChunk(database_, request.table, select, request.afterKey, request.maxRows, rows,
                      warnings_);
}

std::optional<int64_t> SqliteDriver::estimateRowsImpl(const sdk::TableName& table) {
    return sqlite::estimateRows(database_, table);
}

sdk::HorizonState SqliteDriver::checkHorizonImpl(const TdgHorizonMark& mark, TdgHorizonMark& next) {
    next = mark;
    return sqlite::checkHorizon(mark);
}

void SqliteDriver::cancelImpl() { database_.interrupt(); }

std::optional<sdk::JournalBounds> SqliteDriver::journalBoundsImpl(const sdk::TableName& diffgen) {
    return sqlite::journalBounds(database_, diffgen);
}

std::optional<sdk::JournalInspection> SqliteDriver::inspectJournalImpl(
    const sdk::JournalRequest& request) {
    return sqlite::inspectJournal(database_, request);
}

SelectPlan SqliteDriver::plan(const sdk::TableName& table,
                              const std::vector<std::string_view>& columns,
                              const std::vector<std::string_view>& keyColumns) {
    const auto* described = &descriptions_.get(table);
    if (!describesAll(*described, columns, keyColumns)) described = &descriptions_.get(table, true);
    return planSelect(*described, table, columns, keyColumns);
}

}  // namespace tapdiffgen::sqlite

TAP_DIFFGEN_EXPORT_DRIVER(tapdiffgen::sqlite::SqliteDriver, "sqlite",
                          TAP_DIFFGEN_ALIASES("sqlite3"), TAP_DIFFGEN_SDK_VERSION,
                          "SQLite 3 database files via libsqlite3 (read-only)")
