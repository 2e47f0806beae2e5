// What one tap run wrote, with accessors for the Singer messages in it.
#pragma once

#include <Poco/JSON/Object.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tapdiffgen::testing {

struct TapRun {
    int exitCode = -1;
    std::vector<std::string> lines;  // stdout
    std::string stderrText;

    /// Splits stdout into lines.
    void setOutput(const std::string& out, const std::string& err);

    std::vector<Poco::JSON::Object::Ptr> messages(const std::string& type) const;
    std::vector<Poco::JSON::Object::Ptr> records(const std::string& stream) const;
    /// The value of the last STATE message, as compact JSON ("" if none).
    std::string lastState() const;
    /// The replication key value the last STATE bookmarks for `stream`; none when no STATE
    /// came (a STATE without that stream's bookmark fails the test).
    std::optional<int64_t> lastBookmark(const std::string& stream) const;
    /// The RECORD and STATE lines in order, without the time each record was extracted at:
    /// what two runs over the same backlog must agree on.
    std::vector<std::string> recordsAndStates() const;
    /// The messages of the ERROR lines on stderr (what follows "| tap-diffgen | "), in order.
    std::vector<std::string> errorMessages() const;

    /// Reads the output as a target would after a kill: line by line up to the first that is
    /// cut short, handing each RECORD of `stream` to onRecord. Returns the value of the last
    /// STATE read (as JSON text), or `state` when none came.
    std::string applyAsTarget(const std::string& stream,
                              const std::function<void(const Poco::JSON::Object::Ptr&)>& onRecord,
                              std::string state) const;
};

}  // namespace tapdiffgen::testing
