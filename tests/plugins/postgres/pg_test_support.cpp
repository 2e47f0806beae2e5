#include "pg_test_support.hpp"

#include <map>
#include <stdexcept>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::pgtest {
namespace {

const char* kindName(TdgValueKind kind) {
    switch (kind) {
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

}  // namespace

std::shared_ptr<const core::Plugin> plugin() {
    static std::shared_ptr<const core::Plugin> loaded =
        core::loadPluginFile(TDG_POSTGRES_PLUGIN_PATH);
    return loaded;
}

size_t LogLines::count(const std::string& fragment) {
    std::lock_guard<std::mutex> lock(mutex);
    size_t found = 0;
    for (const auto& line : lines) {
        if (line.find(fragment) != std::string::npos) ++found;
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
        sink = [log](int, const std::string& message) {
            std::lock_guard<std::mutex> lock(log->mutex);
            log->lines.push_back(message);
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
            return std::string(kindName(cell.kind)) + ":" +
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

std::vector<std::string> firstColumn(const Rows& rows) {
    std::vector<std::string> column;
    for (const auto& row : rows) column.push_back(row.at(0));
    return column;
}

RawSession::RawSession(const testing::DatabaseEnv& env) {
    const char* keywords[] = {"host", "port", "user", "password", "dbname", nullptr};
    const char* values[] = {env.host.c_str(),     env.port.c_str(),     env.user.c_str(),
                            env.password.c_str(), env.database.c_str(), nullptr};
    connection_ = PQconnectdbParams(keywords, values, 0);
    if (PQstatus(connection_) != CONNECTION_OK) {
        std::string message = PQerrorMessage(connection_);
        PQfinish(connection_);
        throw std::runtime_error("raw session: " + message);
    }
}

RawSession::~RawSession() { PQfinish(connection_); }

void RawSession::exec(const std::string& sql) {
    PGresult* result = PQexec(connection_, sql.c_str());
    ExecStatusType status = PQresultStatus(result);
    PQclear(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        throw std::runtime_error("raw session: " + std::string(PQerrorMessage(connection_)));
    }
}

int tapSessionsInState(const testing::DatabaseEnv& env, const std::string& state) {
    return std::stoi(testing::queryScalar(
        env,
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'tap-diffgen'"
        " AND datname = current_database() AND state = '" +
            state + "'"));
}

}  // namespace tapdiffgen::pgtest
