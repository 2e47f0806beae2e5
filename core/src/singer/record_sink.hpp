// Where RECORD lines are rendered: the message writer itself, or a spool that keeps them for the
// writer until later (rows re-pulled on another thread).
#pragma once

#include <string>
#include <string_view>

namespace tapdiffgen::core {

class RecordSink {
public:
    virtual ~RecordSink() = default;

    /// Starts a record of `stream`: the caller appends the record object's members to the
    /// returned buffer (no braces), then calls endRecord.
    virtual std::string& beginRecord(std::string_view stream) = 0;
    virtual void endRecord(std::string_view timeExtracted) = 0;
};

}  // namespace tapdiffgen::core
