// The smallest complete dialect plugin: every call is wired through the SDK, and each one
// either answers "nothing here" or says it is not implemented yet. It loads, lists, and passes
// the ABI-level conformance cases, so a new dialect starts from something that already works
// and grows one method at a time (tap-diffgen-conformance tells which live case is next).
#include <optional>
#include <string>
#include <vector>

#include "tap-diffgen/sdk/driver_base.hpp"
#include "tap-diffgen/sdk/export.hpp"

#ifndef SKELETON_PLUGIN_VERSION
#define SKELETON_PLUGIN_VERSION "0.0.0"
#endif

namespace {

using namespace tapdiffgen::sdk;

class SkeletonDriver final : public DriverBase {
public:
    // Settings of the dialect's own, beyond the tap's host, port, user, password and database.
    // The tap validates them against these declarations (type, allowed values, bounds) before
    // connecting, lists them in --about, reads them from TAP_DIFFGEN_<NAME> under --config ENV
    // and hands them to the constructor as options; anything else is an unknown setting.
    static const DeclaredSettings& declaredSettings() {
        static const DeclaredSettings settings({
            Setting("rows_per_fetch", SettingType::Integer,
                    "Rows the skeleton asks its server for in one round trip.")
                .byDefault("1000")
                .atLeast(1)
                .atMost(100000),
        });
        return settings;
    }

    // Read and validate every setting before opening anything: a typo in the configuration
    // then fails as INVALID_ARGUMENT naming the key, not as a confusing network error.
    // Never put the password into a message.
    // The host's log comes apart from the settings: log through it, never print.
    SkeletonDriver(const ConnectOptions& options, HostLog log)
        : host_(options.get("host", "localhost")),
          port_(options.getInt("port", 0, 0, 65535)),
          rowsPerFetch_(options.getInt("rows_per_fetch", 1000)),
          log_(std::move(log)) {
        // Open the session here: read-only, autocommit, UTC, UTF-8. Throw
        // DriverError(TDG_UNAUTHENTICATED, ...) for a refused login, TDG_IO for a network
        // failure (retryable = true), so the tap can tell the user which one it was.
    }

protected:
    // DriverBase calls these hooks from its entry points, after it has started the call.
    std::string serverVersionImpl() override {
        throw notImplemented("skeleton: ask the server for its version");
    }

    std::vector<ColumnInfo> describeTableImpl(const TableName& table) override {
        // A missing table must be notFound naming it: the tap shows that message as is.
        throw notImplemented("skeleton: describe table '" + table.display() + "'");
    }

    // An empty page is a valid answer ("nothing after afterId"); the real one selects
    // after < id <= upTo for the requested table names, lowest ids first, at most `limit`.
    void readDiffgenPageImpl(const PageRequest& request, EventPage& page) override {
        (void)request;
        page.setRangeRowCount(-1);  // -1: cannot tell whether the range has gaps
    }

    // nullopt means "the log is empty", which is true of a skeleton.
    std::optional<int64_t> maxDiffgenIdImpl(const TableName& diffgen) override {
        (void)diffgen;
        return std::nullopt;
    }

    // No rows: every requested key is simply absent, which the ABI allows. A real driver
    // reads request.keyCount() keys of request.keyColumns.size() columns each (a composite
    // primary key has several; request.key(i, c) is key i's value for column c), all in as few
    // statements as its database plans well, and adds one row per key found, its cells in the
    // order of request.columns (request.columnKinds says the kind describeTable reported).
    void fetchRowsImpl(const FetchRequest& request, RowBatchBuilder& rows) override {
        (void)request;
        (void)rows;
    }

    // Every row in key order, in pages that each end the read they started: keyset pagination
    // on request.keyColumns (sdk/key_sql.hpp spells out "after this key" for composite keys).
    void scanTableImpl(const ScanRequest& request, RowBatchBuilder& rows) override {
        (void)request;
        (void)rows;
    }

    // checkHorizonImpl keeps the default (not supported) until the database can tell: the
    // tap then waits horizon_settle_seconds for every page whose id range has a gap, each
    // run (TdgHorizonMark in dialect_abi.h says how to build a mark). waitForChangeImpl keeps
    // it too (the tap polls), and cancelImpl the default no-op until there is a running
    // statement to interrupt: a real driver's cancelImpl interrupts it on the server, since
    // DriverBase only stops the row stream between batches; long loops look at
    // callCancel().requested().

private:
    std::string host_;
    long long port_;
    long long rowsPerFetch_;  // checked against its declaration before the constructor runs
    HostLog log_;
};

}  // namespace

TAP_DIFFGEN_EXPORT_DRIVER(SkeletonDriver, "skeleton", TAP_DIFFGEN_NO_ALIASES,
                          SKELETON_PLUGIN_VERSION, "a starting point for new dialects")
