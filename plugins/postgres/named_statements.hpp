// A session's fetches kept as named prepared statements, so that the server parses and plans a
// table's fetch once instead of at every page: an unnamed statement is planned with its keys
// in view, and the planner weighs every key of the array against the table's statistics
// (1.3–2.0 ms of a 2,500-key fetch that runs in 7–9 ms).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tap-diffgen/sdk/host_log.hpp"

namespace tapdiffgen::postgres {

class NamedStatements {
public:
    /// The server keeps a plan for each; beyond `capacity` the least recently used is dropped.
    explicit NamedStatements(size_t capacity = 256);

    struct Use {
        std::string name;
        bool parse = false;  ///< not prepared yet: a Parse of `name` must go before the statement
    };
    /// The name to run `sql` under, nullopt once named statements are off. The name is new for
    /// every session, so that through a connection pooler one session never runs another's.
    std::optional<Use> use(const std::string& sql);
    /// The server answered the Parse of `name`.
    void prepared(const std::string& name);
    /// Forgets the statements whose Parse was sent but not seen to succeed (a failed or
    /// abandoned pipeline), to be prepared again under a new name; they are not deallocated.
    void forgetUnprepared();
    /// A named statement failed with `sqlstate`. Returns whether the failure is the name's
    /// and the same read will work when retried: a plan that no longer fits its table's
    /// columns (0A000) is dropped, and a server that does not keep names (a pooler in
    /// transaction mode: 26000, 42P05) turns named statements off, with one warning.
    bool failed(const std::string& name, const std::string& sqlstate, const sdk::HostLog& log);
    /// Whether a named statement's failure with `sqlstate` can be the name's (see failed()).
    static bool isNameFailure(const std::string& sqlstate);
    bool on() const { return on_; }
    /// The names to deallocate on the server, taken.
    std::vector<std::string> takeDropped();

private:
    struct Entry {
        std::string sql;
        std::string name;
        bool prepared = false;
    };
    void drop(std::list<Entry>::iterator entry);

    std::list<Entry> recent_;  // most recently used first
    std::unordered_map<std::string, std::list<Entry>::iterator> bySql_;
    std::vector<std::string> dropped_;
    std::string prefix_;
    uint64_t next_ = 0;
    size_t capacity_;
    bool on_ = true;
};

}  // namespace tapdiffgen::postgres
