// A stand-in for the postgres plugin as the loader sees it: file tap-diffgen-dialect-postgres.so,
// canonical name "postgres", alias "postgresql". It never connects; the loader tests only need
// a valid info block and function table in directories they control.
#include "tap-diffgen/sdk/export.hpp"

namespace {

using namespace tapdiffgen::sdk;

class AliasDriver : public IDialectDriver {
public:
    explicit AliasDriver(const ConnectOptions&) {
        throw DriverError(TDG_IO, "the loader test plugin has no database");
    }
    std::string serverVersion() override { return {}; }
    std::vector<ColumnInfo> describeTable(const TableName&) override { return {}; }
    void readDiffgenPage(const PageRequest&, EventPage&) override {}
    std::optional<int64_t> maxDiffgenId(const TableName&) override { return std::nullopt; }
    void fetchRows(const FetchRequest&, RowBatchBuilder&) override {}
    void scanTable(const ScanRequest&, RowBatchBuilder&) override {}
};

}  // namespace

TAP_DIFFGEN_EXPORT_DRIVER(AliasDriver, "postgres", TAP_DIFFGEN_ALIASES("postgresql"), "9.8.7",
                          "loader test double for postgres")
