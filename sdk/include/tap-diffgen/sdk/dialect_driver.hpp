// IDialectDriver: the C++ face of the dialect ABI for plugin authors. Derive from it, give the
// class a constructor taking `const ConnectOptions&` that opens the connection, and export it
// with TAP_DIFFGEN_EXPORT_DRIVER (export.hpp). One instance is one connection.
//
// Every member may throw: DriverError carries its status, SQLSTATE and retryable flag across;
// any other exception becomes TDG_INTERNAL (std::exception) or TDG_UNKNOWN with its what().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/event_page.hpp"
#include "tap-diffgen/sdk/journal_facts.hpp"
#include "tap-diffgen/sdk/row_batch_builder.hpp"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

/// Outcome of checkHorizon; see TdgDriver.check_horizon.
enum class HorizonState { Pending, Final };

class IDialectDriver {
public:
    virtual ~IDialectDriver() = default;

    /// "PostgreSQL 15.18".
    virtual std::string serverVersion() = 0;

    /// Columns in ordinal order; throw notFound("table 'x' does not exist") when missing.
    virtual std::vector<ColumnInfo> describeTable(const TableName& table) = 0;

    /// describeTable for several tables (TdgDriver.describe_tables): entry i for tables[i].
    /// Default: one describeTable after the other; a dialect over a network overrides it with
    /// a bounded number of statements.
    virtual std::vector<std::vector<ColumnInfo>> describeTables(
        const std::vector<TableName>& tables) {
        return describeEach(tables,
                            [this](const TableName& table) { return describeTable(table); });
    }

    /// Fills `page` with events after request.afterId (see TdgPageRequest / TdgEventPage).
    virtual void readDiffgenPage(const PageRequest& request, EventPage& page) = 0;

    /// Highest diffgen id of any table, nullopt when the log is empty.
    virtual std::optional<int64_t> maxDiffgenId(const TableName& diffgen) = 0;

    /// Current rows for request.keys, added to `rows` (one cell per requested column).
    virtual void fetchRows(const FetchRequest& request, RowBatchBuilder& rows) = 0;

    /// fetchRows for several requests (TdgDriver.fetch_rows_many): request i's rows to
    /// *rows[i], in request order, each builder finished (RowBatchBuilder::finish) when its
    /// request is done. Default: one fetchRows after the other; a dialect whose client can
    /// pipeline statements overrides it, so that the server does not wait for the host between
    /// them.
    virtual void fetchRowsMany(const std::vector<FetchRequest>& requests,
                               const std::vector<RowBatchBuilder*>& rows) {
        fetchEach(requests, rows, [this](const FetchRequest& request, RowBatchBuilder& builder) {
            fetchRows(request, builder);
        });
    }

    /// Waits up to timeoutMs for a sign that a change was committed (TdgDriver.wait_for_change):
    /// true when one came, false on time-out or when a signal interrupted the wait. nullopt
    /// (the default) when the connection has nothing to wait on; the host then polls.
    virtual std::optional<bool> waitForChange(int64_t timeoutMs) {
        (void)timeoutMs;
        return std::nullopt;
    }

    /// Every current row of the table, in bounded memory.
    virtual void scanTable(const ScanRequest& request, RowBatchBuilder& rows) = 0;

    /// Default: not supported (the engine falls back to its settle time).
    virtual HorizonState checkHorizon(const TdgHorizonMark& mark, TdgHorizonMark& next) {
        (void)mark;
        (void)next;
        throw notImplemented("this dialect cannot tell whether diffgen gaps are final");
    }

    /// Called from another thread to interrupt a running call. Default: nothing to do.
    virtual void cancel() {}

    /// The log's bounds (TdgDriver.journal_bounds, ABI revision 5). Default: nullopt, the
    /// dialect cannot read them (the host then cannot notice a pruned or reset journal).
    virtual std::optional<JournalBounds> journalBounds(const TableName& diffgen) {
        (void)diffgen;
        return std::nullopt;
    }

    /// What the catalog says of the configured tables' journalling (TdgDriver.inspect_journal,
    /// ABI revision 5): tables[i] answers for request.tables[i]. Default: nullopt, the dialect
    /// cannot tell (the host then skips these checks).
    virtual std::optional<JournalInspection> inspectJournal(const JournalRequest& request) {
        (void)request;
        return std::nullopt;
    }

protected:
    // The defaults of the several-at-once calls, written once: IDialectDriver's call the
    // public members, DriverBase's (driver_base.hpp) call its *Impl hooks.

    /// `describe` for each table in turn.
    template <typename Describe>
    static std::vector<std::vector<ColumnInfo>> describeEach(const std::vector<TableName>& tables,
                                                             Describe&& describe) {
        std::vector<std::vector<ColumnInfo>> described;
        described.reserve(tables.size());
        for (const auto& table : tables) described.push_back(describe(table));
        return described;
    }

    /// `fetch` for each request that has keys (one without reads nothing), each builder
    /// finished when its request is done.
    template <typename Fetch>
    static void fetchEach(const std::vector<FetchRequest>& requests,
                          const std::vector<RowBatchBuilder*>& rows, Fetch&& fetch) {
        for (size_t i = 0; i < requests.size(); ++i) {
            if (!requests[i].keys.empty()) fetch(requests[i], *rows[i]);
            rows[i]->finish();
        }
    }
};

}  // namespace tapdiffgen::sdk
