// Table descriptions a driver keeps between calls: the column types a row read binds its keys
// with and converts its cells by. A description goes stale when the table changes; the driver
// asks for a fresh one (get(table, true)) when a read finds it out of date, and
// describe_table always reads afresh. Since SDK 0.2.0.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

template <typename Description>
class TableCache {
public:
    using Reader = std::function<Description(const TableName&)>;

    explicit TableCache(Reader read) : read_(std::move(read)) {}

    /// The cached description, read when absent or when `fresh` is asked for.
    const Description& get(const TableName& table, bool fresh = false) {
        Key key{table.schema, table.name};
        auto found = cache_.find(key);
        if (found != cache_.end() && !fresh) return found->second;
        return cache_.insert_or_assign(key, read_(table)).first->second;
    }

    /// Stores a description read elsewhere (several tables at once), replacing any cached one.
    const Description& put(const TableName& table, Description description) {
        return cache_.insert_or_assign(Key{table.schema, table.name}, std::move(description))
            .first->second;
    }

private:
    using Key = std::pair<std::optional<std::string>, std::string>;
    Reader read_;
    std::map<Key, Description> cache_;
};

}  // namespace tapdiffgen::sdk
