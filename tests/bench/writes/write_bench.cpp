// The application's single-row writes against MariaDB/MySQL, as writes.sh measures them: one
// server-side prepared statement with one parameter, the key, run once for each key of a range,
// each execution its own autocommit transaction, one at a time. The MariaDB counterpart of
// `pgbench -M prepared -l` with a custom script. Every execution must change exactly one row,
// so a range that misses its rows fails instead of measuring nothing. Prints "<rows> <seconds>
// <median seconds>": the executions' total and the median execution's time (connecting and
// preparing left out) on stdout; a benchmark, not a test.
#include <mysql.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    std::string host = "127.0.0.1";
    unsigned port = 3306;
    std::string user;
    std::string database;
    std::string sql;
    long long first = 1;
    long long count = 0;
};

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "write_bench: " << problem << "\n"
              << "usage: MYSQL_PWD=... write_bench --port P --user U --database D --sql SQL\n"
              << "       --first K --count N [--host H]\n"
              << "  SQL has one '?', the key; it runs for keys K .. K+N-1.\n";
    std::exit(2);
}

long long number(const std::string& name, const char* text) {
    char* end = nullptr;
    long long value = std::strtoll(text, &end, 10);
    if (end == text || *end != '\0') usage(name + " expects a number, got '" + text + "'");
    return value;
}

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) usage(flag + " needs a value");
        const char* value = argv[++i];
        if (flag == "--host") {
            options.host = value;
        } else if (flag == "--port") {
            options.port = static_cast<unsigned>(number(flag, value));
        } else if (flag == "--user") {
            options.user = value;
        } else if (flag == "--database") {
            options.database = value;
        } else if (flag == "--sql") {
            options.sql = value;
        } else if (flag == "--first") {
            options.first = number(flag, value);
        } else if (flag == "--count") {
            options.count = number(flag, value);
        } else {
            usage("unknown option " + flag);
        }
    }
    if (options.user.empty() || options.database.empty() || options.sql.empty()) {
        usage("--user, --database and --sql are required");
    }
    if (options.count <= 0) usage("--count must be positive");
    return options;
}

struct ConnectionCloser {
    void operator()(MYSQL* connection) const { mysql_close(connection); }
};
struct StatementCloser {
    void operator()(MYSQL_STMT* statement) const { mysql_stmt_close(statement); }
};
using Connection = std::unique_ptr<MYSQL, ConnectionCloser>;
using Statement = std::unique_ptr<MYSQL_STMT, StatementCloser>;

Connection connect(const Options& options) {
    Connection connection(mysql_init(nullptr));
    if (!connection) throw std::runtime_error("mysql_init failed");
    const char* password = std::getenv("MYSQL_PWD");
    if (mysql_real_connect(connection.get(), options.host.c_str(), options.user.c_str(), password,
                           options.database.c_str(), options.port, nullptr, 0) == nullptr) {
        throw std::runtime_error("connecting: " + std::string(mysql_error(connection.get())));
    }
    if (mysql_autocommit(connection.get(), 1) != 0) {
        throw std::runtime_error("autocommit: " + std::string(mysql_error(connection.get())));
    }
    return connection;
}

Statement prepare(MYSQL* connection, const std::string& sql) {
    Statement statement(mysql_stmt_init(connection));
    if (!statement) throw std::runtime_error("mysql_stmt_init failed");
    if (mysql_stmt_prepare(statement.get(), sql.data(), sql.size()) != 0) {
        throw std::runtime_error("preparing: " + std::string(mysql_stmt_error(statement.get())));
    }
    if (mysql_stmt_param_count(statement.get()) != 1) {
        throw std::runtime_error("the statement must have exactly one '?', the key");
    }
    return statement;
}

// Runs the statement for every key; returns each execution's seconds, in key order.
std::vector<double> run(MYSQL_STMT* statement, const Options& options) {
    long long key = 0;
    MYSQL_BIND bind{};
    bind.buffer_type = MYSQL_TYPE_LONGLONG;
    bind.buffer = &key;
    if (mysql_stmt_bind_param(statement, &bind) != 0) {
        throw std::runtime_error("binding: " + std::string(mysql_stmt_error(statement)));
    }
    std::vector<double> seconds;
    seconds.reserve(static_cast<size_t>(options.count));
    for (key = options.first; key < options.first + options.count; ++key) {
        const auto started = Clock::now();
        if (mysql_stmt_execute(statement) != 0) {
            throw std::runtime_error("key " + std::to_string(key) + ": " +
                                     mysql_stmt_error(statement));
        }
        if (mysql_stmt_affected_rows(statement) != 1) {
            throw std::runtime_error("key " + std::to_string(key) + ": " +
                                     std::to_string(mysql_stmt_affected_rows(statement)) +
                                     " rows changed, expected 1");
        }
        seconds.push_back(std::chrono::duration<double>(Clock::now() - started).count());
    }
    return seconds;
}

// The middle value (the upper one of the two middle values for an even count).
double median(std::vector<double> values) {
    auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    try {
        Connection connection = connect(options);
        Statement statement = prepare(connection.get(), options.sql);
        const std::vector<double> seconds = run(statement.get(), options);
        double total = 0;
        for (double one : seconds) total += one;
        std::printf("%lld %.6f %.9f\n", options.count, total, median(seconds));
    } catch (const std::exception& error) {
        std::cerr << "write_bench: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
