#include "singer/message_writer.hpp"

#include <unistd.h>

#include <cerrno>

#include "singer/json_text.hpp"

namespace tapdiffgen::core {

MessageWriter::MessageWriter(int fd, size_t flushThreshold)
    : fd_(fd), flushThreshold_(flushThreshold) {
    buffer_.reserve(flushThreshold_ + (64u << 10));
}

MessageWriter::~MessageWriter() {
    try {
        if (batch_) batch_->closeAll(buffer_);
        flush();
    } catch (...) {
        // Nothing sensible to do with a closed stdout while unwinding.
    }
}

void MessageWriter::writeSchema(std::string_view stream, std::string_view schemaJson,
                                const std::vector<std::string>& keyProperties) {
    // A target reads a BATCH file's records under the SCHEMA before its BATCH message: a file
    // of records under an older SCHEMA is announced before a new one.
    if (batch_) batch_->closeAll(buffer_);
    buffer_ += R"({"type":"SCHEMA","stream":)";
    appendJsonString(buffer_, stream);
    buffer_ += R"(,"schema":)";
    buffer_ += schemaJson;
    buffer_ += R"(,"key_properties":[)";
    for (size_t i = 0; i < keyProperties.size(); ++i) {
        if (i > 0) buffer_.push_back(',');
        appendJsonString(buffer_, keyProperties[i]);
    }
    buffer_ += "]}\n";
    maybeFlush();
}

std::string& MessageWriter::beginRecord(std::string_view stream) {
    if (batch_) return batch_->beginRecord(stream);
    buffer_ += R"({"type":"RECORD","stream":)";
    appendJsonString(buffer_, stream);
    buffer_ += R"(,"record":{)";
    return buffer_;
}

void MessageWriter::endRecord(std::string_view timeExtracted) {
    if (batch_) {
        batch_->endRecord(buffer_);
        maybeFlush();
        return;
    }
    buffer_ += R"(},"time_extracted":")";
    buffer_ += timeExtracted;
    buffer_ += "\"}\n";
    maybeFlush();
}

bool MessageWriter::writeState(const std::string& valueJson) {
    if (valueJson == lastState_) return false;
    lastState_ = valueJson;
    repeatState();
    return true;
}

void MessageWriter::repeatState() {
    if (lastState_.empty()) return;
    // A STATE covers every record before it: their BATCH files are closed and announced first.
    if (batch_) batch_->closeAll(buffer_);
    buffer_ += R"({"type":"STATE","value":)";
    buffer_ += lastState_;
    buffer_ += "}\n";
    flush();
}

void MessageWriter::maybeFlush() {
    if (buffer_.size() >= flushThreshold_) flush();
}

void MessageWriter::flush() {
    size_t done = 0;
    while (done < buffer_.size()) {
        ssize_t written = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (written < 0) {
            if (errno == EINTR) continue;
            buffer_.clear();
            throw OutputClosed();
        }
        done += static_cast<size_t>(written);
    }
    buffer_.clear();
}

}  // namespace tapdiffgen::core
