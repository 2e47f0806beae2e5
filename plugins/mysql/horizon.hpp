// Whether every transaction that could still commit a diffgen id inside a page's range is over,
// judged from information_schema.INNODB_TRX.
//
// INNODB_TRX is not read live. InnoDB answers it from a copy of its transaction list that it
// refills only once nobody has read the copy for 100 ms (CACHE_MIN_IDLE_TIME in trx0i_s.cc): a
// client that reads it more often, this one included, keeps an old list alive indefinitely, and
// a transaction that began after that list was taken is missing from it. A list older than the
// page could call a range final while the transaction holding its missing id still runs, and
// that id would never be read again. So the list is trusted only when it is proven newer than
// the page: the check first opens a transaction of its own (START TRANSACTION WITH CONSISTENT
// SNAPSHOT: read-only, no table touched, committed right after) and accepts the list only if
// that transaction is in it. The check also never reads the list again within the 100 ms in
// which it would get the same copy back.
//
// trx_started is the server process's local time (localtime_r of whole seconds), whatever the
// session's time_zone, so it is compared as an instant: CONVERT_TZ(..., 'SYSTEM', '+00:00'),
// taking the earliest reading where a fall-back to winter time makes a local time ambiguous.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "session.hpp"
#include "tap-diffgen/dialect_abi.h"
#include "tap-diffgen/sdk/dialect_driver.hpp"

namespace tapdiffgen::mysql {

/// words[0] of every mark this driver hands out. words[1] is the server's clock (microseconds
/// since the epoch) when the page's statement started; words[2] and words[3] say which page
/// read it was (see HorizonCheck::markPage).
constexpr int64_t kMarkVersion = 2;

class HorizonCheck {
public:
    explicit HorizonCheck(Session& session);

    /// The mark of a page whose statement started at serverMicros on this session.
    TdgHorizonMark markPage(int64_t serverMicros);
    sdk::HorizonState check(const TdgHorizonMark& mark);
    /// Why check() cannot prove a range final on this connection, as one line naming the fix;
    /// nullopt when it can. Reads INNODB_TRX once per connection at most, as a check would.
    std::optional<std::string> problem();

private:
    // One copy of the transaction list that was proven newer than every page marked before it.
    struct OpenTransactions {
        int64_t reader = 0;                  // HorizonCheck that read it
        int64_t pagesRead = 0;               // pages marked by that reader before it was read
        std::optional<int64_t> oldestStart;  // seconds since the epoch, other sessions only
        std::chrono::steady_clock::time_point readAt;
    };

    bool covers(const OpenTransactions& list, const TdgHorizonMark& mark) const;
    /// Reads the list; nullopt when the server answered from a copy older than this call.
    std::optional<OpenTransactions> readOpenTransactions();
    std::optional<int64_t> queryOpenTransactions(bool& fresh);
    void noteStale(const char* why);
    [[noreturn]] void unavailable(const std::string& reason);
    /// 'user'@'host' of this connection's account, as GRANT takes it.
    std::string account();

    Session& session_;
    const int64_t reader_;  // distinct per connection, increasing over the process's life
    int64_t pagesMarked_ = 0;
    std::optional<OpenTransactions> last_;
    std::optional<std::chrono::steady_clock::time_point> lastRead_;
    int staleInARow_ = 0;
    bool staleWarned_ = false;
    std::optional<std::string> unavailable_;
    bool probed_ = false;
};

}  // namespace tapdiffgen::mysql
