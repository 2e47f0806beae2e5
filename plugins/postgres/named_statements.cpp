#include "named_statements.hpp"

#include <cstdio>
#include <iterator>
#include <random>
#include <utility>

namespace tapdiffgen::postgres {
namespace {

// "cached plan must not change result type": the table's columns changed since the Parse.
constexpr const char* kPlanChangedResultType = "0A000";

// No such statement (26000) or one of that name already (42P05): the statements a session
// prepared are not where its next statement runs, as behind a pooler in transaction mode.
bool keepsNoNames(const std::string& sqlstate) {
    return sqlstate == "26000" || sqlstate == "42P05";
}

}  // namespace

NamedStatements::NamedStatements(size_t capacity) : capacity_(capacity) {
    std::random_device random;
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "tdg_%08x%08x_", random(), random());
    prefix_ = prefix;
}

std::optional<NamedStatements::Use> NamedStatements::use(const std::string& sql) {
    if (!on_) return std::nullopt;
    if (auto found = bySql_.find(sql); found != bySql_.end()) {
        recent_.splice(recent_.begin(), recent_, found->second);
        // A second use in the same pipeline follows the first one's Parse.
        return Use{found->second->name, false};
    }
    recent_.push_front({sql, prefix_ + std::to_string(next_++), false});
    bySql_.emplace(sql, recent_.begin());
    if (recent_.size() > capacity_) drop(std::prev(recent_.end()));
    return Use{recent_.front().name, true};
}

void NamedStatements::prepared(const std::string& name) {
    for (Entry& entry : recent_) {
        if (entry.name == name) {
            entry.prepared = true;
            return;
        }
    }
}

void NamedStatements::forgetUnprepared() {
    for (auto entry = recent_.begin(); entry != recent_.end();) {
        auto current = entry++;
        if (!current->prepared) drop(current);
    }
}

bool NamedStatements::isNameFailure(const std::string& sqlstate) {
    return keepsNoNames(sqlstate) || sqlstate == kPlanChangedResultType;
}

bool NamedStatements::failed(const std::string& name, const std::string& sqlstate,
                             const sdk::HostLog& log) {
    if (keepsNoNames(sqlstate)) {
        if (on_) {
            log.warn("PostgreSQL does not keep this session's prepared statements (SQLSTATE " +
                     sqlstate +
                     ", as behind a pooler in transaction mode); re-pulling with "
                     "unnamed statements from now on");
        }
        on_ = false;
        for (auto entry = recent_.begin(); entry != recent_.end();) drop(entry++);
        return true;
    }
    if (sqlstate != kPlanChangedResultType) return false;
    for (auto entry = recent_.begin(); entry != recent_.end(); ++entry) {
        if (entry->name == name) {
            drop(entry);
            return true;
        }
    }
    return false;
}

std::vector<std::string> NamedStatements::takeDropped() { return std::exchange(dropped_, {}); }

// A prepared name is deallocated later, when the session is idle. One whose Parse was never
// answered is left: a DEALLOCATE would cost a round trip for what most likely never ran, and a
// name is never used twice.
void NamedStatements::drop(std::list<Entry>::iterator entry) {
    if (on_ && entry->prepared) dropped_.push_back(entry->name);
    bySql_.erase(entry->sql);
    recent_.erase(entry);
}

}  // namespace tapdiffgen::postgres
