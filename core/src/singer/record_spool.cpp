#include "singer/record_spool.hpp"

namespace tapdiffgen::core {
namespace {

constexpr size_t kBlockSize = size_t{1} << 20;
// A record starts a new block when less than this is left: most records fit in what remains,
// and a larger one only grows its block.
constexpr size_t kRecordRoom = size_t{16} << 10;

}  // namespace

std::string& RecordSpool::blockForRecord() {
    if (blocks_.empty() || blocks_[block_].size() + kRecordRoom > kBlockSize) {
        if (!blocks_.empty()) ++block_;
        if (block_ == blocks_.size()) blocks_.emplace_back().reserve(kBlockSize);
    }
    return blocks_[block_];
}

std::string& RecordSpool::beginRecord(std::string_view stream) {
    std::string& text = blockForRecord();
    open_.block = block_;
    open_.stream = text.size();
    text += stream;
    open_.members = text.size();
    return text;
}

void RecordSpool::endRecord(std::string_view timeExtracted) {
    std::string& text = blocks_[open_.block];
    open_.timeExtracted = text.size();
    text += timeExtracted;
    open_.end = text.size();
    records_.push_back(open_);
}

size_t RecordSpool::memberBytes() const {
    size_t bytes = 0;
    for (const Record& record : records_) bytes += record.timeExtracted - record.members;
    return bytes;
}

void RecordSpool::writeTo(RecordSink& sink) {
    for (const Record& record : records_) {
        const std::string_view text = blocks_[record.block];
        std::string& out =
            sink.beginRecord(text.substr(record.stream, record.members - record.stream));
        out.append(text.substr(record.members, record.timeExtracted - record.members));
        sink.endRecord(text.substr(record.timeExtracted, record.end - record.timeExtracted));
    }
    clear();
}

void RecordSpool::clear() {
    for (std::string& block : blocks_) block.clear();
    block_ = 0;
    records_.clear();
}

}  // namespace tapdiffgen::core
