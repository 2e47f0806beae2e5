#include "plugin_probe.hpp"

#include <algorithm>

#include <doctest/doctest.h>

namespace tapdiffgen::testing {
namespace {

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

int LogLines::count(const std::string& fragment) {
    std::lock_guard<std::mutex> lock(mutex);
    int found = 0;
    for (const auto& line : lines) {
        if (line.second.find(fragment) != std::string::npos) ++found;
    }
    return found;
}

int LogLines::count(int level, const std::string& fragment) {
    std::lock_guard<std::mutex> lock(mutex);
    int found = 0;
    for (const auto& line : lines) {
        if (line.first == level && line.second.find(fragment) != std::string::npos) ++found;
    }
    return found;
}

std::unique_ptr<core::DialectConnection> connectPlugin(std::shared_ptr<const core::Plugin> plugin,
                                                       const PluginOptions& options,
                                                       std::shared_ptr<LogLines> log) {
    core::LogFunction sink;
    if (log) {
        // A call on another thread (a read being cancelled) may log while the test reads.
        sink = [log](int level, const std::string& message) {
            std::lock_guard<std::mutex> lock(log->mutex);
            log->lines.emplace_back(level, message);
        };
    }
    return std::make_unique<core::DialectConnection>(std::move(plugin), options, sink);
}

std::unique_ptr<core::DialectConnection> connectDatabase(std::shared_ptr<const core::Plugin> plugin,
                                                         const DatabaseEnv& env,
                                                         const PluginOptions& extra,
                                                         std::shared_ptr<LogLines> log) {
    // A key given twice would reach the plugin twice; an override must replace, not repeat.
    std::map<std::string, std::string> merged;
    for (const auto& [key, value] : env.options()) merged[key] = value;
    for (const auto& [key, value] : extra) merged[key] = value;
    return connectPlugin(std::move(plugin), PluginOptions(merged.begin(), merged.end()),
                         std::move(log));
}

std::string kindName(TdgValueKind kind) {
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

std::string renderCell(const TdgCell& cell) {
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
            return kindName(cell.kind) + ":" +
                   std::string(cell.data, static_cast<size_t>(cell.size));
    }
}

core::BatchCallback Collector::callback() {
    return [this](const TdgRowBatch& batch) {
        batchSizes.push_back(batch.num_rows);
        for (int64_t r = 0; r < batch.num_rows; ++r) {
            std::vector<std::string> row;
            for (int32_t c = 0; c < batch.num_columns; ++c) {
                row.push_back(renderCell(batch.cells[r * batch.num_columns + c]));
            }
            rows.push_back(std::move(row));
        }
    };
}

core::BatchCallback ManyCollector::callback(size_t request) {
    return [this, request, inner = perRequest[request].callback()](const TdgRowBatch& batch) {
        if (answerOrder.empty() || answerOrder.back() != request) answerOrder.push_back(request);
        inner(batch);
    };
}

Rows ManyCollector::sorted(size_t request) const {
    Rows rows = perRequest[request].rows;
    std::sort(rows.begin(), rows.end());
    return rows;
}

void fetchMany(core::DialectConnection& connection, const std::vector<Fetch>& fetches,
               ManyCollector& collected) {
    std::vector<core::FetchSpec> specs;
    std::vector<core::KeySpec> keys(fetches.size());
    for (size_t i = 0; i < fetches.size(); ++i) {
        keys[i].columns.push_back(
            core::KeyColumn{fetches[i].keyColumn, TDG_KIND_TEXT, false, "", -1});
        core::FetchSpec& spec = specs.emplace_back();
        spec.table = &fetches[i].table;
        spec.columns = &fetches[i].columns;
        spec.key = &keys[i];
        spec.keys = fetches[i].keys;
        spec.onBatch = collected.callback(i);
    }
    connection.fetchRowsMany(specs, 1000);
}

std::vector<std::string> keysUpTo(int count) {
    std::vector<std::string> keys;
    for (int i = 1; i <= count; ++i) keys.push_back(std::to_string(i));
    return keys;
}

std::vector<std::string> firstColumn(const Rows& rows) {
    std::vector<std::string> column;
    for (const auto& row : rows) column.push_back(row.at(0));
    return column;
}

std::vector<std::string> columnNames(const std::vector<core::ColumnDescription>& columns) {
    std::vector<std::string> names;
    for (const auto& column : columns) names.push_back(column.name);
    return names;
}

std::string describedText(const std::vector<core::ColumnDescription>& columns) {
    std::string text;
    for (const auto& c : columns) {
        text += c.name + " #" + std::to_string(c.ordinal) + " kind " + std::to_string(c.kind) +
                " " + c.sqlType + " (" + std::to_string(c.precision) + "," +
                std::to_string(c.scale) + ")" + (c.nullable ? " null" : " not null") +
                (c.primaryKey ? " pk " : " ") + c.jsonSchema + "; ";
    }
    return text;
}

std::map<std::string, core::ColumnDescription> describedInOrder(
    const std::vector<core::ColumnDescription>& columns, const std::vector<std::string>& expected) {
    REQUIRE(columns.size() == expected.size());
    std::map<std::string, core::ColumnDescription> byName;
    for (size_t i = 0; i < columns.size(); ++i) {
        CHECK(columns[i].name == expected[i]);
        CHECK(columns[i].ordinal == static_cast<int>(i + 1));
        byName[columns[i].name] = columns[i];
    }
    return byName;
}

std::vector<int64_t> eventIds(const core::EventPage& page) {
    std::vector<int64_t> ids;
    for (const TdgEvent& event : page) ids.push_back(event.id);
    return ids;
}

TdgStatus statusOf(const std::function<void()>& call, std::string* message) {
    try {
        call();
    } catch (const core::DialectError& failure) {
        if (message != nullptr) *message = failure.what();
        return failure.status();
    }
    return TDG_OK;
}

core::DialectError dialectErrorOf(const std::function<void()>& call, const char* unexpected) {
    try {
        call();
    } catch (const core::DialectError& failure) {
        return failure;
    }
    FAIL(unexpected);
    // FAIL has ended the test case by throwing; the compiler does not know that.
    return core::DialectError(TDG_OK, "", "", false);
}

std::string boundsOf(core::DialectConnection& connection, const std::string& diffgen) {
    std::optional<core::JournalBounds> bounds = connection.journalBounds({"", diffgen});
    REQUIRE(bounds.has_value());
    std::string text =
        bounds->empty ? "empty"
                      : std::to_string(bounds->oldestId) + ".." + std::to_string(bounds->newestId);
    return text + " next " + (bounds->nextId ? std::to_string(*bounds->nextId) : "unknown");
}

void checkBoundsThroughLife(core::DialectConnection& connection, const std::string& log,
                            const LogLife& life) {
    auto journal = [&](int rows) {
        for (int i = 0; i < rows; ++i) {
            life.exec("INSERT INTO " + log + " (tablename, table_id, op) VALUES ('t', '1', 'i')");
        }
    };
    CHECK(boundsOf(connection, log) == "empty next 1");
    journal(5);
    CHECK(boundsOf(connection, log) == "1..5 next 6");
    // Pruned: the log starts later, its ids go on.
    life.exec("DELETE FROM " + log + " WHERE id <= 2");
    CHECK(boundsOf(connection, log) == "3..5 next 6");
    life.exec("DELETE FROM " + log);
    CHECK(boundsOf(connection, log) == "empty next 6");
    journal(1);
    CHECK(boundsOf(connection, log) == "6..6 next 7");
    // Reset: the ids start again.
    life.exec(life.resetSql);
    CHECK(boundsOf(connection, log) == "empty next 1");
    journal(2);
    CHECK(boundsOf(connection, log) == "1..2 next 3");
    // Restored from an older backup: a new table.
    life.exec(life.recreateSql);
    journal(1);
    CHECK(boundsOf(connection, log) == "1..1 next 2");
}

std::vector<std::string> triggerLines(const core::TableJournal& table) {
    std::vector<std::string> lines;
    for (const core::JournalTrigger& trigger : table.triggers) {
        lines.push_back(trigger.name + " " + trigger.events + " -> " +
                        trigger.journalName.value_or("(unknown)"));
    }
    return lines;
}

std::vector<std::string> partitionNames(const core::TableJournal& table) {
    std::vector<std::string> names;
    for (const core::TableRef& partition : table.partitions) names.push_back(partition.display());
    return names;
}

std::vector<std::string> foreignKeyLines(const core::TableJournal& table) {
    std::vector<std::string> lines;
    for (const core::BypassingForeignKey& key : table.bypassingForeignKeys) {
        lines.push_back(key.constraintName + " -> " + key.parent.display() + ": " + key.actions);
    }
    return lines;
}

void checkTlsRefused(const core::DialectError& failure, const std::string& fragment) {
    CHECK(failure.status() == TDG_UNAUTHENTICATED);
    CHECK_FALSE(failure.retryable());
    CHECK_MESSAGE(std::string(failure.what()).find(fragment) != std::string::npos,
                  std::string(failure.what()));
}

}  // namespace tapdiffgen::testing
