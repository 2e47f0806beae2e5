// Follow-mode latency: writers commit one new row each at a steady rate (evenly spaced or as
// Poisson arrivals) or in bursts while the tap follows the log; each RECORD line is matched to
// its row, and the time from the commit's return to the line's arrival on the tap's stdout is
// one latency. Optionally a transaction that journals one more row is held open for a while
// mid-run: the other rows must keep flowing, and that row's own latency is counted from its
// commit. Before writing, the idle tap's CPU and the statements the server ran meanwhile are
// measured. Prints one Markdown table row (see tests/bench/README.md, "Follow latency"); a
// benchmark, not a test: it fails only when it cannot run.
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
#include <random>
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
    int writers = 1;
    double transactionMs = 0;  // mean time a write's transaction stays open after its INSERT
    bool poisson = false;
    int burst = 0;  // rows per burst; 0: a steady rate
    double burstGap = 3;
    double warmup = 0;
    double idleSeconds = 5;
    uint64_t seed = 1;
    std::string tap;
    std::string tapLog = "/dev/null";
    std::string logLevel = "info";
};

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "latency_bench: " << problem << "\n"
              << "usage: latency_bench --tap PATH [--dialect postgres|mysql|sqlite] [--rate N]\n"
              << "       [--seconds S] [--hold S] [--notify] [--poll-interval S] [--tap-log FILE]\n"
              << "       [--log-level debug|info|warning|error] [--writers N] [--poisson]\n"
              << "       [--transaction-ms MS]\n"
              << "       [--burst ROWS --burst-gap S] [--warmup S] [--idle S] [--seed N]\n";
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
        } else if (flag == "--writers") {
            options.writers = std::stoi(value());
        } else if (flag == "--transaction-ms") {
            options.transactionMs = std::stod(value());
        } else if (flag == "--poisson") {
            options.poisson = true;
        } else if (flag == "--burst") {
            options.burst = std::stoi(value());
        } else if (flag == "--burst-gap") {
            options.burstGap = std::stod(value());
        } else if (flag == "--warmup") {
            options.warmup = std::stod(value());
        } else if (flag == "--idle") {
            options.idleSeconds = std::stod(value());
        } else if (flag == "--seed") {
            options.seed = std::stoull(value());
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
    if (options.writers < 1) usage("--writers must be >= 1");
    if (options.writers > 1 && options.dialect == "sqlite")
        usage("SQLite has one writer at a time: --writers must be 1");
    if (options.burst < 0 || options.burstGap <= 0) usage("--burst-gap must be > 0");
    if (options.warmup < 0 || options.idleSeconds <= 0) usage("--idle must be > 0");
    return options;
}

// The writer's side of one database: a kept connection that commits one statement at a time.
class Database {
public:
    virtual ~Database() = default;
    virtual void run(const std::string& sql) = 0;
    virtual std::string table() const = 0;
    /// Another connection of the application's, for one more writer.
    virtual std::unique_ptr<Database> anotherWriter() = 0;
    /// A server-wide count of the statements run so far (MariaDB's Questions, PostgreSQL's
    /// committed transactions of the database), counting the one that reads it; none for SQLite.
    virtual std::optional<int64_t> statementsSoFar() { return std::nullopt; }
    /// A transaction that journals `sql` and stays open until commit().
    virtual std::unique_ptr<HeldTransaction> hold(const std::string& sql) = 0;
    /// The tap's config file.
    virtual std::string config(const std::string& extra) = 0;
};

// A writer's own connection to a server database whose table another object made.
class ServerWriter : public Database {
public:
    ServerWriter(const DatabaseEnv& env, std::string table)
        : session_(env), table_(std::move(table)) {}
    void run(const std::string& sql) override { session_.run(sql); }
    std::string table() const override { return table_; }
    std::unique_ptr<Database> anotherWriter() override {
        throw std::logic_error("only the database makes writers");
    }
    std::unique_ptr<HeldTransaction> hold(const std::string&) override {
        throw std::logic_error("only the database holds transactions");
    }
    std::string config(const std::string&) override {
        throw std::logic_error("only the database writes the config");
    }

private:
    DatabaseSession session_;
    std::string table_;
};

class ServerDatabase : public Database {
public:
    explicit ServerDatabase(const DatabaseEnv& env) : env_(env), schema_(env, "bench_latency") {
        schema_.createTable("items", "id INTEGER PRIMARY KEY, note VARCHAR(20)", "id");
        session_ = std::make_unique<DatabaseSession>(env);
    }
    void run(const std::string& sql) override { session_->run(sql); }
    std::string table() const override { return schema_.table("items"); }
    std::unique_ptr<Database> anotherWriter() override {
        return std::make_unique<ServerWriter>(env_, table());
    }
    std::optional<int64_t> statementsSoFar() override {
        const std::string sql =
            env_.dialect == "postgres"
                ? "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                : "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
                  "WHERE VARIABLE_NAME = 'QUESTIONS'";
        return std::stoll(session_->value(sql));
    }
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
    std::unique_ptr<Database> anotherWriter() override {
        throw std::logic_error("SQLite has one writer");
    }
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

// When each change is due, in seconds from the start of writing: evenly spaced, Poisson
// arrivals at the same mean rate, or bursts of `burst` changes at once every `burstGap` seconds.
std::vector<double> dueTimes(const Options& options) {
    const double total = options.warmup + options.seconds;
    std::vector<double> due;
    if (options.burst > 0) {
        for (double at = 0; at < total; at += options.burstGap)
            due.insert(due.end(), options.burst, at);
    } else if (options.poisson) {
        std::mt19937_64 random(options.seed);
        std::exponential_distribution<double> gap(options.rate);
        for (double at = gap(random); at < total; at += gap(random)) due.push_back(at);
    } else {
        for (int64_t k = 0; static_cast<double>(k) / options.rate < total; ++k)
            due.push_back(static_cast<double>(k) / options.rate);
    }
    return due;
}

std::string patternOf(const Options& options) {
    std::ostringstream text;
    if (options.burst > 0) {
        text << options.burst << " every " << options.burstGap << " s";
    } else {
        text << options.rate << "/s" << (options.poisson ? " poisson" : "");
    }
    if (options.transactionMs > 0) text << ", txn ~" << options.transactionMs << " ms";
    return text.str();
}

// The statements the server ran per second while the tap idled, less the reads of the count.
std::string idleStatementsPerSecond(Database& database, double seconds) {
    const std::optional<int64_t> before = database.statementsSoFar();
    const auto start = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    const std::optional<int64_t> after = database.statementsSoFar();
    if (!before || !after) return "-";
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", static_cast<double>(*after - *before - 1) / elapsed);
    return text;
}

int run(const Options& options) {
    const std::string channel = "bench_latency_changes";
    std::unique_ptr<Database> database = openDatabase(options, channel);
    std::ostringstream extra;
    const std::vector<double> due = dueTimes(options);
    extra << R"("log_level":")" << options.logLevel << R"(","follow":true,)"
          << R"("poll_interval_seconds":)" << options.pollInterval << R"(,"max_run_seconds":)"
          << static_cast<int64_t>(options.warmup + options.seconds + options.holdSeconds + 120);
    if (options.notify) extra << R"(,"notify_channel":")" << channel << '"';
    FollowingTap tap(options.tap, database->config(extra.str()), options.tapLog);
    for (int i = 0; i < 600 && !tap.atHead(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!tap.atHead()) throw std::runtime_error("the tap did not reach the log's head");

    std::vector<std::unique_ptr<Database>> writers;
    writers.push_back(nullptr);
    for (int w = 1; w < options.writers; ++w) writers.push_back(database->anotherWriter());

    // Idle first: the poll schedule grows to its bound.
    std::this_thread::sleep_for(std::chrono::seconds(3));
    const double idleCpuBefore = cpuSeconds(tap.pid());
    const auto idleStart = Clock::now();
    const std::string idleStatements = idleStatementsPerSecond(*database, options.idleSeconds);
    const double idleCpu = (cpuSeconds(tap.pid()) - idleCpuBefore) /
                           std::chrono::duration<double>(Clock::now() - idleStart).count();

    const int64_t changes = static_cast<int64_t>(due.size());
    const int64_t heldId = changes + 1000000;
    std::vector<Clock::time_point> committed(static_cast<size_t>(changes) + 1);
    const double cpuBefore = cpuSeconds(tap.pid());
    const auto start = Clock::now();
    auto at = [&](double seconds) {
        return start +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    };
    // Writer w commits the changes w + 1, w + 1 + writers, ...: each on its own connection.
    std::vector<std::thread> threads;
    std::atomic<bool> writeFailed{false};
    for (int w = 0; w < options.writers; ++w) {
        Database* writer = w == 0 ? database.get() : writers[static_cast<size_t>(w)].get();
        threads.emplace_back([&, w, writer, table = database->table()] {
            // Exponential: transactions end in another order than they took their ids.
            std::mt19937_64 random(options.seed + static_cast<uint64_t>(w) + 1);
            std::exponential_distribution<double> openMs(1 / std::max(options.transactionMs, 1e-9));
            try {
                for (int64_t id = w + 1; id <= changes; id += options.writers) {
                    std::this_thread::sleep_until(at(due[static_cast<size_t>(id - 1)]));
                    const std::string insert =
                        "INSERT INTO " + table + " VALUES (" + std::to_string(id) + ", 'n')";
                    if (options.transactionMs > 0) {
                        // The journal's id is taken at the INSERT, visible at the COMMIT.
                        writer->run("BEGIN");
                        writer->run(insert);
                        std::this_thread::sleep_for(
                            std::chrono::duration<double, std::milli>(openMs(random)));
                        writer->run("COMMIT");
                    } else {
                        writer->run(insert);
                    }
                    committed[static_cast<size_t>(id)] = Clock::now();
                }
            } catch (const std::exception& failure) {
                std::cerr << "latency_bench: writer " << w << ": " << failure.what() << "\n";
                writeFailed = true;
            }
        });
    }
    std::unique_ptr<HeldTransaction> held;
    Clock::time_point heldCommitted{};
    if (options.holdSeconds > 0) {
        const double middle = options.warmup + options.seconds / 2;
        std::this_thread::sleep_until(at(middle - options.holdSeconds / 2));
        held = database->hold("INSERT INTO " + database->table() + " VALUES (" +
                              std::to_string(heldId) + ", 'held')");
        std::this_thread::sleep_until(at(middle + options.holdSeconds / 2));
        held->commit();
        heldCommitted = Clock::now();
    }
    for (std::thread& thread : threads) thread.join();
    if (writeFailed) throw std::runtime_error("a writer failed");
    const double writeSeconds = std::chrono::duration<double>(Clock::now() - start).count();

    const auto drainDeadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(options.pollInterval + 10));
    auto allSeen = [&] {
        for (int64_t id = 1; id <= changes; ++id)
            if (!tap.seen(id)) return false;
        return !held || tap.seen(heldId).has_value();
    };
    while (Clock::now() < drainDeadline && !allSeen()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const double busyCpu = (cpuSeconds(tap.pid()) - cpuBefore) /
                           std::chrono::duration<double>(Clock::now() - start).count();
    const double rss = peakRssMiB(tap.pid());

    std::vector<double> latencies;
    int64_t missing = 0;
    int64_t measured = 0;
    for (int64_t id = 1; id <= changes; ++id) {
        auto arrived = tap.seen(id);
        if (!arrived) {
            ++missing;
            continue;
        }
        if (due[static_cast<size_t>(id - 1)] < options.warmup) continue;
        ++measured;
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
        "| %s | %s | %s | %d | %.0f | %.0f | %.1f | %lld | %lld | %.1f | %.1f | %.1f | %s | %zu | "
        "%s | %.2f | %.1f | %.1f | %d |\n",
        options.dialect.c_str(), options.notify ? "notify" : "poll", patternOf(options).c_str(),
        options.writers, static_cast<double>(changes) / writeSeconds, options.holdSeconds,
        options.pollInterval, static_cast<long long>(measured), static_cast<long long>(missing),
        percentile(latencies, 0.5), percentile(latencies, 0.99),
        latencies.empty() ? NAN : latencies.back(), heldLatency.c_str(), duplicates,
        idleStatements.c_str(), idleCpu * 100, busyCpu * 100, rss, exitCode);
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
