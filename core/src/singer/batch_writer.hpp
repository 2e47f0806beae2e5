// BATCH messages as the Meltano Singer SDK writes them: records go to JSON-lines files (gzip or
// plain) under a file:// storage root, batch_size records a file, and each file is announced by
// {"type":"BATCH","stream":…,"encoding":{…},"manifest":["file://…"]} once it is complete and
// closed. The message writer closes every open file before it writes a STATE, so a STATE never
// precedes the BATCH of the records it covers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "config/batch_settings.hpp"

namespace tapdiffgen::core {

/// Checks at start-up that files can be created under the storage root. Throws ConfigError.
void checkBatchStorage(const BatchSettings& settings);

/// zlib level of the batch files: the fastest, so that compressing keeps up with the tap.
inline constexpr int kBatchGzipLevel = 1;

class BatchSink {
public:
    explicit BatchSink(BatchSettings settings);
    ~BatchSink();

    /// The line buffer of `stream`'s current file, an object opened: the caller appends the
    /// record's members, then calls endRecord.
    std::string& beginRecord(std::string_view stream);
    /// Ends the record; when its file is full, closes it and appends its BATCH message to
    /// `messages`.
    void endRecord(std::string& messages);
    /// Closes every open file and appends their BATCH messages to `messages`.
    void closeAll(std::string& messages);

private:
    struct StreamFile;
    // Compressing and writing happen on a thread of their own, so they overlap with the
    // database's work and the rendering of the next rows.
    struct Job {
        StreamFile* file;
        std::string data;
        bool close;
    };

    BatchSettings settings_;
    std::string syncId_;
    std::unordered_map<std::string, std::unique_ptr<StreamFile>> files_;
    StreamFile* current_ = nullptr;

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Job> jobs_;
    bool stopping_ = false;
    bool busy_ = false;
    std::string failure_;
    std::thread worker_;

    void open(StreamFile& file);
    void submit(StreamFile& file, bool close);
    void waitUntilIdle();
    void work();
    void announce(const StreamFile& file, std::string& messages) const;
};

}  // namespace tapdiffgen::core
