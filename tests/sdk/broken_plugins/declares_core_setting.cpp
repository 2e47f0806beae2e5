// Declares "host", a setting of the tap itself: the loader must refuse the plugin rather than
// let it shadow or be shadowed by the tap's own setting.
#include "tap-diffgen/sdk/driver_base.hpp"
#include "tap-diffgen/sdk/export.hpp"

namespace {

using namespace tapdiffgen::sdk;

class CoreSettingDriver final : public DriverBase {
public:
    explicit CoreSettingDriver(const ConnectOptions&) {}
    static const DeclaredSettings& declaredSettings() {
        static const DeclaredSettings settings(
            {Setting("host", SettingType::String, "The tap's own host, declared again.")});
        return settings;
    }

protected:
    std::string serverVersionImpl() override { throw notImplemented("broken on purpose"); }
    std::vector<ColumnInfo> describeTableImpl(const TableName&) override { return {}; }
    void readDiffgenPageImpl(const PageRequest&, EventPage&) override {}
    std::optional<int64_t> maxDiffgenIdImpl(const TableName&) override { return std::nullopt; }
    void fetchRowsImpl(const FetchRequest&, RowBatchBuilder&) override {}
    void scanTableImpl(const ScanRequest&, RowBatchBuilder&) override {}
};

}  // namespace

TAP_DIFFGEN_EXPORT_DRIVER(CoreSettingDriver, "coresetting", TAP_DIFFGEN_NO_ALIASES, "0.0.1",
                          "declares a setting of the tap")
