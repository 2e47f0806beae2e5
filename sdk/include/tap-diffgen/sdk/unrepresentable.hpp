// The one policy for a stored value that its column's kind cannot carry (a zero date, a NaN
// numeric, text in an SQLite INTEGER column): the cell is sent as NULL, and the first such value
// of each column and problem is reported once per connection in one warning that names the
// table and the column and describes the problem without quoting the value, so no data reaches
// the log. Since SDK 0.2.0.
#pragma once

#include <mutex>
#include <set>
#include <string>

#include "tap-diffgen/sdk/host_log.hpp"

namespace tapdiffgen::sdk {

class UnrepresentableValues {
public:
    explicit UnrepresentableValues(HostLog log) : log_(std::move(log)) {}

    /// Reports "column '<column>' of table '<table>' <problem>; sent as null (...)" once per
    /// table, column and problem; `problem` says what the value is ("holds a REAL value that
    /// is not a 64-bit integer") without quoting it.
    void sentAsNull(const std::string& table, const std::string& column,
                    const std::string& problem);

private:
    HostLog log_;
    std::mutex mutex_;
    std::set<std::string> reported_;
};

}  // namespace tapdiffgen::sdk
