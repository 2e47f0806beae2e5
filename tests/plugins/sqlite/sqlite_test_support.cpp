#include "sqlite_test_support.hpp"

#include <stdexcept>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::sqlitetest {
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
        core::loadPluginFile(TDG_SQLITE_PLUGIN_PATH);
    return loaded;
}

bool LogLines::contains(const std::string& fragment) { return count(fragment) > 0; }

int LogLines::count(const std::string& fragment) {
    std::lock_guard<std::mutex> lock(mutex);
    int found = 0;
    for (const auto& line : lines) found += line.second.find(fragment) != std::string::npos ? 1 : 0;
    return found;
}

Writer::Writer(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
        std::string message = sqlite3_errmsg(db_);
        sqlite3_close(db_);
        throw std::runtime_error("opening " + path + ": " + message);
    }
}

Writer::~Writer() { sqlite3_close(db_); }

void Writer::exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message != nullptr ? message : "unknown error";
        sqlite3_free(message);
        throw std::runtime_error("sqlite: " + text);
    }
}

TempDatabase::TempDatabase() : path_(scratch_.path() + "/test.db") {}

void TempDatabase::exec(const std::string& sql) { Writer(path_).exec(sql); }

std::unique_ptr<core::DialectConnection> connect(const std::string& path, const Options& extra,
                                                 std::shared_ptr<LogLines> log) {
    Options options = {{"sql_dialect", "sqlite"}, {"database", path}};
    options.insert(options.end(), extra.begin(), extra.end());
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

Rows scanAll(core::DialectConnection& connection, const std::string& table, const std::string& key,
             int64_t batchRows) {
    core::TableRef ref = core::TableRef::parse(table);
    std::vector<std::string> columns;
    for (const auto& column : connection.describeTable(ref)) columns.push_back(column.name);
    Collector collector;
    connection.scanTable(ref, columns, key, batchRows, collector.callback());
    return collector.rows;
}

}  // namespace tapdiffgen::sqlitetest
