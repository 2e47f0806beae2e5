// Warnings about stored values a column's kind cannot carry. SQLite lets any column hold any
// value, so a text in an INTEGER column is legal there but has no place in an integer field of
// the stream; it is sent as NULL and reported once per column and problem, so a table full of
// such values does not flood the log.
#pragma once

#include <set>
#include <string>
#include <utility>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sqlite {

class ValueWarnings {
public:
    explicit ValueWarnings(sdk::ConnectOptions options) : options_(std::move(options)) {}

    /// Logs "<where> <problem>; sent as null" the first time this pair is seen. `where` names
    /// the column ("table.column") and `problem` describes the value without quoting it, so
    /// no data reaches the log.
    void nullified(const std::string& where, const std::string& problem);

private:
    sdk::ConnectOptions options_;
    std::set<std::string> reported_;
};

}  // namespace tapdiffgen::sqlite
