#include "sqlite_driver.hpp"

#include <sqlite3.h>

#include "catalog.hpp"
#include "diffgen.hpp"
#include "fetch_rows.hpp"
#include "horizon.hpp"
#include "scan_table.hpp"
#include "settings.hpp"
#include "tap-diffgen/sdk/export.hpp"

namespace tapdiffgen::sqlite {

SqliteDriver::SqliteDriver(const sdk::ConnectOptions& options)
    : database_(Settings::from(options)), warnings_(options) {}

std::string SqliteDriver::serverVersion() { return std::string("SQLite ") + sqlite3_libversion(); }

std::vector<sdk::ColumnInfo> SqliteDriver::describeTable(const sdk::TableName& table) {
    database_.beginCall();
    return description(table, true);
}

void SqliteDriver::readDiffgenPage(const sdk::PageRequest& request, sdk::EventPage& page) {
    database_.beginCall();
    sqlite::readDiffgenPage(database_, request, page, warnings_);
}

std::optional<int64_t> SqliteDriver::maxDiffgenId(const sdk::TableName& diffgen) {
    database_.beginCall();
    return sqlite::maxDiffgenId(database_, diffgen);
}

void SqliteDriver::fetchRows(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    database_.beginCall();
    SelectPlan select = plan(request.table, request.columns, request.keyColumns);
    sqlite::fetchRows(database_, request.table, select, request.keys, rows, warnings_);
}

void SqliteDriver::scanTable(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    database_.beginCall();
    SelectPlan select = plan(request.table, request.columns, request.keyColumns);
    sqlite::scanTable(database_, request.table, select, request.batchRows, rows, warnings_);
}

sdk::HorizonState SqliteDriver::checkHorizon(const TdgHorizonMark& mark, TdgHorizonMark& next) {
    next = mark;
    return sqlite::checkHorizon(mark);
}

void SqliteDriver::cancel() { database_.interrupt(); }

SelectPlan SqliteDriver::plan(const sdk::TableName& table,
                              const std::vector<std::string_view>& columns,
                              const std::vector<std::string_view>& keyColumns) {
    const auto* described = &description(table, false);
    if (!describesAll(*described, columns, keyColumns)) described = &description(table, true);
    return planSelect(*described, table, columns, keyColumns);
}

const std::vector<sdk::ColumnInfo>& SqliteDriver::description(const sdk::TableName& table,
                                                              bool fresh) {
    CacheKey key{table.schema, table.name};
    auto found = descriptions_.find(key);
    if (found != descriptions_.end() && !fresh) return found->second;
    std::vector<sdk::ColumnInfo> read = sqlite::describeTable(database_, table);
    return descriptions_.insert_or_assign(key, std::move(read)).first->second;
}

}  // namespace tapdiffgen::sqlite

TAP_DIFFGEN_EXPORT_DRIVER(tapdiffgen::sqlite::SqliteDriver, "sqlite",
                          TAP_DIFFGEN_ALIASES("sqlite3"), TAP_DIFFGEN_SDK_VERSION,
                          "SQLite 3 database files via libsqlite3 (read-only)")
