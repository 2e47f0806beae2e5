// A row read that found its table no longer as the stream describes it: a cell of another kind,
// a number with more decimals than its column's scale, the plugin's TDG_TABLE_CHANGED, or a
// failure that a change may explain (a column the database no longer knows). The emitter then
// describes the table again (SchemaWatch): a change is applied and the read repeated with the new
// columns; no change means the failure was the run's own, and it is thrown as it came.
#pragma once

#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

#include "catalog/stream_change.hpp"
#include "plugin/dialect_connection.hpp"
#include "replay/output/record_renderer.hpp"

namespace tapdiffgen::core {

/// A failure of a read that a change of its table may explain: the plugin says the table
/// changed, or the failure is neither a lost connection (retryable) nor a cancellation.
inline bool mayMeanTableChanged(const DialectError& failure) {
    return failure.status() == TDG_TABLE_CHANGED ||
           (!failure.retryable() && failure.status() != TDG_CANCELLED);
}

/// Not a DialectError, so that a session that reads for others (SessionWorker) hands it back
/// rather than counting it as its own failure.
class TableChanged : public std::runtime_error {
public:
    /// The plugin's failure.
    explicit TableChanged(const DialectError& failure)
        : std::runtime_error(failure.what()), failure_(failure) {}
    /// A row that did not fit (RecordRenderer::misfit): `what` names the table and the column.
    explicit TableChanged(const std::string& what) : std::runtime_error(what) {}

    /// Thrown when describing the table again shows no change: the plugin's failure as it came,
    /// or, for a row that did not fit a table that did not change, the plugin's fault.
    [[noreturn]] void rethrowAsFailure() const {
        if (failure_) throw *failure_;
        throw SchemaChangeError(std::string(what()) +
                                ", yet the table's description has not changed: the dialect "
                                "plugin sent a value its own description does not allow");
    }

private:
    std::optional<DialectError> failure_;
};

/// A row that does not fit its columns as `renderer` describes them comes from a table that
/// changed after it was described: TableChanged naming the table and the column.
inline void throwIfMisfit(const RecordRenderer& renderer, const std::string& tableName,
                          const TdgCell* cells) {
    if (const size_t column = renderer.misfit(cells); column != RecordRenderer::npos) {
        throw TableChanged("table '" + tableName + "': " + renderer.misfitText(cells, column));
    }
}

}  // namespace tapdiffgen::core
