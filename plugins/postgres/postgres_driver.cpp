#include "postgres_driver.hpp"

#include "diffgen.hpp"
#include "row_reader.hpp"
#include "tap-diffgen/sdk/export.hpp"

namespace tapdiffgen::postgres {

PostgresDriver::PostgresDriver(const sdk::ConnectOptions& options)
    : session_(options),
      pageReader_([this](const sdk::PageRequest& request,
                         sdk::EventPage& page) { readDiffgenPagePlain(session_, request, page); },
                  [this](const sdk::PageRequest& request, sdk::EventPage& page) {
                      postgres::readDiffgenPage(session_, request, page);
                  }),
      listener_(session_, options.get("notify_channel")) {}

std::optional<bool> PostgresDriver::waitForChange(int64_t timeoutMs) {
    begin();
    return listener_.wait(timeoutMs);
}

Session& PostgresDriver::begin() {
    session_.clearCancelled();
    return session_;
}

std::string PostgresDriver::serverVersion() { return "PostgreSQL " + begin().serverVersionText(); }

std::vector<sdk::ColumnInfo> PostgresDriver::describeTable(const sdk::TableName& table) {
    begin();
    std::vector<sdk::ColumnInfo> columns;
    for (const PgColumn& column : description(table, true).columns) {
        columns.push_back(column.info);
    }
    return columns;
}

void PostgresDriver::readDiffgenPage(const sdk::PageRequest& request, sdk::EventPage& page) {
    begin();
    pageReader_.read(request, page);
}

std::optional<int64_t> PostgresDriver::maxDiffgenId(const sdk::TableName& diffgen) {
    return postgres::maxDiffgenId(begin(), diffgen);
}

void PostgresDriver::fetchRows(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    postgres::fetchRows(
        begin(),
        [&](bool fresh) -> const TableDescription& { return description(request.table, fresh); },
        request, rows);
}

void PostgresDriver::fetchRowsMany(const std::vector<sdk::FetchRequest>& requests,
                                   const std::vector<sdk::RowBatchBuilder*>& rows) {
    postgres::fetchRowsMany(
        begin(),
        [this](const sdk::TableName& table, bool fresh) -> const TableDescription& {
            return description(table, fresh);
        },
        requests, rows);
}

void PostgresDriver::scanTable(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    postgres::scanTable(
        begin(),
        [&](bool fresh) -> const TableDescription& { return description(request.table, fresh); },
        request, rows);
}

sdk::HorizonState PostgresDriver::checkHorizon(const TdgHorizonMark& mark, TdgHorizonMark& next) {
    return postgres::checkHorizon(begin(), mark, next);
}

void PostgresDriver::cancel() { session_.cancel(); }

const TableDescription& PostgresDriver::description(const sdk::TableName& table, bool fresh) {
    CacheKey key{table.schema, table.name};
    auto found = descriptions_.find(key);
    if (found != descriptions_.end() && !fresh) return found->second;
    if (found != descriptions_.end()) descriptions_.erase(found);
    TableDescription read = postgres::describeTable(session_, table);
    return descriptions_.insert_or_assign(key, std::move(read)).first->second;
}

}  // namespace tapdiffgen::postgres

TAP_DIFFGEN_EXPORT_DRIVER(tapdiffgen::postgres::PostgresDriver, "postgres",
                          TAP_DIFFGEN_ALIASES("postgresql"), TAP_DIFFGEN_SDK_VERSION,
                          "PostgreSQL 10+ via libpq")
