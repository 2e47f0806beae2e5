#include "mysql_driver.hpp"

#include "journal.hpp"
#include "settings.hpp"
#include "sql_text.hpp"
#include "tap-diffgen/sdk/export.hpp"
#include "text_query.hpp"

namespace tapdiffgen::mysql {

const sdk::DeclaredSettings& MysqlDriver::declaredSettings() { return pluginSettings(); }

MysqlDriver::MysqlDriver(const sdk::ConnectOptions& options, sdk::HostLog log)
    : session_(Settings::fromOptions(options), std::move(log), callCancel()),
      catalog_(session_),
      diffgen_(session_),
      rows_(session_, catalog_) {}

std::string MysqlDriver::serverVersionImpl() { return displayVersion(session_.serverInfo()); }

std::vector<sdk::ColumnInfo> MysqlDriver::describeTableImpl(const sdk::TableName& table) {
    return catalog_.describe(table);
}

namespace {

// What the server reports of each table's columns for `SELECT * ... LIMIT 0`, one text a table:
// their names, types, lengths, decimals, character sets and flags (NOT NULL, key, unsigned...).
// It reads no information_schema, whose columns cost MariaDB a millisecond and more a page.
std::vector<std::optional<std::string>> columnDigests(Session& session,
                                                      const std::vector<sdk::TableName>& tables) {
    std::string sql;
    for (const auto& table : tables) {
        sql += (sql.empty() ? "" : ";") + ("SELECT * FROM " + quoteTable(table) + " LIMIT 0");
    }
    MultiStatementQuery query(session, sql, "checking the tables' columns");
    std::vector<std::optional<std::string>> digests;
    for (size_t i = 0; i < tables.size(); ++i) {
        std::string& digest = digests.emplace_back(std::string()).value();
        for (const FieldInfo& field : query.nextResult("checking the tables' columns")) {
            digest += field.name + ':' + std::to_string(field.type) + ':' +
                      std::to_string(field.length) + ':' + std::to_string(field.decimals) + ':' +
                      std::to_string(field.charset) + ':' + std::to_string(field.flags) + ',';
        }
    }
    return digests;
}

}  // namespace

// The host describes the tables of every page it reads, to notice a migration: one query of
// digests, and a description only of the tables whose digest changed (DigestedDescriptions).
// Tables never described here are described without digests, a statement a table: so a first
// description (start-up, --check-journal) costs the few statements it always did. A table the
// digest query cannot read (gone) is described, which names it.
std::vector<std::vector<sdk::ColumnInfo>> MysqlDriver::describeTablesImpl(
    const std::vector<sdk::TableName>& tables) {
    std::vector<std::optional<std::string>> digests(tables.size());
    try {
        if (described_.knowsAny(tables)) digests = columnDigests(session_, tables);
    } catch (const sdk::DriverError&) {
        described_.clear();
    }
    return described_.describe(tables, digests, [this](const std::vector<sdk::TableName>& changed) {
        return catalog_.describeMany(changed);
    });
}

void MysqlDriver::readDiffgenPageImpl(const sdk::PageRequest& request, sdk::EventPage& page) {
    diffgen_.readPage(request, page);
}

std::optional<int64_t> MysqlDriver::maxDiffgenIdImpl(const sdk::TableName& diffgen) {
    return diffgen_.maxId(diffgen);
}

void MysqlDriver::fetchRowsImpl(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows) {
    rows_.fetch(request, rows);
}

void MysqlDriver::fetchRowsManyImpl(const std::vector<sdk::FetchRequest>& requests,
                                    const std::vector<sdk::RowBatchBuilder*>& rows) {
    rows_.fetchMany(requests, rows);
}

void MysqlDriver::scanTableImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    rows_.scan(request, rows);
}

void MysqlDriver::scanChunkImpl(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows) {
    rows_.scanChunk(request, rows);
}

std::optional<int64_t> MysqlDriver::estimateRowsImpl(const sdk::TableName& table) {
    return catalog_.estimateRows(table);
}

sdk::HorizonState MysqlDriver::checkHorizonImpl(const TdgHorizonMark& mark, TdgHorizonMark& next) {
    next = mark;
    return diffgen_.checkHorizon(mark);
}

void MysqlDriver::cancelImpl() { session_.interrupt(); }

std::optional<sdk::JournalBounds> MysqlDriver::journalBoundsImpl(const sdk::TableName& diffgen) {
    return diffgen_.bounds(diffgen);
}

std::optional<sdk::JournalInspection> MysqlDriver::inspectJournalImpl(
    const sdk::JournalRequest& request) {
    return mysql::inspectJournal(session_, catalog_, diffgen_.horizon(), request);
}

std::string displayVersion(const std::string& serverInfo) {
    std::string info = serverInfo;
    // MariaDB 10.x announced itself as "5.5.5-10.x.y-MariaDB" to old MySQL clients.
    const std::string replicationPrefix = "5.5.5-";
    if (info.rfind(replicationPrefix, 0) == 0 && info.find("MariaDB") != std::string::npos) {
        info = info.substr(replicationPrefix.size());
    }
    size_t end = info.find_first_not_of("0123456789.");
    std::string number = info.substr(0, end);
    if (number.empty()) return info;
    bool mariadb = info.find("MariaDB") != std::string::npos;
    return std::string(mariadb ? "MariaDB " : "MySQL ") + number;
}

}  // namespace tapdiffgen::mysql

TAP_DIFFGEN_EXPORT_DRIVER(tapdiffgen::mysql::MysqlDriver, "mysql", TAP_DIFFGEN_ALIASES("mariadb"),
                          TAP_DIFFGEN_SDK_VERSION, "MySQL 8.0.17+ / MariaDB 10.5+ via libmariadb")
