// SqliteDriver: the IDialectDriver of the SQLite plugin. One instance is one read-only
// connection to one database file; it keeps the table descriptions row reads need for their
// column kinds.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "column_plan.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/driver_base.hpp"
#include "tap-diffgen/sdk/table_cache.hpp"
#include "tap-diffgen/sdk/unrepresentable.hpp"

namespace tapdiffgen::sqlite {

class SqliteDriver final : public sdk::DriverBase {
public:
    SqliteDriver(const sdk::ConnectOptions& options, sdk::HostLog log);

protected:
    std::string serverVersionImpl() override;
    std::vector<sdk::ColumnInfo> describeTableImpl(const sdk::TableName& table) override;
    void readDiffgenPageImpl(const sdk::PageRequest& request, sdk::EventPage& page) override;
    std::optional<int64_t> maxDiffgenIdImpl(const sdk::TableName& diffgen) override;
    void fetchRowsImpl(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) override;
    void scanTableImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) override;
    void scanChunkImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) override;
    std::optional<int64_t> estimateRowsImpl(const sdk::TableName& table) override;
    sdk::HorizonState checkHorizonImpl(const TdgHorizonMark& mark, TdgHorizonMark& next) override;
    void cancelImpl() override;
    std::optional<sdk::JournalBounds> journalBoundsImpl(const sdk::TableName& diffgen) override;
    std::optional<sdk::JournalInspection> inspectJournalImpl(
        const sdk::JournalRequest& request) override;

private:
    /// The plan for reading `columns`, from the cached description unless it lacks a column.
    SelectPlan plan(const sdk::TableName& table, const std::vector<std::string_view>& columns,
                    const std::vector<std::string_view>& keyColumns);

    Session database_;
    sdk::UnrepresentableValues warnings_;
    sdk::TableCache<std::vector<sdk::ColumnInfo>> descriptions_;
};

}  // namespace tapdiffgen::sqlite
