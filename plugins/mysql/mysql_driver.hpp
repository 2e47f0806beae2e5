// The MySQL / MariaDB dialect: one instance is one connection (see IDialectDriver).
#pragma once

#include "catalog.hpp"
#include "diffgen.hpp"
#include "row_reader.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"

namespace tapdiffgen::mysql {

class MysqlDriver final : public sdk::IDialectDriver {
public:
    explicit MysqlDriver(const sdk::ConnectOptions& options);

    std::string serverVersion() override;
    std::vector<sdk::ColumnInfo> describeTable(const sdk::TableName& table) override;
    void readDiffgenPage(const sdk::PageRequest& request, sdk::EventPage& page) override;
    std::optional<int64_t> maxDiffgenId(const sdk::TableName& diffgen) override;
    void fetchRows(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) override;
    void scanTable(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) override;
    sdk::HorizonState checkHorizon(const TdgHorizonMark& mark, TdgHorizonMark& next) override;
    void cancel() override;

private:
    Session session_;
    Catalog catalog_;
    DiffgenLog diffgen_;
    RowReader rows_;
};

/// "MariaDB 10.11.6" from "10.11.6-MariaDB-0+deb12u1", "MySQL 8.0.36" from "8.0.36".
std::string displayVersion(const std::string& serverInfo);

}  // namespace tapdiffgen::mysql
