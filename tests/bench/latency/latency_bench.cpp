// Follow-mode latency: a writer commits one new row at a steady rate while the tap follows the
// log; each RECORD line is matched to its row, and the time from the commit's return to the
// line's arrival on the tap's stdout is one latency. Optionally a transaction that journals
// one more row is held open for a while mid-run: the other rows must keep flowing, and that
// row's own latency is counted from its commit. Prints one Markdown table row (see
// tests/bench/README.md, "Follow latency"); a benchmark, not a test: it fails only when it
// cannot run.
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "dialect_fixture.hpp"
#include "support/database_session.hpp"
#include "support/held_transaction.hpp"
#include "support/sqlite_journal.hpp"

using namespace tapdiffgen::testing;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string dialect = "postgres";
    double rate = 200;
    double seconds = 5;
    double holdSeconds = 0;
    bool notify = false;
    double pollInterval = 1;
    std::string tap;
    std::string tapLog = "/dev/null";
    std::string logLevel = "info";
};

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "latency_bench: " << problem << "\n"
              << "usage: latency_bench --tap PATH [--dialect postgres|mysql|sqlite] [--rate N]\n"
              << "       [--seconds S] [--hold S] [--notify] [--poll-interval S] [--tap-log FILE]\n"
              << "       [--log-level debug|info|warning|error]\n";
    std::exit(2);
}

Options parseOptions(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(flag + " needs a value");
            return argv[++i];
        };
        if (flag == "--dialect") {
            options.dialect = value();
        } else if (flag == "--rate") {
            options.rate = std::stod(value());
        } else if (flag == "--seconds") {
            options.seconds = std::stod(value());
        } else if (flag == "--hold") {
            options.holdSeconds = std::stod(value());
        } else if (flag == "--notify") {
            options.notify = true;
        } else if (flag == "--poll-interval") {
            options.pollInterval = std::stod(value());
        } else if (flag == "--tap") {
            options.tap = value();
        } else if (flag == "--tap-log") {
            options.tapLog = value();
        } else if (flag == "--log-level") {
            options.logLevel = value();
        } else {
            usage("unknown option " + flag);
        }
    }
    if (options.tap.empty()) usage("--tap is required");
    if (options.dialect != "postgres" && options.dialect != "mysql" && options.dialect != "sqlite")
        usage("unknown dialect " + options.dialect);
    if (options.notify && options.dialect != "postgres") usage("--notify is for postgres only");
    if (options.holdSeconds > 0 && options.dialect == "sqlite")
        usage("SQLite has one writer at a time: --hold would block the writer");
    if (options.rate <= 0 || options.seconds <= 0) usage("--rate and --seconds must be > 0");
    return options;
}

// The writer's side of one database: a kept connection that commits one statement at a time.
class Database {
public:
    virtual ~Database() = default;
    virtual void run(const std::string& sql) = 0;
    virtual std::string table() const = 0;
    /// A transaction that journals `sql` and stays open until commit().
    virtual std::unique_ptr<HeldTransaction> hold(const std::string& sql) = 0;
    /// The tap's config file.
    virtual std::string config(const std::string& extra) = 0;
};

class ServerDatabase : public Database {
public:
    explicit ServerDatabase(const DatabaseEnv& env) : env_(env), schema_(env, "bench_latency") {
        schema_.createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
        session_ = std::make_unique<DatabaseSession>(env);
    }
    void run(const std::string& sql) override { session_->run(sql); }
    std::string table() const override { return schema_.table("items"); }
    std::unique_ptr<HeldTransaction> hold(const std::string& sql) override {
        return std::make_unique<HeldTransaction>(env_, sql);
    }
    std::string config(const std::string& extra) override {
        return schema_.writeConfig(dir_, {table()}, extra);
    }
    void enableNotifications(const std::string& channel) {
        schema_.exec(
            "CREATE TRIGGER bench_latency_notify AFTER INSERT ON " + schema_.diffgenTable() +
            " FOR EACH STATEMENT EXECUTE FUNCTION bench_latency_diffgen_notify('" + channel + "')");
    }

private:
    DatabaseEnv env_;
    JournalledSchema schema_;
    ScratchDir dir_;
    std::unique_ptr<DatabaseSession> session_;
};

std::string readFile(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error("cannot read " + path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

class SqliteDatabase : public Database {
public:
    SqliteDatabase() : path_(dir_.path() + "/bench.db") {
        if (sqlite3_open(path_.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("sqlite");
        sqlite3_busy_timeout(db_, 5000);
        // One fsync per commit would cap the writer near 300 commits/s on this disk.
        run("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
        run(readFile(std::string(TDG_DIFFGEN_SQL_DIR) + "/sqlite.sql"));
        run("CREATE TABLE items (id INTEGER PRIMARY KEY, note TEXT)");
        journalSqliteTable(db_, "items");
    }
    ~SqliteDatabase() override { sqlite3_close(db_); }
    void run(const std::string& sql) override {
        char* message = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
            std::string text = message != nullptr ? message : "unknown error";
            sqlite3_free(message);
            throw std::runtime_error("sqlite: " + text);
        }
    }
    std::string table() const override { return "items"; }
    std::unique_ptr<HeldTransaction> hold(const std::string&) override {
        throw std::logic_error("no held transaction on SQLite");
    }
    std::string config(const std::string& extra) override {
        return dir_.write("config.json", R"({"sql_dialect":"sqlite","database":")" + path_ +
                                             R"(","tables":[{"table_name":"items",)"
                                             R"("pk_column":"id"}],)" +
                                             extra + "}");
    }

private:
    ScratchDir dir_;
    std::string path_;
    sqlite3* db_ = nullptr;
};

// The tap with its stdout on a pipe; a thread stamps each RECORD line as it arrives.
class FollowingTap {
public:
    FollowingTap(const std::string& binary, const std::string& config, const std::string& log) {
        int out[2];
        if (pipe(out) != 0) throw std::runtime_error("pipe failed");
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            dup2(out[1], 1);
            int err = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
            if (err >= 0) dup2(err, 2);
            close(out[0]);
            close(out[1]);
            execl(binary.c_str(), binary.c_str(), "--config", config.c_str(),
                  static_cast<char*>(nullptr));
            _exit(127);
        }
        close(out[1]);
        reader_ = std::thread([this, fd = out[0]] { readLines(fd); });
    }
    ~FollowingTap() {
        stop();
        if (reader_.joinable()) reader_.join();
    }

    int pid() const { return pid_; }
    bool atHead() const { return states_.load() > 0; }
    std::optional<Clock::time_point> seen(int64_t id) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto found = arrivals_.find(id);
        if (found == arrivals_.end()) return std::nullopt;
        return found->second;
    }
    size_t duplicates() {
        std::lock_guard<std::mutex> lock(mutex_);
        return duplicates_;
    }
    int stop() {
        if (pid_ <= 0) return exit_;
        kill(pid_, SIGTERM);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        exit_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_;
    }

private:
    int pid_ = -1;
    int exit_ = 0;
    std::thread reader_;
    std::mutex mutex_;
    std::map<int64_t, Clock::time_point> arrivals_;
    size_t duplicates_ = 0;
    std::atomic<int> states_{0};

    void readLines(int fd) {
        std::string pending;
        char buffer[65536];
        for (;;) {
            ssize_t got = read(fd, buffer, sizeof buffer);
            if (got <= 0) break;
            const auto now = Clock::now();
            pending.append(buffer, static_cast<size_t>(got));
            size_t start = 0;
            for (size_t end; (end = pending.find('\n', start)) != std::string::npos;
                 start = end + 1) {
                note(std::string_view(pending).substr(start, end - start), now);
            }
            pending.erase(0, start);
        }
        close(fd);
    }

    void note(std::string_view line, Clock::time_point now) {
        if (line.find(R"("type":"STATE")") != std::string_view::npos) ++states_;
        if (line.find(R"("type":"RECORD")") == std::string_view::npos) return;
        const size_t at = line.find(R"("id":)");
        if (at == std::string_view::npos) return;
        const int64_t id = std::strtoll(line.data() + at + 5, nullptr, 10);
        std::lock_guard<std::mutex> lock(mutex_);
        if (!arrivals_.emplace(id, now).second) ++duplicates_;
    }
};

// utime + stime of a process, in seconds.
double cpuSeconds(int pid) {
    std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
    std::istringstream fields(stat.substr(stat.rfind(')') + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {
        if (i == 14 || i == 15) ticks += std::stod(field);
    }
    return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double peakRssMiB(int pid) {
    std::istringstream status(readFile("/proc/" + std::to_string(pid) + "/status"));
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
    }
    return 0;
}

double milliseconds(Clock::duration duration) {
    return std::chrono::duration<double, std::milli>(duration).count();
}

double percentile(const std::vector<double>& sorted, double fraction) {
    if (sorted.empty()) return NAN;
    size_t rank = static_cast<size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size(), std::max<size_t>(rank, 1)) - 1];
}

std::unique_ptr<Database> openDatabase(const Options& options, const std::string& channel) {
    if (options.dialect == "sqlite") return std::make_unique<SqliteDatabase>();
    std::optional<DatabaseEnv> env = options.dialect == "postgres" ? postgresEnv() : mysqlEnv();
    if (!env) throw std::runtime_error("TDG_TEST_* is not set: start the servers first");
    auto database = std::make_unique<ServerDatabase>(*env);
    if (options.notify) database->enableNotifications(channel);
    return database;
}

int run(const Options& options) {
    const std::string channel = "bench_latency_changes";
    std::unique_ptr<Database> database = openDatabase(options, channel);
    std::ostringstream extra;
    extra << R"("log_level":")" << options.logLevel << R"(","follow":true,)"
          << R"("poll_interval_seconds":)" << options.pollInterval << R"(,"max_run_seconds":)"
          << static_cast<int64_t>(options.seconds + options.holdSeconds + 120);
    if (options.notify) extra << R"(,"notify_channel":")" << channel << '"';
    FollowingTap tap(options.tap, database->config(extra.str()), options.tapLog);
    for (int i = 0; i < 600 && !tap.atHead(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!tap.atHead()) throw std::runtime_error("the tap did not reach the log's head");

    // Idle first: the poll schedule grows to its bound.
    std::this_thread::sleep_for(std::chrono::seconds(3));
    const double idleCpuBefore = cpuSeconds(tap.pid());
    const auto idleStart = Clock::now();
    std::this_thread::sleep_for(std::chrono::seconds(5));
    const double idleCpu = (cpuSeconds(tap.pid()) - idleCpuBefore) /
                           std::chrono::duration<double>(Clock::now() - idleStart).count();

    const int64_t changes = static_cast<int64_t>(options.rate * options.seconds);
    const int64_t heldId = changes + 1000000;
    std::vector<Clock::time_point> committed(static_cast<size_t>(changes) + 1);
    std::unique_ptr<HeldTransaction> held;
    Clock::time_point heldCommitted{};
    const auto interval = std::chrono::duration<double>(1.0 / options.rate);
    const double cpuBefore = cpuSeconds(tap.pid());
    const auto start = Clock::now();
    for (int64_t id = 1; id <= changes; ++id) {
        std::this_thread::sleep_until(
            start + std::chrono::duration_cast<Clock::duration>(interval * (id - 1)));
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (options.holdSeconds > 0 && !held &&
            elapsed >= options.seconds / 2 - options.holdSeconds / 2) {
            held = database->hold("INSERT INTO " + database->table() + " VALUES (" +
                                  std::to_string(heldId) + ", 'held')");
        }
        if (held && heldCommitted == Clock::time_point{} &&
            elapsed >= options.seconds / 2 + options.holdSeconds / 2) {
            held->commit();
            heldCommitted = Clock::now();
        }
        database->run("INSERT INTO " + database->table() + " VALUES (" + std::to_string(id) +
                      ", 'n')");
        committed[static_cast<size_t>(id)] = Clock::now();
    }
    if (held && heldCommitted == Clock::time_point{}) {
        held->commit();
        heldCommitted = Clock::now();
    }
    const double writeSeconds = std::chrono::duration<double>(Clock::now() - start).count();

    const auto drainDeadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.pollInterval + 10));
    while (Clock::now() < drainDeadline && (!tap.seen(changes) || (held && !tap.seen(heldId)))) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const double busyCpu = (cpuSeconds(tap.pid()) - cpuBefore) /
                           std::chrono::duration<double>(Clock::now() - start).count();
    const double rss = peakRssMiB(tap.pid());

    std::vector<double> latencies;
    int64_t missing = 0;
    for (int64_t id = 1; id <= changes; ++id) {
        auto arrived = tap.seen(id);
        if (!arrived) {
            ++missing;
            continue;
        }
        latencies.push_back(milliseconds(*arrived - committed[static_cast<size_t>(id)]));
    }
    std::sort(latencies.begin(), latencies.end());
    std::string heldLatency = "-";
    if (held) {
        auto arrived = tap.seen(heldId);
        heldLatency =
            arrived ? std::to_string(static_cast<int64_t>(milliseconds(*arrived - heldCommitted)))
                    : "missing";
    }
    const size_t duplicates = tap.duplicates();
    const int exitCode = tap.stop();

    std::printf(
        "| %s | %s | %.0f | %.0f | %.0f | %.1f | %lld | %lld | %.1f | %.1f | %.1f | %s | %zu | "
        "%.2f | %.1f | %.1f | %d |\n",
        options.dialect.c_str(), options.notify ? "notify" : "poll", options.rate,
        static_cast<double>(changes) / writeSeconds, options.holdSeconds, options.pollInterval,
        static_cast<long long>(changes), static_cast<long long>(missing),
        percentile(latencies, 0.5), percentile(latencies, 0.99),
        latencies.empty() ? NAN : latencies.back(), heldLatency.c_str(), duplicates, idleCpu * 100,
        busyCpu * 100, rss, exitCode);
    return missing == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parseOptions(argc, argv);
    try {
        return run(options);
    } catch (const std::exception& failure) {
        std::cerr << "latency_bench: " << failure.what() << "\n";
        return 1;
    }
}
