#include "horizon.hpp"

#include <mysqld_error.h>

#include <atomic>

#include "params.hpp"
#include "statement.hpp"

namespace tapdiffgen::mysql {
namespace {

using Clock = std::chrono::steady_clock;

// InnoDB refills its copy of the transaction list once it went unread for 100 ms; within that
// time after a read, reading again returns the same copy. The margin covers timer granularity.
constexpr auto kCopyLifetime = std::chrono::milliseconds(150);

// So many stale copies in a row (several seconds of checks) mean another client keeps the copy
// alive: said once, as it holds bookmarks back until that client pauses.
constexpr int kStaleBeforeWarning = 20;

// The earliest instant a local trx_started may stand for. Away from a clock change the three
// readings agree; in the hour a fall-back repeats, the reading with the summer offset (taken
// from two hours before) is the earlier one. Near a change this may count a transaction as up
// to an hour older than it is, which only delays a range, never loses one.
const char* const kOpenTransactionsSql =
    "SELECT COALESCE(SUM(trx_mysql_thread_id = CONNECTION_ID()), 0), "
    "CAST(MIN(CASE WHEN trx_mysql_thread_id <> CONNECTION_ID() THEN LEAST("
    "UNIX_TIMESTAMP(CONVERT_TZ(trx_started, 'SYSTEM', '+00:00')), "
    "UNIX_TIMESTAMP(CONVERT_TZ(trx_started - INTERVAL 2 HOUR, 'SYSTEM', '+00:00')) + 7200, "
    "UNIX_TIMESTAMP(CONVERT_TZ(trx_started + INTERVAL 2 HOUR, 'SYSTEM', '+00:00')) - 7200"
    ") END) AS SIGNED) "
    "FROM information_schema.INNODB_TRX";

// Connections are numbered over the process's life, so a mark made on a connection that has
// since been replaced is older than anything the new one reads.
std::atomic<int64_t> nextReader{1};

bool cannotReadTransactions(const sdk::DriverError& error) {
    switch (error.vendorCode()) {
        case ER_SPECIFIC_ACCESS_DENIED_ERROR:
        case ER_TABLEACCESS_DENIED_ERROR:
        case ER_DBACCESS_DENIED_ERROR:
        case ER_UNKNOWN_TABLE:
        case ER_NO_SUCH_TABLE:
            return true;
        default:
            return error.status() == TDG_UNAUTHORIZED || error.status() == TDG_NOT_FOUND;
    }
}

}  // namespace

HorizonCheck::HorizonCheck(Session& session) : session_(session), reader_(nextReader++) {}

TdgHorizonMark HorizonCheck::markPage(int64_t serverMicros) {
    return TdgHorizonMark{{kMarkVersion, serverMicros, reader_, ++pagesMarked_}};
}

bool HorizonCheck::covers(const OpenTransactions& list, const TdgHorizonMark& mark) const {
    return list.reader > mark.words[2] ||
           (list.reader == mark.words[2] && list.pagesRead >= mark.words[3]);
}

// A transaction that could still commit an id of the page's range had taken that id before the
// page's read view, so it started before it. trx_started has whole seconds and the read view may
// come a little after the statement's clock, so one more second is counted: a transaction
// started just after the page may hold the range a moment longer, none started before it is
// missed.
sdk::HorizonState HorizonCheck::check(const TdgHorizonMark& mark) {
    if (mark.words[0] != kMarkVersion) {
        throw sdk::notImplemented("this horizon mark was not made by the MySQL dialect");
    }
    if (unavailable_) throw sdk::notImplemented(*unavailable_);
    const Clock::time_point now = Clock::now();
    bool recent = lastRead_ && now - *lastRead_ < kCopyLifetime;
    if (!(recent && last_ && covers(*last_, mark))) {
        if (recent) return sdk::HorizonState::Pending;  // the server would hand back that copy
        last_ = readOpenTransactions();
        if (!last_) return sdk::HorizonState::Pending;
    }
    const int64_t markSeconds = mark.words[1] / 1000000;
    bool final = !last_->oldestStart || *last_->oldestStart > markSeconds + 1;
    return final ? sdk::HorizonState::Final : sdk::HorizonState::Pending;
}

std::optional<HorizonCheck::OpenTransactions> HorizonCheck::readOpenTransactions() {
    OpenTransactions list{reader_, pagesMarked_, std::nullopt, Clock::now()};
    bool fresh = false;
    session_.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT", "opening the horizon check");
    try {
        list.oldestStart = queryOpenTransactions(fresh);
    } catch (...) {
        session_.endTransactionQuietly();
        lastRead_ = Clock::now();
        throw;
    }
    session_.execute("COMMIT", "closing the horizon check");
    lastRead_ = Clock::now();
    if (!fresh) {
        noteStale(
            "information_schema.INNODB_TRX keeps answering from a copy older than the check "
            "(another client reads it more often than every 100 ms)");
        return std::nullopt;
    }
    staleInARow_ = 0;
    return list;
}

std::optional<int64_t> HorizonCheck::queryOpenTransactions(bool& fresh) {
    Params none;
    std::optional<int64_t> oldest;
    try {
        Cursor cursor(session_.prepared(kOpenTransactionsSql), none);
        while (cursor.next()) {
            fresh = cursor.row().asInt64(0) > 0;
            if (!cursor.row().isNull(1)) oldest = cursor.row().asInt64(1);
        }
    } catch (const sdk::DriverError& error) {
        if (!cannotReadTransactions(error)) throw;
        unavailable(error.what());
    }
    return oldest;
}

void HorizonCheck::noteStale(const char* why) {
    if (++staleInARow_ < kStaleBeforeWarning || staleWarned_) return;
    staleWarned_ = true;
    session_.warn(std::string(why) + "; diffgen ranges with gaps stay pending until it is fresh");
}

std::optional<std::string> HorizonCheck::problem() {
    if (unavailable_ || probed_) return unavailable_;
    probed_ = true;
    bool fresh = false;
    try {
        queryOpenTransactions(fresh);
    } catch (const sdk::DriverError&) {
        if (!unavailable_) throw;
    }
    // A check right after this would be handed the same copy of the list.
    lastRead_ = Clock::now();
    return unavailable_;
}

void HorizonCheck::unavailable(const std::string& reason) {
    unavailable_ =
        "cannot read information_schema.INNODB_TRX without the PROCESS privilege, so gaps in "
        "diffgen ids are only trusted after the settle time (GRANT PROCESS ON *.* TO " +
        account() + "): " + reason;
    session_.warn(*unavailable_);
    throw sdk::notImplemented(*unavailable_);
}

std::string HorizonCheck::account() {
    Params none;
    std::string user;
    Cursor cursor(session_.prepared("SELECT CURRENT_USER()"), none);
    while (cursor.next()) cursor.row().appendBytes(0, user);
    // user@host; a host has no '@', a user name may.
    size_t at = user.rfind('@');
    auto quoted = [](std::string_view text) {
        std::string out = "'";
        for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
        return out + "'";
    };
    if (at == std::string::npos) return quoted(user);
    return quoted(std::string_view(user).substr(0, at)) + "@" +
           quoted(std::string_view(user).substr(at + 1));
}

}  // namespace tapdiffgen::mysql
