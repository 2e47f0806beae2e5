// PostgresDriver: the IDialectDriver of the PostgreSQL plugin. One instance is one libpq
// session; it keeps the table descriptions that row reads need for their key types.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "notifications.hpp"
#include "row_reader.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/digested_descriptions.hpp"
#include "tap-diffgen/sdk/driver_base.hpp"
#include "tap-diffgen/sdk/gapless_page_reader.hpp"
#include "tap-diffgen/sdk/table_cache.hpp"

namespace tapdiffgen::postgres {

class PostgresDriver final : public sdk::DriverBase {
public:
    PostgresDriver(const sdk::ConnectOptions& options, sdk::HostLog log);
    static const sdk::DeclaredSettings& declaredSettings();

protected:
    std::string serverVersionImpl() override;
    std::vector<sdk::ColumnInfo> describeTableImpl(const sdk::TableName& table) override;
    std::vector<std::vector<sdk::ColumnInfo>> describeTablesImpl(
        const std::vector<sdk::TableName>& tables) override;
    void readDiffgenPageImpl(const sdk::PageRequest& request, sdk::EventPage& page) override;
    std::optional<int64_t> maxDiffgenIdImpl(const sdk::TableName& diffgen) override;
    void fetchRowsImpl(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) override;
    void fetchRowsManyImpl(const std::vector<sdk::FetchRequest>& requests,
                           const std::vector<sdk::RowBatchBuilder*>& rows) override;
    void scanTableImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) override;
    void scanChunkImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) override;
    std::optional<int64_t> estimateRowsImpl(const sdk::TableName& table) override;
    sdk::HorizonState checkHorizonImpl(const TdgHorizonMark& mark, TdgHorizonMark& next) override;
    std::optional<bool> waitForChangeImpl(int64_t timeoutMs) override;
    void cancelImpl() override;
    std::optional<sdk::JournalBounds> journalBoundsImpl(const sdk::TableName& diffgen) override;
    std::optional<sdk::JournalInspection> inspectJournalImpl(
        const sdk::JournalRequest& request) override;

private:
    /// The table's description, from the cache unless `fresh` (a read found it stale).
    Describer describerOf(const sdk::TableName& table);

    Session session_;
    sdk::TableCache<TableDescription> descriptions_;
    sdk::DigestedDescriptions described_;
    sdk::GaplessPageReader pageReader_;
    ChangeListener listener_;
};

}  // namespace tapdiffgen::postgres
