#include "singer/record_spool.hpp"

namespace tapdiffgen::core {

std::string& RecordSpool::beginRecord(std::string_view stream) {
    open_.stream = text_.size();
    text_ += stream;
    open_.members = text_.size();
    return text_;
}

void RecordSpool::endRecord(std::string_view timeExtracted) {
    open_.timeExtracted = text_.size();
    text_ += timeExtracted;
    open_.end = text_.size();
    records_.push_back(open_);
}

void RecordSpool::writeTo(RecordSink& sink) {
    const std::string_view text = text_;
    for (const Record& record : records_) {
        std::string& out =
            sink.beginRecord(text.substr(record.stream, record.members - record.stream));
        out.append(text.substr(record.members, record.timeExtracted - record.members));
        sink.endRecord(text.substr(record.timeExtracted, record.end - record.timeExtracted));
    }
    clear();
}

void RecordSpool::clear() {
    text_.clear();
    records_.clear();
}

}  // namespace tapdiffgen::core
