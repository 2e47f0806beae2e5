// metrics_port: a real Prometheus server (tests/servers/prometheus.sh) scrapes the running tap,
// and the test reads the tap's metrics back through the server's HTTP API. A following tap is
// paused while rows are written, then resumed with its stdout left undrained, so that it blocks
// on the full pipe: its events behind rise above 0 while it is blocked and fall back to 0 once
// stdout is read. A snapshot's rows done reach the table's estimate. A port in use ends the run
// before any output, with one line naming metrics_port.
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/URI.h>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "dialect_fixture.hpp"
#include "support/listening_socket.hpp"

using namespace tapdiffgen::testing;

namespace {

using Clock = std::chrono::steady_clock;

std::string requiredEnv(const char* name) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') {
        throw std::runtime_error(std::string(name) + " is not set: run through ctest");
    }
    return value;
}

// The port the Prometheus server of tests/servers/prometheus.sh scrapes.
int metricsPort() { return std::stoi(requiredEnv("TDG_TEST_METRICS_PORT")); }

// Instant queries of the Prometheus server's HTTP API.
class PrometheusApi {
public:
    PrometheusApi() : uri_(requiredEnv("TDG_TEST_PROMETHEUS_URL")) {}

    /// The value of the query's first sample; nullopt when the result is empty.
    std::optional<double> value(const std::string& query) const {
        Poco::URI uri(uri_);
        uri.setPath("/api/v1/query");
        uri.addQueryParameter("query", query);
        Poco::Net::HTTPClientSession session(uri.getHost(), uri.getPort());
        session.setTimeout(Poco::Timespan(5, 0));
        Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_GET, uri.getPathAndQuery());
        session.sendRequest(request);
        Poco::Net::HTTPResponse response;
        std::istream& body = session.receiveResponse(response);
        std::stringstream text;
        text << body.rdbuf();
        REQUIRE_MESSAGE(response.getStatus() == Poco::Net::HTTPResponse::HTTP_OK, text.str());
        auto answer = Poco::JSON::Parser().parse(text.str()).extract<Poco::JSON::Object::Ptr>();
        REQUIRE(answer->getValue<std::string>("status") == "success");
        auto result = answer->getObject("data")->getArray("result");
        if (result->size() == 0) return std::nullopt;
        auto sample = result->getObject(0)->getArray("value");
        return std::stod(sample->getElement<std::string>(1));
    }

private:
    std::string uri_;
};

// The tap with its stdout on a pipe that the test reads only when it says so: left unread,
// the tap's writes block once the pipe's 64 KiB are full.
class PipedTap {
public:
    explicit PipedTap(const std::vector<std::string>& arguments) {
        int fds[2];
        REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
        stderrPath_ = stderrDir_.path() + "/stderr.log";
        pid_ = ::fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            ::dup2(fds[1], STDOUT_FILENO);
            const int err = ::open(stderrPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            ::dup2(err, STDERR_FILENO);
            std::vector<std::string> words{tapBinary()};
            words.insert(words.end(), arguments.begin(), arguments.end());
            std::vector<char*> argv;
            for (auto& word : words) argv.push_back(word.data());
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::close(fds[1]);
        out_ = fds[0];
        ::fcntl(out_, F_SETFL, O_NONBLOCK);
    }
    ~PipedTap() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        if (out_ >= 0) ::close(out_);
    }
    PipedTap(const PipedTap&) = delete;
    PipedTap& operator=(const PipedTap&) = delete;

    void signal(int number) const { ::kill(pid_, number); }

    /// Reads what stdout holds now, without waiting; false at its end.
    bool drain() {
        char buffer[65536];
        for (;;) {
            const ssize_t got = ::read(out_, buffer, sizeof(buffer));
            if (got > 0) {
                output_.append(buffer, static_cast<size_t>(got));
                continue;
            }
            return !(got == 0);
        }
    }

    /// SIGTERM, stdout read to its end, the exit collected.
    TapRun stop() {
        signal(SIGTERM);
        const auto deadline = Clock::now() + std::chrono::seconds(60);
        while (drain() && Clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        std::ifstream err(stderrPath_);
        std::stringstream errText;
        errText << err.rdbuf();
        TapRun run;
        run.setOutput(output_, errText.str());
        run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return run;
    }

private:
    ScratchDir stderrDir_;
    std::string stderrPath_;
    int pid_ = -1;
    int out_ = -1;
    std::string output_;
};

// Waits up to `seconds` for `holds`, calling `meanwhile` between tries.
bool waitFor(const std::function<bool()>& holds, const std::function<void()>& meanwhile,
             double seconds = 30) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < deadline) {
        if (holds()) return true;
        meanwhile();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return holds();
}

std::string series(const std::string& metric, const std::string& stream) {
    return metric + R"({job="tap-diffgen",stream=")" + stream + R"("})";
}

bool scraped(const PrometheusApi& prometheus) {
    const std::optional<double> up = prometheus.value(R"(up{job="tap-diffgen"})");
    return up && *up == 1;
}

int64_t maxDiffgenId(const JournalledSchema& schema) {
    return std::stoll(queryScalar(schema.env(), "SELECT max(id) FROM " + schema.diffgenTable()));
}

// Rows wide enough that a few thousand of them overflow a 64 KiB pipe many times over.
void insertWideRows(const JournalledSchema& schema, const std::string& table, int from, int to) {
    std::string values;
    for (int id = from; id <= to; ++id) {
        values +=
            (id > from ? ",(" : "(") + std::to_string(id) + ",'" + std::string(200, 'w') + "')";
    }
    schema.exec("INSERT INTO " + table + " VALUES " + values);
}

void eventsBehindRiseWhileBlockedAndFallWhenRead(const DatabaseEnv& env,
                                                 const std::string& prefix) {
    const PrometheusApi prometheus;
    JournalledSchema schema(env, prefix);
    schema.createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(250)", "id");
    const std::string table = schema.table("items");
    insertWideRows(schema, table, 1, 10);
    ScratchDir dir;
    const std::string config = schema.writeConfig(
        dir, {table},
        R"("follow":true,"poll_interval_seconds":0.2,"max_run_seconds":150,"metrics_port":)" +
            std::to_string(metricsPort()));
    PipedTap tap({"--config", config});
    const auto drain = [&tap] { tap.drain(); };
    const auto behind = [&] {
        return prometheus.value(series("tap_diffgen_events_behind", table));
    };

    if (!waitFor([&] { return scraped(prometheus); }, drain)) {
        const TapRun run = tap.stop();
        FAIL("Prometheus never scraped the tap's endpoint; the tap ended with exit code "
             << run.exitCode << " and said: " << run.stderrText);
    }
    REQUIRE(waitFor(
        [&] {
            const auto events = behind();
            const auto following =
                prometheus.value(R"(tap_diffgen_run_phase{job="tap-diffgen",phase="following"})");
            return events && *events == 0 && following && *following == 1;
        },
        drain));

    // Paused while the application writes, then resumed with nobody reading its stdout.
    constexpr int kRows = 3000;
    const int64_t bookmarkBefore = maxDiffgenId(schema);
    tap.signal(SIGSTOP);
    insertWideRows(schema, table, 11, 10 + kRows);
    tap.signal(SIGCONT);
    const auto nothing = [] {};
    std::optional<double> seen;
    CHECK_MESSAGE(waitFor(
                      [&] {
                          seen = behind();
                          return seen && *seen > 0;
                      },
                      nothing),
                  "events behind never rose above 0 while the tap was blocked on stdout");
    const std::optional<double> seconds =
        prometheus.value(series("tap_diffgen_seconds_behind", table));
    CHECK((seconds && *seconds > 0));
    // Blocked, the run's thread reads no page: the head probe alone sees these rows, and the
    // STATE before them is still the last one written.
    constexpr int kMoreRows = 5;
    insertWideRows(schema, table, 11 + kRows, 10 + kRows + kMoreRows);
    const int64_t head = maxDiffgenId(schema);
    CHECK_MESSAGE(waitFor(
                      [&] {
                          seen = behind();
                          return seen && *seen == static_cast<double>(head - bookmarkBefore);
                      },
                      nothing),
                  "events behind " << (seen ? *seen : -1) << ", expected " << head - bookmarkBefore
                                   << " (head " << head << ", bookmark " << bookmarkBefore << ")");
    const std::optional<double> bookmark =
        prometheus.value(series("tap_diffgen_bookmark_id", table));
    CHECK((bookmark && *bookmark == static_cast<double>(bookmarkBefore)));

    CHECK_MESSAGE(waitFor(
                      [&] {
                          const auto events = behind();
                          const auto age =
                              prometheus.value(series("tap_diffgen_seconds_behind", table));
                          return events && *events == 0 && age && *age == 0;
                      },
                      drain),
                  "events behind did not fall back to 0 once stdout was read");
    const std::optional<double> records =
        prometheus.value(series("tap_diffgen_records_total", table));
    CHECK((records && *records == 10 + kRows + kMoreRows));

    TapRun run = tap.stop();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(emittedIds(run, table).size() == static_cast<size_t>(10 + kRows + kMoreRows));
}

void snapshotRowsReachTheEstimate(const DatabaseEnv& env, const std::string& prefix) {
    const PrometheusApi prometheus;
    JournalledSchema schema(env, prefix);
    constexpr int kRows = 5000;
    const std::string table = schema.createNumberedItems(kRows);
    // The estimate the tap reads is the statistics' (reltuples, TABLE_ROWS).
    schema.exec(schema.isPostgres() ? "ANALYZE " + table : "ANALYZE TABLE " + table);
    ScratchDir dir;
    std::string config = schema.writeConfig(
        dir, {table},
        R"("follow":true,"poll_interval_seconds":0.2,"max_run_seconds":150,"page_size":500,)"
        R"("metrics_port":)" +
            std::to_string(metricsPort()));
    // The table starts with a snapshot.
    const std::string key = R"("pk_column":"id")";
    std::ifstream in(config);
    std::stringstream text;
    text << in.rdbuf();
    std::string json = text.str();
    json.replace(json.find(key), key.size(), key + R"(,"start_from":"snapshot")");
    config = dir.write("config.json", json);

    PipedTap tap({"--config", config});
    const auto drain = [&tap] { tap.drain(); };
    std::optional<double> done;
    std::optional<double> estimated;
    CHECK_MESSAGE(
        waitFor(
            [&] {
                done = prometheus.value(series("tap_diffgen_snapshot_rows_done", table));
                estimated = prometheus.value(series("tap_diffgen_snapshot_rows_estimated", table));
                return done && estimated && *done == kRows && *done >= *estimated;
            },
            drain),
        "rows done " << (done ? *done : -1) << ", estimated " << (estimated ? *estimated : -1));
    CHECK((estimated && *estimated > 0));
    TapRun run = tap.stop();
    CHECK_MESSAGE(run.exitCode == 0, run.stderrText);
    CHECK(emittedIds(run, table).size() == static_cast<size_t>(kRows));
}

void portInUseEndsTheRunBeforeAnyOutput(const DatabaseEnv& env, const std::string& prefix) {
    JournalledSchema schema(env, prefix);
    const std::string table = schema.createNumberedItems(3);
    const ListeningSocket taken;
    const int port = taken.port();
    ScratchDir dir;
    const std::string config =
        schema.writeConfig(dir, {table}, R"("metrics_port":)" + std::to_string(port));
    const TapRun run = runTapBinary({"--config", config});
    CHECK(run.exitCode != 0);
    CHECK(run.lines.empty());
    const std::string expected = "metrics_port " + std::to_string(port) +
                                 ": cannot listen on 127.0.0.1:" + std::to_string(port) +
                                 " for the metrics endpoint: Address already in use";
    CHECK_MESSAGE(run.stderrText.find(expected) != std::string::npos, run.stderrText);
    CHECK_MESSAGE(std::count(run.stderrText.begin(), run.stderrText.end(), '\n') == 1,
                  run.stderrText);
}

}  // namespace

TEST_CASE("postgres: metrics: events behind rise while the tap is blocked on stdout, then fall") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    eventsBehindRiseWhileBlockedAndFallWhenRead(db, "metrics_pg_follow");
}

TEST_CASE("mysql: metrics: events behind rise while the tap is blocked on stdout, then fall") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    eventsBehindRiseWhileBlockedAndFallWhenRead(db, "metrics_my_follow");
}

TEST_CASE("postgres: metrics: a snapshot's rows done reach the table's estimate") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    snapshotRowsReachTheEstimate(db, "metrics_pg_snap");
}

TEST_CASE("mysql: metrics: a snapshot's rows done reach the table's estimate") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    snapshotRowsReachTheEstimate(db, "metrics_my_snap");
}

TEST_CASE("postgres: metrics: a port in use ends the run before any output") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    portInUseEndsTheRunBeforeAnyOutput(db, "metrics_pg_port");
}

TEST_CASE("mysql: metrics: a port in use ends the run before any output") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    portInUseEndsTheRunBeforeAnyOutput(db, "metrics_my_port");
}
