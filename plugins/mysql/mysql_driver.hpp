// The MySQL / MariaDB dialect: one instance is one connection (see IDialectDriver).
#pragma once

#include "catalog.hpp"
#include "diffgen.hpp"
#include "row_reader.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/digested_descriptions.hpp"
#include "tap-diffgen/sdk/driver_base.hpp"

namespace tapdiffgen::mysql {

class MysqlDriver final : public sdk::DriverBase {
public:
    MysqlDriver(const sdk::ConnectOptions& options, sdk::HostLog log);
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
    void cancelImpl() override;
    std::optional<sdk::JournalBounds> journalBoundsImpl(const sdk::TableName& diffgen) override;
    std::optional<sdk::JournalInspection> inspectJournalImpl(
        const sdk::JournalRequest& request) override;

private:
    Session session_;
    Catalog catalog_;
    DiffgenLog diffgen_;
    RowReader rows_;
    sdk::DigestedDescriptions described_;
};

/// "MariaDB 10.11.6" from "10.11.6-MariaDB-0+deb12u1", "MySQL 8.0.36" from "8.0.36".
std::string displayVersion(const std::string& serverInfo);

}  // namespace tapdiffgen::mysql
