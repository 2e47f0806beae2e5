#include "mysql_test_support.hpp"

#include <cstdlib>
#include <map>
#include <stdexcept>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::mytest {
namespace {

const char* kindText(TdgValueKind kind) {
    switch (kind) {
        case TDG_KIND_NULL:
            return "NULL";
        case TDG_KIND_BOOL:
            return "BOOL";
        case TDG_KIND_INT64:
            return "INT64";
        case TDG_KIND_DECIMAL:
            return "DECIMAL";
        case TDG_KIND_TEXT:
            return "TEXT";
        case TDG_KIND_BYTES:
            return "BYTES";
        case TDG_KIND_JSON:
            return "JSON";
        case TDG_KIND_DATE:
            return "DATE";
        case TDG_KIND_TIME:
            return "TIME";
        case TDG_KIND_TIMESTAMP:
            return "TIMESTAMP";
        case TDG_KIND_TIMESTAMPTZ:
            return "TIMESTAMPTZ";
        default:
            return "?";
    }
}

std::string hex(const char* data, uint64_t size) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (uint64_t i = 0; i < size; ++i) {
        auto byte = static_cast<unsigned char>(data[i]);
        out.push_back(digits[byte >> 4]);
        out.push_back(digits[byte & 15]);
    }
    return out;
}

std::string env(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value != nullptr && value[0] != '\0' ? value : fallback;
}

}  // namespace

std::string kindName(TdgValueKind kind) { return kindText(kind); }

std::shared_ptr<const core::Plugin> plugin() {
    static std::shared_ptr<const core::Plugin> loaded = core::loadPluginFile(TDG_MYSQL_PLUGIN_PATH);
    return loaded;
}

bool LogLines::contains(const std::string& fragment) {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& line : lines) {
        if (line.second.find(fragment) != std::string::npos) return true;
    }
    return false;
}

int LogLines::count(int level, const std::string& fragment) {
    std::lock_guard<std::mutex> lock(mutex);
    int found = 0;
    for (const auto& line : lines) {
        if (line.first == level && line.second.find(fragment) != std::string::npos) ++found;
    }
    return found;
}

std::unique_ptr<core::DialectConnection> connect(const testing::DatabaseEnv& env,
                                                 const Options& extra,
                                                 std::shared_ptr<LogLines> log) {
    std::map<std::string, std::string> merged;
    for (const auto& [key, value] : env.options()) merged[key] = value;
    for (const auto& [key, value] : extra) merged[key] = value;
    Options options(merged.begin(), merged.end());
    core::LogFunction sink;
    if (log) {
        sink = [log](int level, const std::string& message) {
            std::lock_guard<std::mutex> lock(log->mutex);
            log->lines.emplace_back(level, message);
        };
    }
    return std::make_unique<core::DialectConnection>(plugin(), options, sink);
}

std::string render(const TdgCell& cell) {
    switch (cell.kind) {
        case TDG_KIND_NULL:
            return "NULL";
        case TDG_KIND_BOOL:
            return cell.i64 != 0 ? "BOOL:true" : "BOOL:false";
        case TDG_KIND_INT64:
            return "INT64:" + std::to_string(cell.i64);
        case TDG_KIND_BYTES:
            return "BYTES:" + hex(cell.data, cell.size);
        default:
            return std::string(kindText(cell.kind)) + ":" +
                   std::string(cell.data, static_cast<size_t>(cell.size));
    }
}

core::BatchCallback Collector::callback() {
    return [this](const TdgRowBatch& batch) {
        batchSizes.push_back(batch.num_rows);
        for (int64_t r = 0; r < batch.num_rows; ++r) {
            std::vector<std::string> row;
            for (int32_t c = 0; c < batch.num_columns; ++c) {
                row.push_back(render(batch.cells[r * batch.num_columns + c]));
            }
            rows.push_back(std::move(row));
        }
    };
}

std::string withTable(std::string sql, const std::string& table) {
    for (size_t at = sql.find("@T"); at != std::string::npos; at = sql.find("@T", at)) {
        sql.replace(at, 2, table);
        at += table.size();
    }
    return sql;
}

std::vector<std::string> firstColumn(const Rows& rows) {
    std::vector<std::string> column;
    for (const auto& row : rows) column.push_back(row.at(0));
    return column;
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
