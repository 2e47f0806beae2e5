#include "statement.hpp"

#include "errors.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace tapdiffgen::postgres {
Params& Params::add(std::optional<std::string> value, Oid type) {
    values.push_back(std::move(value));
    types.resize(values.size() - 1, 0);
    types.push_back(type);
    return *this;
}

RawParams::RawParams(const Params& params) : types(params.types) {
    values.reserve(params.values.size());
    for (const auto& value : params.values) values.push_back(value ? value->c_str() : nullptr);
    types.resize(values.size(), 0);
}

bool sendQuery(PGconn* connection, const std::string& sql, const Params& params) {
    RawParams raw(params);
    return PQsendQueryParams(connection, sql.c_str(), raw.count(), raw.types.data(),
                             raw.values.data(), nullptr, nullptr, 0) != 0;
}

bool sendParse(PGconn* connection, const std::string& name, const std::string& sql,
               const Params& params) {
    RawParams raw(params);
    return PQsendPrepare(connection, name.c_str(), sql.c_str(), raw.count(), raw.types.data()) != 0;
}

bool sendPrepared(PGconn* connection, const std::string& name, const Params& params) {
    RawParams raw(params);
    return PQsendQueryPrepared(connection, name.c_str(), raw.count(), raw.values.data(), nullptr,
                               nullptr, 0) != 0;
}

std::string tableSql(const sdk::TableName& table) {
    return sdk::quoteTableName(table.schema, table.name, '"');
}

std::string quoteLiteral(PGconn* connection, std::string_view value, const std::string& context) {
    char* escaped = PQescapeLiteral(connection, value.data(), value.size());
    if (escaped == nullptr) {
        throw resultError(nullptr, connection, context);
    }
    std::string literal(escaped);
    PQfreemem(escaped);
    return literal;
}

sdk::DriverError statementError(Session& session, PGconn* connection, const PGresult* result,
                                const std::string& name, const std::string& context) {
    sdk::DriverError error = resultError(result, connection, context);
    if (!name.empty()) session.namedStatements().failed(name, error.sqlstate(), session.log());
    return error;
}

std::string_view cellText(const PGresult* result, int row, int column) {
    return {PQgetvalue(result, row, column), static_cast<size_t>(PQgetlength(result, row, column))};
}

std::vector<Oid> columnTypesOf(const PGresult* result) {
    std::vector<Oid> types;
    int columns = PQnfields(result);
    for (int i = 0; i < columns; ++i) types.push_back(PQftype(result, i));
    return types;
}

void discardResults(PGconn* connection) noexcept {
    while (PGresult* rest = PQgetResult(connection)) PQclear(rest);
}

std::string_view Result::value(int row, int column) const {
    return cellText(result_.get(), row, column);
}

std::optional<std::string_view> Result::optional(int row, int column) const {
    if (isNull(row, column)) return std::nullopt;
    return value(row, column);
}

Result execute(Session& session, const std::string& sql, const Params& params,
               const std::string& context, ResultFormat format) {
    PGconn* connection = session.handle();
    RawParams raw(params);
    ResultPtr result(PQexecParams(connection, sql.c_str(), raw.count(), raw.types.data(),
                                  raw.values.data(), nullptr, nullptr, static_cast<int>(format)));
    ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
        throw resultError(result.get(), connection, context);
    }
    return Result(std::move(result));
}

RowStream::RowStream(Session& session, const std::string& sql, const Params& params,
                     std::string context, bool reusable)
    : session_(session), connection_(session.handle()), context_(std::move(context)) {
    std::optional<NamedStatements::Use> named;
    if (reusable) named = session.namedStatements().use(sql);
    if (named) name_ = named->name;
    if (named && named->parse && !prepare(sql, params)) return;
    if (!(named ? sendPrepared(connection_, name_, params) : sendQuery(connection_, sql, params))) {
        done_ = true;
        throw statementError(session_, connection_, nullptr, name_, context_);
    }
    // Cannot fail right after a successful send; without it the whole result is buffered.
    PQsetSingleRowMode(connection_);
}

// Outside pipeline mode the Parse waits for its answer: once per statement and session.
bool RowStream::prepare(const std::string& sql, const Params& params) {
    RawParams raw(params);
    ResultPtr result(
        PQprepare(connection_, name_.c_str(), sql.c_str(), raw.count(), raw.types.data()));
    if (PQresultStatus(result.get()) == PGRES_COMMAND_OK) {
        session_.namedStatements().prepared(name_);
        return true;
    }
    session_.namedStatements().forgetUnprepared();
    parseFailure_ = std::move(result);
    done_ = true;
    return false;
}

RowStream::~RowStream() {
    if (done_) return;
    session_.interrupt();
    drain();
}

bool RowStream::next() {
    if (parseFailure_) {
        ResultPtr failure = std::move(parseFailure_);
        throw statementError(session_, connection_, failure.get(), name_, context_);
    }
    if (done_) return false;
    row_.reset(PQgetResult(connection_));
    ExecStatusType status = PQresultStatus(row_.get());
    if (types_.empty() && row_ != nullptr) types_ = columnTypesOf(row_.get());
    if (status == PGRES_SINGLE_TUPLE) return true;
    ResultPtr last = std::move(row_);
    drain();
    if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) return false;
    throw statementError(session_, connection_, last.get(), name_, context_);
}

std::string_view RowStream::value(int column) const { return cellText(row_.get(), 0, column); }

void RowStream::drain() noexcept {
    done_ = true;
    discardResults(connection_);
}

}  // namespace tapdiffgen::postgres
