// describe_tables answered from a cache checked by digests. The host describes the tables of
// every page it reads, to notice a migration; describing columns costs a server a catalog read
// (PostgreSQL follows each type through its domains, MariaDB reads information_schema), while a
// digest of what a description depends on is cheap to read. A driver reads the digests of all
// the tables in one statement and describes only those whose digest changed since their last
// description. Since SDK 0.2.0 (dialect ABI revision 5).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

class DigestedDescriptions {
public:
    using Columns = std::vector<ColumnInfo>;
    /// Describes the tables given, in order (throws as describe_tables does).
    using Describe = std::function<std::vector<Columns>(const std::vector<TableName>&)>;

    /// Whether any of `tables` has been described here: a first description can skip reading
    /// digests, there being nothing to compare them with.
    bool knowsAny(const std::vector<TableName>& tables) const {
        for (const auto& table : tables) {
            if (known_.count(keyOf(table)) > 0) return true;
        }
        return false;
    }

    /// The tables' columns: described by `describe` for each table whose digest (read just
    /// before, one per table; nullopt when unknown) differs from the one read before its last
    /// description, from the cache for the others. A table described without a digest is
    /// described again at the next call.
    std::vector<Columns> describe(const std::vector<TableName>& tables,
                                  const std::vector<std::optional<std::string>>& digests,
                                  const Describe& describe) {
        std::vector<TableName> changed;
        std::vector<std::optional<std::string>> changedDigests;
        for (size_t i = 0; i < tables.size(); ++i) {
            auto known = known_.find(keyOf(tables[i]));
            if (!digests[i] || known == known_.end() || known->second.digest != digests[i]) {
                changed.push_back(tables[i]);
                changedDigests.push_back(digests[i]);
            }
        }
        if (!changed.empty()) {
            std::vector<Columns> read = describe(changed);
            for (size_t i = 0; i < changed.size(); ++i) {
                known_.insert_or_assign(keyOf(changed[i]),
                                        Known{std::move(changedDigests[i]), std::move(read[i])});
            }
        }
        std::vector<Columns> described;
        for (const auto& table : tables) described.push_back(known_.at(keyOf(table)).columns);
        return described;
    }

    /// Forgets every description (the digests could not be read).
    void clear() { known_.clear(); }

private:
    using Key = std::pair<std::optional<std::string>, std::string>;
    struct Known {
        std::optional<std::string> digest;
        Columns columns;
    };
    std::map<Key, Known> known_;

    static Key keyOf(const TableName& table) { return {table.schema, table.name}; }
};

}  // namespace tapdiffgen::sdk
