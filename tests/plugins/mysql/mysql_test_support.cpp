#include "mysql_test_support.hpp"

#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::mytest {
namespace {

std::string env(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value != nullptr && value[0] != '\0' ? value : fallback;
}

// The client library sends host "localhost" to the unix socket that MYSQL_UNIX_PORT names (else
// to its built-in default) and reads the variable once, when it initialises. Set before anything
// connects, it makes "localhost" this test server, the name its TLS certificate carries. A value
// already set wins.
[[maybe_unused]] const bool kLocalhostIsTheTestServer = [] {
    return ::setenv("MYSQL_UNIX_PORT", adminSocket().c_str(), 0) == 0;
}();

}  // namespace

std::shared_ptr<const core::Plugin> plugin() {
    static std::shared_ptr<const core::Plugin> loaded = core::loadPluginFile(TDG_MYSQL_PLUGIN_PATH);
    return loaded;
}

std::unique_ptr<core::DialectConnection> connect(const testing::DatabaseEnv& env,
                                                 const testing::PluginOptions& extra,
                                                 std::shared_ptr<testing::LogLines> log) {
    return testing::connectDatabase(plugin(), env, extra, std::move(log));
}

core::DialectError connectError(const testing::DatabaseEnv& env,
                                const testing::PluginOptions& extra) {
    return testing::dialectErrorOf([&] { connect(env, extra); }, "the connection succeeded");
}

std::string withTable(std::string sql, const std::string& table) {
    for (size_t at = sql.find("@T"); at != std::string::npos; at = sql.find("@T", at)) {
        sql.replace(at, 2, table);
        at += table.size();
    }
    return sql;
}

std::string adminSocket() {
    return env("TDG_TEST_MYSQL_SOCKET",
               env("TDG_TEST_DIR", "/tmp/tap-diffgen-test") + "/mariadb/mysqld.sock");
}

RawConnection::RawConnection(const testing::DatabaseEnv& env) : mysql_(mysql_init(nullptr)) {
    mysql_options(mysql_, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (mysql_real_connect(mysql_, env.host.c_str(), env.user.c_str(), env.password.c_str(),
                           env.database.c_str(), static_cast<unsigned>(std::stoi(env.port)),
                           nullptr, CLIENT_MULTI_STATEMENTS) == nullptr) {
        std::string message = mysql_error(mysql_);
        mysql_close(mysql_);
        throw std::runtime_error("raw connection: " + message);
    }
}

std::unique_ptr<RawConnection> RawConnection::admin() {
    MYSQL* mysql = mysql_init(nullptr);
    mysql_options(mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    std::string socket = adminSocket();
    if (mysql_real_connect(mysql, "localhost", "root", nullptr, nullptr, 0, socket.c_str(),
                           CLIENT_MULTI_STATEMENTS) == nullptr) {
        mysql_close(mysql);
        return nullptr;
    }
    return std::unique_ptr<RawConnection>(new RawConnection(mysql));
}

RawConnection::~RawConnection() { mysql_close(mysql_); }

void RawConnection::exec(const std::string& sql) {
    if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) {
        throw std::runtime_error("mysql: " + std::string(mysql_error(mysql_)) +
                                 " in: " + sql.substr(0, 200));
    }
    for (;;) {
        MYSQL_RES* result = mysql_store_result(mysql_);
        if (result != nullptr) mysql_free_result(result);
        int status = mysql_next_result(mysql_);
        if (status > 0) {
            throw std::runtime_error("mysql: " + std::string(mysql_error(mysql_)) +
                                     " in: " + sql.substr(0, 200));
        }
        if (status < 0) return;
    }
}

std::vector<std::optional<std::string>> RawConnection::column(const std::string& sql) {
    if (mysql_real_query(mysql_, sql.data(), sql.size()) != 0) {
        throw std::runtime_error("mysql: " + std::string(mysql_error(mysql_)) + " in: " + sql);
    }
    MYSQL_RES* result = mysql_store_result(mysql_);
    std::vector<std::optional<std::string>> values;
    if (result == nullptr) return values;
    while (MYSQL_ROW row = mysql_fetch_row(result)) {
        unsigned long* lengths = mysql_fetch_lengths(result);
        if (row[0] == nullptr) {
            values.emplace_back(std::nullopt);
        } else {
            values.emplace_back(std::string(row[0], lengths[0]));
        }
    }
    mysql_free_result(result);
    return values;
}

std::string RawConnection::scalar(const std::string& sql) {
    auto values = column(sql);
    if (values.empty()) throw std::runtime_error("no row returned by: " + sql);
    return values[0].value_or("NULL");
}

}  // namespace tapdiffgen::mytest
