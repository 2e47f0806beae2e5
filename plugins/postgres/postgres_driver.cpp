#include "postgres_driver.hpp"

#include "catalog.hpp"
#include "diffgen.hpp"
#include "journal.hpp"
#include "row_reader.hpp"
#include "settings.hpp"
#include "tap-diffgen/sdk/export.hpp"

namespace tapdiffgen::postgres {

const sdk::DeclaredSettings& PostgresDriver::declaredSettings() { return pluginSettings(); }

PostgresDriver::PostgresDriver(const sdk::ConnectOptions& options, sdk::HostLog log)
    : session_(options, std::move(log), callCancel()),
      descriptions_(
          [this](const sdk::TableName& table) { return postgres::describeTable(session_, table); }),
      pageReader_([this](const sdk::PageRequest& request,
                         sdk::EventPage& page) { readDiffgenPagePlain(session_, request, page); },
                  [this](const sdk::PageRequest& request, sdk::EventPage& page) {
                      postgres::readDiffgenPage(session_, request, page);
                  }),
      listener_(session_, options.get("notify_channel")) {}

std::optional<bool> PostgresDriver::waitForChangeImpl(int64_t timeoutMs) {
    return listener_.wait(timeoutMs);
}

Describer PostgresDriver::describerOf(const sdk::TableName& table) {
    return [this, &table](bool fresh) -> const TableDescription& {
        return descriptions_.get(table, fresh);
    };
}

std::string PostgresDriver::serverVersionImpl() {
    return "PostgreSQL " + session_.serverVersionText();
}

std::vector<sdk::ColumnInfo> PostgresDriver::describeTableImpl(const sdk::TableName& table) {
    std::vector<sdk::ColumnInfo> columns;
    for (const PgColumn& column : descriptions_.get(table, true).columns) {
        columns.push_back(column.info);
    }
    return columns;
}

// The host describes the tables of every page it reads, to notice a migration: one statement
// of digests, and a description only of the tables whose digest changed (DigestedDescriptions).
std::vector<std::vector<sdk::ColumnInfo>> PostgresDriver::describeTablesImpl(
    const std::vector<sdk::TableName>& tables) {
    return described_.describe(
        tables, columnDigests(session_, tables),
        [this](const std::vector<sdk::TableName>& changed) {
            // A table that does not exist is NOT_FOUND here, naming it.
            std::vector<TableDescription> read = postgres::describeTables(session_, changed);
            std::vector<std::vector<sdk::ColumnInfo>> described;
            for (size_t i = 0; i < changed.size(); ++i) {
                auto& columns = described.emplace_back();
                for (const PgColumn& column :
                     descriptions_.put(changed[i], std::move(read[i])).columns) {
                    columns.push_back(column.info);
                }
            }
            return described;
        });
}

void PostgresDriver::readDiffgenPageImpl(const sdk::PageRequest& request, sdk::EventPage& page) {
    pageReader_.read(request, page);
}

std::optional<int64_t> PostgresDriver::maxDiffgenIdImpl(const sdk::TableName& diffgen) {
    return postgres::maxDiffgenId(session_, diffgen);
}

void PostgresDriver::fetchRowsImpl(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    postgres::fetchRows(session_, describerOf(request.table), request, rows);
}

void PostgresDriver::fetchRowsManyImpl(const std::vector<sdk::FetchRequest>& requests,
                                       const std::vector<sdk::RowBatchBuilder*>& rows) {
    postgres::fetchRowsMany(
        session_,
        [this](const sdk::TableName& table, bool fresh) -> const TableDescription& {
            return descriptions_.get(table, fresh);
        },
        requests, rows);
}

void PostgresDriver::scanTableImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    postgres::scanTable(session_, describerOf(request.table), request, rows);
}

void PostgresDriver::scanChunkImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    postgres::scanChunk(session_, describerOf(request.table), request, rows);
}

std::optional<int64_t> PostgresDriver::estimateRowsImpl(const sdk::TableName& table) {
    return postgres::estimateRows(session_, table);
}

sdk::HorizonState PostgresDriver::checkHorizonImpl(const TdgHorizonMark& mark,
                                                   TdgHorizonMark& next) {
    return postgres::checkHorizon(session_, mark, next);
}

void PostgresDriver::cancelImpl() { session_.interrupt(); }

std::optional<sdk::JournalBounds> PostgresDriver::journalBoundsImpl(const sdk::TableName& diffgen) {
    return postgres::journalBounds(session_, diffgen);
}

std::optional<sdk::JournalInspection> PostgresDriver::inspectJournalImpl(
    const sdk::JournalRequest& request) {
    return postgres::inspectJournal(session_, request);
}

}  // namespace tapdiffgen::postgres

TAP_DIFFGEN_EXPORT_DRIVER(tapdiffgen::postgres::PostgresDriver, "postgres",
                          TAP_DIFFGEN_ALIASES("postgresql"), TAP_DIFFGEN_SDK_VERSION,
                          "PostgreSQL 10+ via libpq")
