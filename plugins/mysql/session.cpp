#include "session.hpp"

#include <errmsg.h>

#include <algorithm>
#include <mutex>

namespace tapdiffgen::mysql {
namespace {

// The server keeps about 600 bytes per placeholder of a prepared statement (a 256-key fetch
// about 150 KiB, a 4096-key one about 2.3 MiB), so the cache is bounded by the placeholders it
// holds: about 40 MiB of server memory. A page's fetches over 64 tables fit (when they did
// not, every fetch prepared its statement again: 656 prepares for 656 executions).
constexpr size_t kMaxCachedPlaceholders = 65536;
constexpr unsigned kCancelConnectTimeoutSeconds = 5;
// The server's max_allowed_packet decides how big a row may be; the client must not be the
// tighter limit.
constexpr unsigned long kClientMaxPacket = 1024ul * 1024ul * 1024ul;

void initLibraryOnce() {
    static std::once_flag once;
    std::call_once(once, [] { mysql_library_init(0, nullptr, nullptr); });
}

const char* orNull(const std::string& text) { return text.empty() ? nullptr : text.c_str(); }

ClientFailure lastFailure(MYSQL* mysql) {
    return {mysql_errno(mysql), mysql_sqlstate(mysql), mysql_error(mysql)};
}

void applyTlsOptions(MYSQL* mysql, const Settings& settings, bool useTls) {
    my_bool on = 1;
    my_bool off = 0;
    if (!useTls) {
        mysql_optionsv(mysql, MYSQL_OPT_SSL_ENFORCE, &off);
        return;
    }
    mysql_optionsv(mysql, MYSQL_OPT_SSL_ENFORCE, &on);
    if (!settings.sslCert.empty()) {
        mysql_optionsv(mysql, MYSQL_OPT_SSL_CERT, settings.sslCert.c_str());
        mysql_optionsv(mysql, MYSQL_OPT_SSL_KEY, settings.sslKey.c_str());
    }
    bool verifies =
        settings.sslMode == SslMode::VerifyCa || settings.sslMode == SslMode::VerifyFull;
    // A CA file makes the client check the certificate chain; prefer and require promise
    // encryption only, so they do not pass it.
    if (verifies && !settings.sslRootCert.empty()) {
        mysql_optionsv(mysql, MYSQL_OPT_SSL_CA, settings.sslRootCert.c_str());
    }
    my_bool* hostCheck = settings.sslMode == SslMode::VerifyFull ? &on : &off;
    mysql_optionsv(mysql, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, hostCheck);
}

void applyOptions(MYSQL* mysql, const Settings& settings, unsigned timeoutSeconds, bool useTls) {
    unsigned int timeout = timeoutSeconds;
    unsigned int noLocalFiles = 0;
    unsigned long maxPacket = kClientMaxPacket;
    my_bool reportTruncation = 1;
    mysql_optionsv(mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_optionsv(mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    mysql_optionsv(mysql, MYSQL_OPT_LOCAL_INFILE, &noLocalFiles);
    mysql_optionsv(mysql, MYSQL_OPT_MAX_ALLOWED_PACKET, &maxPacket);
    mysql_optionsv(mysql, MYSQL_REPORT_DATA_TRUNCATION, &reportTruncation);
    mysql_optionsv(mysql, MYSQL_OPT_CONNECT_ATTR_ADD, "program_name", "tap-diffgen");
    applyTlsOptions(mysql, settings, useTls);
}

// Returns the open handle, or nullptr with the failure in `failure`.
MYSQL* openHandle(const Settings& settings, unsigned timeoutSeconds, bool useTls,
                  ClientFailure& failure) {
    initLibraryOnce();
    MYSQL* mysql = mysql_init(nullptr);
    if (mysql == nullptr) {
        failure = {0, {}, "out of memory"};
        return nullptr;
    }
    applyOptions(mysql, settings, timeoutSeconds, useTls);
    if (mysql_real_connect(mysql, settings.connectHost(), settings.user.c_str(),
                           settings.password.c_str(), orNull(settings.database),
                           settings.connectPort(), nullptr, CLIENT_MULTI_STATEMENTS) == nullptr) {
        failure = lastFailure(mysql);
        mysql_close(mysql);
        return nullptr;
    }
    return mysql;
}

std::string connectContext(const Settings& settings) {
    return "cannot connect to MySQL at " + settings.endpoint() + " as user '" + settings.user + "'";
}

}  // namespace

Session::Session(Settings settings, sdk::HostLog log, const sdk::CallCancel& cancel)
    : settings_(std::move(settings)),
      log_(std::move(log)),
      cancel_(cancel),
      unrepresentable_(log_) {
    connect();
    try {
        requireTls();
        configure();
    } catch (...) {
        mysql_close(mysql_);
        throw;
    }
}

Session::~Session() {
    bySql_.clear();
    statements_.clear();  // before the handle: statements close through it
    mysql_close(mysql_);
}

void Session::connect() {
    bool tryTls = settings_.sslMode != SslMode::Disable;
    ClientFailure failure;
    mysql_ = openHandle(settings_, settings_.connectTimeoutSeconds, tryTls, failure);
    if (mysql_ == nullptr && tryTls && settings_.sslMode == SslMode::Prefer &&
        failure.code == CR_SSL_CONNECTION_ERROR) {
        log_.debug("TLS handshake failed (" + failure.message +
                   "); ssl_mode prefer: connecting without TLS");
        mysql_ = openHandle(settings_, settings_.connectTimeoutSeconds, false, failure);
    }
    if (mysql_ == nullptr) fail(failure, connectContext(settings_));
    threadId_ = mysql_thread_id(mysql_);
    serverInfo_ = mysql_get_server_info(mysql_);
    usesTls_ = mysql_get_ssl_cipher(mysql_) != nullptr;
}

// The client library falls back to plain text when the server offers no TLS unless it also
// verifies the host name, so require and verify-ca are enforced here.
void Session::requireTls() {
    if (settings_.sslMode != SslMode::Require && settings_.sslMode != SslMode::VerifyCa) return;
    if (usesTls_) return;
    throw sdk::DriverError(TDG_UNAUTHENTICATED, connectContext(settings_) + ": ssl_mode " +
                                                    sslModeName(settings_.sslMode) +
                                                    " but the server does not offer TLS");
}

void Session::configure() {
    // Zero dates are read as data (and become NULL), never rejected: no NO_ZERO_DATE, no
    // strict mode. REPEATABLE READ gives one read view per statement, which the diffgen page
    // relies on; autocommit ends that view with the statement.
    // One query rather than three: as statements of their own they were two more round trips
    // for every session before its first read.
    static const char kSetup[] =
        "SET NAMES utf8mb4; "
        "SET SESSION autocommit = 1, SESSION time_zone = '+00:00', "
        "SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'; "
        "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";
    runAll(kSetup);
    const char* cipher = mysql_get_ssl_cipher(mysql_);
    log_.debug("connected to " + serverInfo_ + " at " + settings_.endpoint() +
               (cipher != nullptr ? std::string(" over TLS (") + cipher + ")"
                                  : std::string(" without TLS")));
}

void Session::runAll(const char* sql) {
    const std::string context = std::string("configuring the session (") + sql + ")";
    execute(sql, context);
    // A later statement's failure shows only when its result is asked for.
    while (mysql_more_results(mysql_)) {
        if (mysql_next_result(mysql_) > 0) failOnConnection(context);
    }
}

void Session::execute(const char* sql, std::string_view context) {
    if (mysql_real_query(mysql_, sql,
                         static_cast<unsigned long>(std::char_traits<char>::length(sql))) != 0) {
        failOnConnection(context);
    }
}

void Session::endTransactionQuietly() noexcept {
    static const char kRollback[] = "ROLLBACK";
    mysql_real_query(mysql_, kRollback, sizeof(kRollback) - 1);
}

Statement& Session::prepared(const std::string& sql) {
    auto found = bySql_.find(sql);
    if (found != bySql_.end()) {
        statements_.splice(statements_.begin(), statements_, found->second);
        return *statements_.front();
    }
    auto statement = std::make_unique<Statement>(*this, sql);
    const size_t needed = statement->placeholders();
    while (cachedPlaceholders_ + needed > kMaxCachedPlaceholders && evictIdleStatement()) {
    }
    cachedPlaceholders_ += needed;
    statements_.push_front(std::move(statement));
    bySql_[sql] = statements_.begin();
    return *statements_.front();
}

bool Session::evictIdleStatement() {
    for (auto it = statements_.end(); it != statements_.begin();) {
        --it;
        if (!(*it)->busy()) {
            cachedPlaceholders_ -= (*it)->placeholders();
            bySql_.erase((*it)->sql());
            statements_.erase(it);
            return true;
        }
    }
    return false;
}

void Session::interrupt() {
    ClientFailure failure;
    unsigned timeout = std::min(settings_.connectTimeoutSeconds, kCancelConnectTimeoutSeconds);
    MYSQL* killer = openHandle(settings_, timeout, usesTls_, failure);
    if (killer == nullptr) {
        throw toDriverError(failure, "cancelling: " + connectContext(settings_),
                            settings_.password);
    }
    // The thread id is the server's own number for this connection, not a user value.
    std::string kill = "KILL QUERY " + std::to_string(threadId_);
    bool failed = mysql_real_query(killer, kill.data(), static_cast<unsigned long>(kill.size()));
    ClientFailure killFailure = lastFailure(killer);
    mysql_close(killer);
    if (failed) {
        throw toDriverError(killFailure, "cancelling the running statement", settings_.password);
    }
}

void Session::fail(const ClientFailure& failure, std::string_view context) const {
    sdk::DriverError error = toDriverError(failure, context, settings_.password);
    // Once the handshake is done, a TLS error is the transport failing (the server ended the
    // session, the network dropped it), not a refused certificate: a new connection may pass.
    if (mysql_ != nullptr && failure.code == CR_SSL_CONNECTION_ERROR) {
        error = sdk::DriverError(TDG_IO, error.what(), error.sqlstate(), true, error.vendorCode());
    }
    if (cancel_.requested() && error.status() != TDG_CANCELLED) {
        throw sdk::DriverError(TDG_CANCELLED, std::string("cancelled (") + error.what() + ")",
                               error.sqlstate(), false, error.vendorCode());
    }
    throw error;
}

void Session::failOnConnection(std::string_view context) const {
    fail(lastFailure(mysql_), context);
}

}  // namespace tapdiffgen::mysql
