// Building blocks of the generated SQL: quoted identifiers and placeholder lists. Lists are
// padded to a few fixed sizes so that each statement shape is prepared once per connection.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::mysql {

/// `name`, with embedded backticks doubled.
std::string quoteName(std::string_view name);
/// `schema`.`name`, or `name` when the schema is absent (the connection's database).
std::string quoteTable(const sdk::TableName& table);
/// `a`, `b`, `c`
std::string columnList(const std::vector<std::string_view>& columns);

/// `text` with ASCII letters in lower case (names that MySQL compares without regard to case).
std::string lowerCase(std::string_view text);

/// "?, ?, ?" with `count` placeholders (at least one).
std::string placeholders(size_t count);

/// Key lists are sent in chunks of at most this many keys: a page's keys of one table in one
/// round trip, as long as they are not more than 4096.
constexpr size_t kMaxKeysPerStatement = 4096;
/// The smallest of 1, 16, 64, 256, 1024, 2048, 4096 that holds `count` keys (count <=
/// kMaxKeysPerStatement).
size_t keyListSize(size_t count);
/// The smallest power of two that holds `count` names (at least 1).
size_t nameListSize(size_t count);

}  // namespace tapdiffgen::mysql
