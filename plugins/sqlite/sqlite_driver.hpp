// SqliteDriver: the IDialectDriver of the SQLite plugin. One instance is one read-only
// connection to one database file; it keeps the table descriptions row reads need for their
// column kinds.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "column_plan.hpp"
#include "database.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"
#include "value_warnings.hpp"

namespace tapdiffgen::sqlite {

class SqliteDriver : public sdk::IDialectDriver {
public:
    explicit SqliteDriver(const sdk::ConnectOptions& options);

    std::string serverVersion() override;
    std::vector<sdk::ColumnInfo> describeTable(const sdk::TableName& table) override;
    void readDiffgenPage(const sdk::PageRequest& request, sdk::EventPage& page) override;
    std::optional<int64_t> maxDiffgenId(const sdk::TableName& diffgen) override;
    void fetchRows(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) override;
    void scanTable(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) override;
    sdk::HorizonState checkHorizon(const TdgHorizonMark& mark, TdgHorizonMark& next) override;
    void cancel() override;

private:
    using CacheKey = std::pair<std::optional<std::string>, std::string>;

    /// The plan for reading `columns`, from the cached description unless it lacks a column.
    SelectPlan plan(const sdk::TableName& table, const std::vector<std::string_view>& columns,
                    const std::vector<std::string_view>& keyColumns);
    const std::vector<sdk::ColumnInfo>& description(const sdk::TableName& table, bool fresh);

    Database database_;
    ValueWarnings warnings_;
    std::map<CacheKey, std::vector<sdk::ColumnInfo>> descriptions_;
};

}  // namespace tapdiffgen::sqlite
