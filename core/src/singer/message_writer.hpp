// Writes Singer messages to stdout: one compact JSON object per line, nothing else. Lines are
// gathered in one buffer and written with write(2) in large blocks; a STATE line is always
// followed by a flush, so a STATE reaches the reader only after every RECORD it covers.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "singer/batch_writer.hpp"
#include "singer/record_sink.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

class MessageWriter : public RecordSink {
public:
    explicit MessageWriter(int fd = 1, size_t flushThreshold = 1u << 20);
    ~MessageWriter() override;

    /// Writes a SCHEMA, after closing and announcing every open batch file (whose records were
    /// written under the SCHEMA before it).
    void writeSchema(std::string_view stream, std::string_view schemaJson,
                     const std::vector<std::string>& keyProperties);

    /// Starts a RECORD line: the caller appends the record object's members to the returned
    /// buffer (no braces), then calls endRecord.
    std::string& beginRecord(std::string_view stream) override;
    void endRecord(std::string_view timeExtracted) override;

    /// Writes {"type":"STATE","value":<valueJson>} and flushes; a STATE identical to the
    /// previous one is not repeated. Returns whether it wrote one.
    bool writeState(const std::string& valueJson);
    /// Writes the last STATE again (a target that commits on STATE needs one now and then even
    /// when nothing changed); nothing before the first.
    void repeatState();
    const std::string& lastState() const { return lastState_; }

    void flush();

    /// From now on records go to batch files instead of RECORD messages.
    void writeBatches(BatchSettings settings) {
        batch_ = std::make_unique<BatchSink>(std::move(settings));
    }

private:
    int fd_;
    size_t flushThreshold_;
    std::string buffer_;
    std::string lastState_;
    std::unique_ptr<BatchSink> batch_;

    void maybeFlush();
};

/// stdout was closed by the reader (EPIPE) or failed; the sync must stop.
class OutputClosed : public TapError {
public:
    OutputClosed() : TapError(ErrorKind::Output, "stdout was closed by the reader") {}
};

}  // namespace tapdiffgen::core
