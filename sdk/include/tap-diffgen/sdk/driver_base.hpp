// DriverBase: the author's framework around IDialectDriver, in the manner of ADBC's C++ driver
// framework. Its public members are the entry points the export trampolines call; they are
// final and do what every driver must do around a call — start it (forget a cancel aimed at an
// earlier call), check the request, skip work that has nothing to do — and then call the
// protected virtual *Impl hook a driver overrides. A driver derived from it writes only SQL and
// value conversion; cancellation, the request checks and the hooks' defaults live here once.
//
//     class MyDriver : public tapdiffgen::sdk::DriverBase {
//     public:
//         MyDriver(const ConnectOptions& options) { ... open the session ... }
//     protected:
//         std::string serverVersionImpl() override;
//         ...
//     };
//
// Since SDK 0.2.0 (IDialectDriver stays for drivers that want none of this).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tap-diffgen/sdk/call_cancel.hpp"
#include "tap-diffgen/sdk/declared_settings.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"

namespace tapdiffgen::sdk {

class DriverBase : public IDialectDriver {
public:
    /// The settings this driver adds to the tap's configuration: none. A driver that has some
    /// declares its own static declaredSettings(), which hides this one; the export macro
    /// publishes them and connect() checks the options against them before the constructor
    /// runs.
    static const DeclaredSettings& declaredSettings() {
        static const DeclaredSettings none;
        return none;
    }

    std::string serverVersion() final {
        beginCall();
        return serverVersionImpl();
    }
    std::vector<ColumnInfo> describeTable(const TableName& table) final {
        beginCall();
        return describeTableImpl(table);
    }
    std::vector<std::vector<ColumnInfo>> describeTables(
        const std::vector<TableName>& tables) final {
        beginCall();
        return describeTablesImpl(tables);
    }
    void readDiffgenPage(const PageRequest& request, EventPage& page) final {
        beginCall();
        readDiffgenPageImpl(request, page);
    }
    std::optional<int64_t> maxDiffgenId(const TableName& diffgen) final {
        beginCall();
        return maxDiffgenIdImpl(diffgen);
    }
    /// A request without keys reads nothing and never reaches the hook.
    void fetchRows(const FetchRequest& request, RowBatchBuilder& rows) final {
        beginCall();
        if (request.keys.empty()) return;
        rows.stopOn(&cancel_);
        fetchRowsImpl(request, rows);
    }
    void fetchRowsMany(const std::vector<FetchRequest>& requests,
                       const std::vector<RowBatchBuilder*>& rows) final {
        beginCall();
        for (RowBatchBuilder* builder : rows) builder->stopOn(&cancel_);
        fetchRowsManyImpl(requests, rows);
    }
    void scanTable(const ScanRequest& request, RowBatchBuilder& rows) final {
        beginCall();
        rows.stopOn(&cancel_);
        scanTableImpl(request, rows);
    }
    HorizonState checkHorizon(const TdgHorizonMark& mark, TdgHorizonMark& next) final {
        beginCall();
        return checkHorizonImpl(mark, next);
    }
    std::optional<bool> waitForChange(int64_t timeoutMs) final {
        beginCall();
        return waitForChangeImpl(timeoutMs);
    }
    /// Any thread: records the request for the running call, then lets the driver interrupt
    /// its client (cancelImpl).
    void cancel() final {
        cancel_.request();
        cancelImpl();
    }
    std::optional<JournalBounds> journalBounds(const TableName& diffgen) final {
        beginCall();
        return journalBoundsImpl(diffgen);
    }
    std::optional<JournalInspection> inspectJournal(const JournalRequest& request) final {
        beginCall();
        return inspectJournalImpl(request);
    }

protected:
    virtual std::string serverVersionImpl() = 0;
    /// Columns in ordinal order; notFound("table 'x' does not exist") when missing.
    virtual std::vector<ColumnInfo> describeTableImpl(const TableName& table) = 0;
    /// Entry i for tables[i]; notFound naming the first missing table. Default: one
    /// describeTableImpl after the other (fine for an in-process database; a server dialect
    /// answers in a bounded number of statements).
    virtual std::vector<std::vector<ColumnInfo>> describeTablesImpl(
        const std::vector<TableName>& tables) {
        return describeEach(tables,
                            [this](const TableName& table) { return describeTableImpl(table); });
    }
    virtual void readDiffgenPageImpl(const PageRequest& request, EventPage& page) = 0;
    virtual std::optional<int64_t> maxDiffgenIdImpl(const TableName& diffgen) = 0;
    /// Never called without keys.
    virtual void fetchRowsImpl(const FetchRequest& request, RowBatchBuilder& rows) = 0;
    /// Default: one fetchRowsImpl after the other (requests without keys skipped), each
    /// builder finished; a client that can pipeline statements overrides it.
    virtual void fetchRowsManyImpl(const std::vector<FetchRequest>& requests,
                                   const std::vector<RowBatchBuilder*>& rows) {
        fetchEach(requests, rows, [this](const FetchRequest& request, RowBatchBuilder& builder) {
            fetchRowsImpl(request, builder);
        });
    }
    virtual void scanTableImpl(const ScanRequest& request, RowBatchBuilder& rows) = 0;
    /// Default: not supported (the engine falls back to its settle time).
    virtual HorizonState checkHorizonImpl(const TdgHorizonMark& mark, TdgHorizonMark& next) {
        return IDialectDriver::checkHorizon(mark, next);
    }
    /// Default: nothing to wait on (nullopt); the host polls.
    virtual std::optional<bool> waitForChangeImpl(int64_t timeoutMs) {
        return IDialectDriver::waitForChange(timeoutMs);
    }
    /// Interrupts the client's running statement, if it can (called after the request is
    /// recorded). Default: nothing; the driver's loops look at cancelRequested().
    virtual void cancelImpl() {}
    /// min(id), max(id) and the id source's next id of the whole log, in one statement.
    /// Default: not supported.
    virtual std::optional<JournalBounds> journalBoundsImpl(const TableName& diffgen) {
        return IDialectDriver::journalBounds(diffgen);
    }
    /// The id source and its cache, each table's partitions and foreign keys whose actions
    /// bypass triggers, and (request.includeTriggers) its journal triggers, in a bounded
    /// number of statements. Default: not supported.
    virtual std::optional<JournalInspection> inspectJournalImpl(const JournalRequest& request) {
        return IDialectDriver::inspectJournal(request);
    }

    /// The running call's cancel request, for the driver's loops and sessions.
    const CallCancel& callCancel() const { return cancel_; }

private:
    void beginCall() { cancel_.reset(); }

    CallCancel cancel_;
};

}  // namespace tapdiffgen::sdk
