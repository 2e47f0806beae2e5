// A read that found its table no longer as its stream describes it: the plugin's
// TDG_TABLE_CHANGED, a failure that a change may explain (a column the database no longer
// knows), or a row that does not fit (replay/output/table_change.hpp). The reader then describes
// the table again (SchemaWatch): a change is applied and the read repeated with the new columns;
// no change means the failure was the run's own, and it is thrown as it came. Here, at the
// bottom, so that the sessions that read for others hand it back without knowing the output.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "catalog/stream_change.hpp"
#include "plugin/dialect_connection.hpp"

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

}  // namespace tapdiffgen::core
