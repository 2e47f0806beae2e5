#include "support/snapshot_interruptions.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <doctest/doctest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <random>
#include <thread>

#include "support/tap_process.hpp"

namespace tapdiffgen::testing {
namespace {

using Replica = std::map<int64_t, int64_t>;

// Changes the table until stopped: updates and deletes of random rows, inserts of new ones.
class Writers {
public:
    Writers(const InterruptedSnapshot& setup, uint32_t seed)
        : thread_([this, &setup, seed] {
              auto write = setup.openWriter();
              std::mt19937 random(seed);
              int64_t inserted = 0;
              while (!stop_) {
                  const int64_t id =
                      std::uniform_int_distribution<int64_t>(1, setup.rows + inserted)(random);
                  const int choice = std::uniform_int_distribution<int>(0, 9)(random);
                  std::string sql =
                      choice < 6 ? "UPDATE " + setup.table +
                                       " SET v = v + 1 WHERE id = " + std::to_string(id)
                      : choice < 8
                          ? "DELETE FROM " + setup.table + " WHERE id = " + std::to_string(id)
                          : "INSERT INTO " + setup.table + " (id, v, note) VALUES (" +
                                std::to_string(setup.rows + ++inserted) + ", 0, 'new')";
                  write(sql);
                  ++statements_;
                  std::this_thread::sleep_for(std::chrono::milliseconds(2));
              }
          }) {}
    ~Writers() { stop(); }
    void stop() {
        stop_ = true;
        if (thread_.joinable()) thread_.join();
    }
    int64_t statements() const { return statements_; }

private:
    std::atomic<bool> stop_{false};
    std::atomic<int64_t> statements_{0};
    std::thread thread_;
};

// A record a chunk wrote: read at the moment it was extracted, with no event behind it.
bool fromChunk(const Poco::JSON::Object::Ptr& message) {
    return message->getObject("record")->getValue<std::string>("_sdc_diffgen_ts_created") ==
           message->getValue<std::string>("time_extracted");
}

// The key a STATE says the snapshot resumes after, as the tap's log shows it.
std::optional<std::string> resumeKeyOf(const std::string& state, const std::string& stream) {
    if (state.empty()) return std::nullopt;
    auto value = Poco::JSON::Parser().parse(state).extract<Poco::JSON::Object::Ptr>();
    auto bookmark = value->getObject("bookmarks")->getObject(stream);
    if (!bookmark || !bookmark->has("snapshot")) return std::nullopt;
    auto key = bookmark->getObject("snapshot")->getArray("after_key");
    if (!key) return std::nullopt;
    return "[\"" + key->getElement<std::string>(0) + "\"]";
}

// Waits until the process has written about `bytes` more to stdout, or exited.
void waitForOutput(const TapProcess& process, size_t bytes) {
    const size_t until = process.stdoutSize() + bytes;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (process.stdoutSize() < until && !process.exited() &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

// What one run wrote: applied to the replica, the chunks' rows counted by key, and the rows
// chunks wrote after the run's last STATE (the ones the next run writes again).
struct RunResult {
    std::string state;
    int64_t chunkRowsAfterState = 0;
    int64_t records = 0;
};

RunResult apply(const TapRun& run, const std::string& stream, Replica& replica,
                std::map<int64_t, int>& chunkRowsById, std::string state) {
    RunResult result;
    for (const auto& line : run.lines) {
        Poco::JSON::Object::Ptr message;
        try {
            message = Poco::JSON::Parser().parse(line).extract<Poco::JSON::Object::Ptr>();
        } catch (const Poco::Exception&) {
            break;  // the line a kill cut short: a target discards it
        }
        const std::string type = message->getValue<std::string>("type");
        if (type == "STATE") {
            std::ostringstream value;
            message->getObject("value")->stringify(value);
            state = value.str();
            result.chunkRowsAfterState = 0;
            continue;
        }
        if (type != "RECORD" || message->getValue<std::string>("stream") != stream) continue;
        ++result.records;
        auto record = message->getObject("record");
        const auto id = record->getValue<int64_t>("id");
        if (record->getValue<bool>("is_deleted")) {
            replica.erase(id);
        } else {
            replica[id] = record->getValue<int64_t>("v");
        }
        if (fromChunk(message)) {
            ++chunkRowsById[id];
            ++result.chunkRowsAfterState;
        }
    }
    result.state = std::move(state);
    return result;
}

}  // namespace

void snapshotThroughInterruptions(const InterruptedSnapshot& setup) {
    const uint32_t seed = std::random_device{}();
    MESSAGE("seed " << seed);
    std::mt19937 random(seed);
    // A chunk's rows are about 150 to 200 bytes of output each: interrupt after a tenth of a
    // chunk to two chunks.
    std::uniform_int_distribution<size_t> outputBeforeInterruption(
        static_cast<size_t>(setup.chunkRows) * 15, static_cast<size_t>(setup.chunkRows) * 300);
    std::uniform_int_distribution<int> killDelay(0, setup.killDelayMs);
    ScratchDir dir;
    Writers writers(setup, seed);
    Replica replica;
    std::map<int64_t, int> chunkRowsById;
    std::string state;
    int interruptions = 0;
    // Runs that lost their connection to the server and went on with a new one.
    int reconnects = 0;
    while (interruptions < setup.interruptions) {
        const std::optional<std::string> resumeKey = resumeKeyOf(state, setup.stream);
        TapProcess process(setup.tapArguments(state.empty() ? "" : dir.write("state.json", state)));
        int ended = 0;
        if (setup.endSessions) {
            waitForOutput(process, outputBeforeInterruption(random));
            ended = setup.endSessions(process.pid());
            interruptions += ended > 0 ? 1 : 0;
        }
        waitForOutput(process, outputBeforeInterruption(random));
        // Output grows a chunk at a time (each flushed with its STATE): the kill lands
        // somewhere within the chunk after, not right behind a STATE.
        std::this_thread::sleep_for(std::chrono::milliseconds(killDelay(random)));
        if (process.exited()) {
            const TapRun ended = process.wait();
            FAIL("the run ended before it could be interrupted: " << ended.stderrText);
        }
        process.signal(SIGKILL);
        ++interruptions;
        TapRun run = process.wait();
        CAPTURE(run.stderrText);
        if (run.stderrText.find("connection lost") != std::string::npos) ++reconnects;
        RunResult result = apply(run, setup.stream, replica, chunkRowsById, state);
        // A run killed before its first record may not have got as far as the snapshot.
        if (resumeKey && result.records > 0) {
            CHECK(run.stderrText.find("resumes after key " + *resumeKey) != std::string::npos);
        }
        CHECK(result.chunkRowsAfterState <= setup.chunkRows);
        state = std::move(result.state);
        REQUIRE_MESSAGE(resumeKeyOf(state, setup.stream).has_value(),
                        "the snapshot ended after " << interruptions << " interruptions");
    }
    writers.stop();
    MESSAGE(interruptions << " interruptions (" << reconnects << " runs reconnected), "
                          << writers.statements() << " writes");
    if (setup.endSessions) CHECK(reconnects > 0);
    TapRun last = runTapBinary(setup.tapArguments(dir.write("state.json", state)));
    REQUIRE_MESSAGE(last.exitCode == 0, last.stderrText);
    apply(last, setup.stream, replica, chunkRowsById, state);
    CHECK(last.stderrText.find("snapshot of '" + setup.stream + "' done") != std::string::npos);
    int64_t writtenAgain = 0;
    for (const auto& [id, times] : chunkRowsById) writtenAgain += times - 1;
    MESSAGE(writtenAgain << " rows written again by the chunks of resumed runs");
    CHECK(interruptions >= 10);
    // Every row the table began with came from a chunk, but those a writer deleted first.
    CHECK(static_cast<int64_t>(chunkRowsById.size()) + writers.statements() >= setup.rows);
    CHECK(writtenAgain <= static_cast<int64_t>(interruptions) * setup.chunkRows);
    const Replica source = setup.sourceRows();
    CHECK(replica.size() == source.size());
    CHECK(replica == source);
}

}  // namespace tapdiffgen::testing
