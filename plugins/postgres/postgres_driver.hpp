// PostgresDriver: the IDialectDriver of the PostgreSQL plugin. One instance is one libpq
// session; it keeps the table descriptions that row reads need for their key types.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog.hpp"
#include "notifications.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"
#include "tap-diffgen/sdk/gapless_page_reader.hpp"

namespace tapdiffgen::postgres {

class PostgresDriver : public sdk::IDialectDriver {
public:
    explicit PostgresDriver(const sdk::ConnectOptions& options);

    std::string serverVersion() override;
    std::vector<sdk::ColumnInfo> describeTable(const sdk::TableName& table) override;
    void readDiffgenPage(const sdk::PageRequest& request, sdk::EventPage& page) override;
    std::optional<int64_t> maxDiffgenId(const sdk::TableName& diffgen) override;
    void fetchRows(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) override;
    void fetchRowsMany(const std::vector<sdk::FetchRequest>& requests,
                       const std::vector<sdk::RowBatchBuilder*>& rows) override;
    void scanTable(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) override;
    sdk::HorizonState checkHorizon(const TdgHorizonMark& mark, TdgHorizonMark& next) override;
    std::optional<bool> waitForChange(int64_t timeoutMs) override;
    void cancel() override;

private:
    using CacheKey = std::pair<std::optional<std::string>, std::string>;

    /// The cached description of `table`, read from the catalog when absent or `fresh`.
    const TableDescription& description(const sdk::TableName& table, bool fresh);
    /// Starts a call: a cancel() aimed at an earlier call must not stop this one.
    Session& begin();

    Session session_;
    std::map<CacheKey, TableDescription> descriptions_;
    sdk::GaplessPageReader pageReader_;
    ChangeListener listener_;
};

}  // namespace tapdiffgen::postgres
