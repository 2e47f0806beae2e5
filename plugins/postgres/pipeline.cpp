#include "pipeline.hpp"

#include <poll.h>

#include "errors.hpp"

namespace tapdiffgen::postgres {
PipelinedRows::PipelinedRows(Session& session, std::vector<PipelinedStatement> statements)
    : session_(session), connection_(session.handle()), statements_(std::move(statements)) {
    if (PQenterPipelineMode(connection_) == 0) throw resultError(nullptr, connection_, context());
    try {
        send();
    } catch (...) {
        finish();
        throw;
    }
}

PipelinedRows::~PipelinedRows() { finish(); }

// The statement being read, or the first before reading starts.
const std::string& PipelinedRows::context() const {
    static const std::string none = "reading tables";
    if (statements_.empty()) return none;
    return statements_[current_ == 0 ? 0 : current_ - 1].context;
}

void PipelinedRows::send() {
    // Non-blocking while sending: with every statement queued and none of its rows read, a
    // blocking write could wait on a server that waits for us to read.
    if (PQsetnonblocking(connection_, 1) != 0) throw resultError(nullptr, connection_, context());
    for (const PipelinedStatement& statement : statements_) {
        NamedStatements::Use& use = named_.emplace_back();
        if (statement.reusable) {
            use = session_.namedStatements().use(statement.sql).value_or(use);
        }
        if (use.parse && !sendParse(connection_, use.name, statement.sql, statement.params)) {
            throw resultError(nullptr, connection_, statement.context);
        }
        if (!(use.name.empty() ? sendQuery(connection_, statement.sql, statement.params)
                               : sendPrepared(connection_, use.name, statement.params))) {
            throw resultError(nullptr, connection_, statement.context);
        }
        ++sent_;
    }
    if (PQpipelineSync(connection_) == 0) throw resultError(nullptr, connection_, context());
    synced_ = true;
    flushWithoutDeadlock();
    if (PQsetnonblocking(connection_, 0) != 0) throw resultError(nullptr, connection_, context());
}

// Writes what libpq has queued, reading the server's answers into libpq's buffer meanwhile.
void PipelinedRows::flushWithoutDeadlock() {
    for (;;) {
        int pending = PQflush(connection_);
        if (pending == 0) return;
        if (pending < 0) throw resultError(nullptr, connection_, context());
        pollfd socket{PQsocket(connection_), POLLIN | POLLOUT, 0};
        if (poll(&socket, 1, -1) < 0) continue;  // interrupted by a signal: look again
        if ((socket.revents & POLLIN) != 0 && PQconsumeInput(connection_) == 0) {
            throw resultError(nullptr, connection_, context());
        }
    }
}

bool PipelinedRows::nextStatement() {
    if (current_ >= sent_) return false;
    ++current_;
    statementDone_ = false;
    types_.clear();
    result_.reset();
    sawResult_ = false;
    if (named_[current_ - 1].parse) readParse();
    // Once the results before it are read, the statement is the one libpq processes: its
    // mode is chosen now, before its first result (libpq resets the mode for each statement).
    if (statements_[current_ - 1].singleRow && !parseFailure_) PQsetSingleRowMode(connection_);
    return true;
}

// The answer to the current statement's Parse, which comes before the statement's own.
void PipelinedRows::readParse() {
    ResultPtr parse(PQgetResult(connection_));
    discardResults(connection_);  // up to the NULL that ends the Parse's results
    if (PQresultStatus(parse.get()) == PGRES_COMMAND_OK) {
        session_.namedStatements().prepared(named_[current_ - 1].name);
    } else {
        parseFailure_ = std::move(parse);
    }
}

bool PipelinedRows::next() {
    if (statementDone_) return false;
    if (parseFailure_) {
        statementDone_ = true;
        discardResults(connection_);  // the statement's PIPELINE_ABORTED
        ResultPtr failure = std::move(parseFailure_);
        throw statementError(session_, connection_, failure.get(), named_[current_ - 1].name,
                             context());
    }
    if (result_ && ++row_ < rows_) return true;
    result_.reset();
    return nextResult();
}

// A statement's rows usually come as one result. libpq 15 can carry the single-row mode of the
// session's previous, unpipelined statement into the first pipelined one, whose rows then come
// one result each: so every result with rows is read, until the NULL that ends the statement.
bool PipelinedRows::nextResult() {
    for (;;) {
        ResultPtr result(PQgetResult(connection_));
        if (!result && sawResult_) {
            statementDone_ = true;
            return false;
        }
        sawResult_ = true;
        ExecStatusType status = PQresultStatus(result.get());
        const bool rows = status == PGRES_TUPLES_OK || status == PGRES_SINGLE_TUPLE;
        if (rows && PQntuples(result.get()) > 0) {
            if (types_.empty()) types_ = columnTypesOf(result.get());
            rows_ = PQntuples(result.get());
            row_ = 0;
            result_ = std::move(result);
            return true;
        }
        if (rows || status == PGRES_COMMAND_OK) continue;  // the NULL comes next
        // The statement failed, or (a NULL before any result) the connection lost it.
        statementDone_ = true;
        discardResults(connection_);
        throw statementError(session_, connection_, result.get(), named_[current_ - 1].name,
                             context());
    }
}

std::string_view PipelinedRows::value(int column) const {
    return cellText(result_.get(), row_, column);
}

size_t PipelinedRows::rowBytes() const {
    size_t bytes = 0;
    const int columns = PQnfields(result_.get());
    for (int column = 0; column < columns; ++column) {
        bytes += static_cast<size_t>(PQgetlength(result_.get(), row_, column));
    }
    return bytes;
}

void PipelinedRows::finish() noexcept {
    result_.reset();
    parseFailure_.reset();
    drain();
    PQexitPipelineMode(connection_);
    // A Parse not seen to succeed is sent again under a new name next time.
    session_.namedStatements().forgetUnprepared();
}

// Each statement not yet read ends with a NULL result (after its rows, or after PIPELINE_ABORTED
// once one has failed), and so does a Parse sent before it; the sync comes last. A broken
// connection ends it early.
void PipelinedRows::drain() noexcept {
    PQsetnonblocking(connection_, 0);
    // Statements queued without a sync would never be answered: send one, so they are.
    if (!synced_ && (PQpipelineSync(connection_) == 0 || PQflush(connection_) != 0)) {
        return;  // the connection is broken; the session reports it on its next use
    }
    size_t endsExpected = sent_ - current_ + (statementDone_ ? 0 : 1);
    for (size_t i = current_; i < named_.size(); ++i) endsExpected += named_[i].parse ? 1 : 0;
    for (size_t ends = 0; PQstatus(connection_) == CONNECTION_OK;) {
        PGresult* result = PQgetResult(connection_);
        if (result == nullptr) {
            if (++ends > endsExpected) break;  // nothing more is coming
            continue;
        }
        bool synced = PQresultStatus(result) == PGRES_PIPELINE_SYNC;
        PQclear(result);
        if (synced) break;
    }
}

}  // namespace tapdiffgen::postgres
