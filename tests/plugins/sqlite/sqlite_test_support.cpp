#include "sqlite_test_support.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::sqlitetest {

std::shared_ptr<const core::Plugin> plugin() {
    static std::shared_ptr<const core::Plugin> loaded =
        core::loadPluginFile(TDG_SQLITE_PLUGIN_PATH);
    return loaded;
}

Writer::Writer(const std::string& path, std::chrono::milliseconds busyTimeout) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
        std::string message = sqlite3_errmsg(db_);
        sqlite3_close(db_);
        throw std::runtime_error("opening " + path + ": " + message);
    }
    sqlite3_busy_timeout(db_, static_cast<int>(busyTimeout.count()));
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

std::unique_ptr<core::DialectConnection> connect(const std::string& path,
                                                 const testing::PluginOptions& extra,
                                                 std::shared_ptr<testing::LogLines> log) {
    testing::PluginOptions options = {{"sql_dialect", "sqlite"}, {"database", path}};
    options.insert(options.end(), extra.begin(), extra.end());
    return testing::connectPlugin(plugin(), options, std::move(log));
}

testing::Rows scanAll(core::DialectConnection& connection, const std::string& table,
                      const std::string& key, int64_t batchRows) {
    core::TableRef ref = core::TableRef::parse(table);
    std::vector<std::string> columns = testing::columnNames(connection.describeTable(ref));
    testing::Collector collector;
    connection.scanTable(ref, columns, key, batchRows, collector.callback());
    return collector.rows;
}

}  // namespace tapdiffgen::sqlitetest
