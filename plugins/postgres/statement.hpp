// Running SQL on a Session: every value bound as a text parameter ($1..$n), results in text
// format (exact for every type) unless a statement of the plugin's own asks for binary
// (binary_values.hpp). execute() buffers a small result; RowStream reads a large one row by row
// (libpq single-row mode), so memory never depends on the result's size.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session.hpp"
#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::postgres {

/// Bound parameters: text values (nullopt = SQL NULL) and optional type OIDs (0 = inferred).
struct Params {
    std::vector<std::optional<std::string>> values;
    std::vector<Oid> types;

    Params& add(std::optional<std::string> value, Oid type = 0);
};

/// The format every column of a result comes in (libpq's resultFormat codes).
enum class ResultFormat { Text = 0, Binary = 1 };

/// Params as the parallel arrays libpq wants, pointing into the Params.
struct RawParams {
    std::vector<const char*> values;
    std::vector<Oid> types;

    explicit RawParams(const Params& params);
    int count() const { return static_cast<int>(values.size()); }
};

/// PQsendQueryParams with text results; false when libpq refused (PQerrorMessage says why).
bool sendQuery(PGconn* connection, const std::string& sql, const Params& params);
/// PQsendPrepare of `sql` as `name` (in pipeline mode, before the statement that runs it).
bool sendParse(PGconn* connection, const std::string& name, const std::string& sql,
               const Params& params);
/// PQsendQueryPrepared of the statement prepared as `name`, with text results.
bool sendPrepared(PGconn* connection, const std::string& name, const Params& params);

/// `value` as an SQL string literal (PQescapeLiteral: quotes doubled, backslashes escaped), for
/// a value the planner must see as a constant. Throws DriverError naming `context` when libpq
/// cannot escape it (bytes that are not valid in the session's encoding).
std::string quoteLiteral(PGconn* connection, std::string_view value, const std::string& context);

/// `table` as SQL: its name, schema-qualified when it has a schema, each part quoted.
std::string tableSql(const sdk::TableName& table);

/// The error of a failed statement (`result` may be null), naming `context`. For a statement
/// run under `name` (empty: unnamed) the session's NamedStatements learns of it first.
sdk::DriverError statementError(Session& session, PGconn* connection, const PGresult* result,
                                const std::string& name, const std::string& context);

/// One cell of a result: its text, or its bytes in binary format.
std::string_view cellText(const PGresult* result, int row, int column);

/// The column type OIDs of a result.
std::vector<Oid> columnTypesOf(const PGresult* result);

/// Reads and frees the rest of the current statement's results, up to libpq's NULL.
void discardResults(PGconn* connection) noexcept;

struct ResultDeleter {
    void operator()(PGresult* result) const { PQclear(result); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;

/// A complete, successful result.
class Result {
public:
    explicit Result(ResultPtr result) : result_(std::move(result)) {}
    int rows() const { return PQntuples(result_.get()); }
    bool isNull(int row, int column) const { return PQgetisnull(result_.get(), row, column); }
    std::string_view value(int row, int column) const;
    std::optional<std::string_view> optional(int row, int column) const;

private:
    ResultPtr result_;
};

/// Runs one statement and returns its whole result; throws DriverError naming `context`.
Result execute(Session& session, const std::string& sql, const Params& params,
               const std::string& context, ResultFormat format = ResultFormat::Text);

/// Streams one statement's rows. Abandoning it early (an exception while reading) cancels the
/// statement and drains the connection, so the session stays usable and idle.
class RowStream {
public:
    /// A `reusable` statement runs under the session's name for it (prepared on first use)
    /// while the session keeps named statements.
    RowStream(Session& session, const std::string& sql, const Params& params, std::string context,
              bool reusable = false);
    ~RowStream();
    RowStream(const RowStream&) = delete;
    RowStream& operator=(const RowStream&) = delete;

    /// Advances to the next row; false at the end. Throws DriverError on failure.
    bool next();
    /// Column type OIDs of the result, known after the first next().
    const std::vector<Oid>& columnTypes() const { return types_; }
    bool isNull(int column) const { return PQgetisnull(row_.get(), 0, column); }
    std::string_view value(int column) const;

private:
    bool prepare(const std::string& sql, const Params& params);
    void drain() noexcept;

    Session& session_;
    PGconn* connection_;
    std::string context_;
    std::string name_;        // empty: unnamed
    ResultPtr parseFailure_;  // the Parse's error, reported by next()
    ResultPtr row_;
    std::vector<Oid> types_;
    bool done_ = false;
};

}  // namespace tapdiffgen::postgres
