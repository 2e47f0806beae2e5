#include "singer/batch_writer.hpp"

#include <Poco/DeflatingStream.h>
#include <Poco/JSON/Object.h>
#include <Poco/UUIDGenerator.h>

#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "config/tap_config.hpp"
#include "singer/json_text.hpp"

namespace tapdiffgen::core {
namespace {

constexpr size_t kWriteChunk = 256u << 10;

}  // namespace

void checkBatchStorage(const BatchSettings& settings) {
    const std::string probe = settings.root + "/.tap-diffgen-probe-" + std::to_string(::getpid());
    std::FILE* file = std::fopen(probe.c_str(), "wb");
    if (!file) {
        throw ConfigError("batch_config: storage.root 'file://" + settings.root +
                          "' cannot be written: " + std::strerror(errno));
    }
    std::fclose(file);
    std::remove(probe.c_str());
}

struct BatchSink::StreamFile {
    std::string stream;
    std::string pending;  // lines not yet handed to the writing thread
    int64_t records = 0;
    int64_t sequence = 0;
    bool open = false;
    std::string path;
    std::ofstream out;
    std::unique_ptr<Poco::DeflatingOutputStream> gzip;

    std::ostream& sink() { return gzip ? static_cast<std::ostream&>(*gzip) : out; }
};

BatchSink::BatchSink(BatchSettings settings) : settings_(std::move(settings)) {
    syncId_ = Poco::UUIDGenerator::defaultGenerator().createRandom().toString();
    worker_ = std::thread([this] { work(); });
}

BatchSink::~BatchSink() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    worker_.join();
}

void BatchSink::work() {
    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (jobs_.empty()) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
            busy_ = true;
        }
        changed_.notify_all();
        std::string error;
        try {
            StreamFile& file = *job.file;
            file.sink().write(job.data.data(), static_cast<std::streamsize>(job.data.size()));
            if (job.close) {
                if (file.gzip) {
                    file.gzip->close();
                    file.gzip.reset();
                }
                file.out.close();
            }
            if (file.out.fail()) error = "cannot write batch file '" + file.path + "'";
        } catch (const std::exception& e) {
            error = "cannot write batch file '" + job.file->path + "': " + e.what();
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            busy_ = false;
            if (!error.empty() && failure_.empty()) failure_ = error;
        }
        changed_.notify_all();
    }
}

void BatchSink::submit(StreamFile& file, bool close) {
    std::unique_lock<std::mutex> lock(mutex_);
    // A few chunks in flight at most: memory stays bounded if the disk is slower.
    changed_.wait(lock, [this] { return jobs_.size() < 4; });
    Job job{&file, std::move(file.pending), close};
    jobs_.push_back(std::move(job));
    lock.unlock();
    changed_.notify_all();
    file.pending.clear();
    file.pending.reserve(kWriteChunk + (64u << 10));
}

void BatchSink::waitUntilIdle() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return jobs_.empty() && !busy_; });
    if (!failure_.empty()) throw std::runtime_error(failure_);
}

void BatchSink::open(StreamFile& file) {
    ++file.sequence;
    std::string name = file.stream;
    std::replace(name.begin(), name.end(), '/', '_');
    file.path = settings_.root + "/" + settings_.prefix + "tap-diffgen--" + name + "-" + syncId_ +
                "-" + std::to_string(file.sequence) + (settings_.gzip ? ".json.gz" : ".json");
    file.out.clear();
    file.out.open(file.path, std::ios::binary | std::ios::trunc);
    if (!file.out) throw std::runtime_error("cannot create batch file '" + file.path + "'");
    if (settings_.gzip) {
        file.gzip = std::make_unique<Poco::DeflatingOutputStream>(
            file.out, Poco::DeflatingStreamBuf::STREAM_GZIP, kBatchGzipLevel);
    }
    file.records = 0;
    file.open = true;
    file.pending.reserve(kWriteChunk + (64u << 10));
}

std::string& BatchSink::beginRecord(std::string_view stream) {
    if (!current_ || current_->stream != stream) {
        auto found = files_.find(std::string(stream));
        if (found == files_.end()) {
            auto file = std::make_unique<StreamFile>();
            file->stream = std::string(stream);
            found = files_.emplace(file->stream, std::move(file)).first;
        }
        current_ = found->second.get();
    }
    if (!current_->open) open(*current_);
    current_->pending.push_back('{');
    return current_->pending;
}

void BatchSink::endRecord(std::string& messages) {
    StreamFile& file = *current_;
    file.pending += "}\n";
    ++file.records;
    if (file.records >= settings_.batchSize) {
        submit(file, true);
        waitUntilIdle();
        file.open = false;
        announce(file, messages);
    } else if (file.pending.size() >= kWriteChunk) {
        submit(file, false);
    }
}

void BatchSink::announce(const StreamFile& file, std::string& messages) const {
    messages += R"({"type":"BATCH","stream":)";
    appendJsonString(messages, file.stream);
    messages += settings_.gzip
                    ? R"(,"encoding":{"format":"jsonl","compression":"gzip"},"manifest":[)"
                    : R"(,"encoding":{"format":"jsonl","compression":"none"},"manifest":[)";
    appendJsonString(messages, kFileScheme + file.path);
    messages += "]}\n";
}

void BatchSink::closeAll(std::string& messages) {
    std::vector<StreamFile*> closing;
    for (auto& [name, file] : files_) {
        if (!file->open) continue;
        submit(*file, true);
        closing.push_back(file.get());
    }
    if (closing.empty()) return;
    waitUntilIdle();
    for (StreamFile* file : closing) {
        file->open = false;
        announce(*file, messages);
    }
}

}  // namespace tapdiffgen::core
