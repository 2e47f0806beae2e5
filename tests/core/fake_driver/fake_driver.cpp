// A dialect plugin over an in-memory database described by a JSON file (the `database`
// setting), built with the SDK exactly like a real driver. Engine tests use it to drive the
// real ABI, loader and engine through cases a real server cannot stage on demand: gaps that
// fill late, a horizon that stays pending, unknown ops, NULL keys.
//
// File shape:
// {
//   "tables": {"invoices": {"columns": [{"name":"id","kind":"int64","pk":true},
//                                        {"name":"amount","kind":"decimal","scale":2}, ...],
//                           "rows": [[1, "10.50"], ...]}},
//   "diffgen": [[id, "table", "table_id" or null, "op", "ts"], ...],
//   "late": [[id, "table", "table_id", "op", "ts", checksUntilVisible, pageRead], ...],
//                                 (pageRead, optional: the event commits at the process's
//                                  pageRead-th page read, whatever the checks)
//   "horizon": "driver" (default) | "unsupported" | "pending" (never final: a transaction
//                                  held open elsewhere),
//   "page_delay_ms": 0,           (each page read takes this long: a slow server)
//   "lose_connection_at_page": N  (the Nth page read of the process fails once with a
//                                  retryable IO error, as a server restart would: every
//                                  connection open then fails from its next call on)
//   "lose_connection_at_fetch": N (the same at the Nth re-pull of the process)
//   "refuse_connection": N        (the Nth connection of the process is refused: too many)
//   "fail_fetches_on_connection": N (every re-pull of the Nth connection fails with a
//                                  retryable IO error; the other connections work)
//   "interrupt_fetches_on_connection": N (every re-pull of the Nth connection fails as
//                                  CANCELLED, as a server reports a query its KILL interrupted)
//   "journal": "unsupported" | {   (what journal_bounds and inspect_journal answer; by default
//                                  the bounds of the visible events and an empty inspection)
//       "next_id": N, "id_source": "seq", "id_cache": N,
//       "partitions": {"table": ["part", "schema.part"]},
//       "bypassing": {"table": [["constraint", "parent", "ON DELETE CASCADE"]]},
//       "triggers": {"table": [["name", "INSERT, UPDATE, DELETE", "journal name" or null,
//                               optionally ["key", "columns"]]]},
//       "highest_pruned_id": N}  (the prune record's; none by default)
//   "prune_at_page": [N, X]       (the Nth page read of the process first deletes every event
//                                  with id <= X, as a retention job running meanwhile would)
//   "chunked_scan": false         (no scan_chunk: as a plugin of ABI revision 4 and before)
//   "lose_connection_at_chunk": N (the Nth scan_chunk call of the process fails once, after
//                                  delivering its first row, as a server restart would)
//   "estimated_rows": N           (what estimate_rows answers; none by default)
//   "alter": [{"at_page": N | "after_describe": N, "tables": {"name": {...} or null}}, ...]
//                                 (a migration: the Nth page read of the process first, or the
//                                  Nth describe of the process last, replaces each named table,
//                                  columns and rows, or drops it (null), for every connection)
// }
// scan_chunk reads a table's rows in key order (integer key columns compared as numbers, the
// others as text).
// A row read asked for a column the table no longer has answers TDG_TABLE_CHANGED; a column
// that holds another kind now is sent as that kind, as a plugin that does not check would.
// A "late" event is invisible (a running transaction holds it) until check_horizon has been
// called checksUntilVisible times; then it is visible, and the horizon is final once every
// late event is visible. Connections open at the same time share one database, as sessions
// of a server do (the events' visibility above); once the last is closed, the next connection
// reads the file again.
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "tap-diffgen/sdk/export.hpp"
#include "tap-diffgen/sdk/values.hpp"

namespace {

using namespace tapdiffgen::sdk;

struct FakeColumn {
    std::string name;
    TdgValueKind kind;
    int scale;
    bool primaryKey;
};

struct FakeEvent {
    int64_t id;
    std::string table;
    std::optional<std::string> tableId;
    std::string op;
    std::string ts;
    int checksUntilVisible;
    int visibleAtPage;  // 0: only the horizon checks make it visible
};

struct FakeTable {
    std::vector<FakeColumn> columns;
    std::vector<Poco::JSON::Array::Ptr> rows;
};

TdgValueKind kindFromName(const std::string& name) {
    static const std::map<std::string, TdgValueKind> kinds = {
        {"bool", TDG_KIND_BOOL},           {"int64", TDG_KIND_INT64},
        {"decimal", TDG_KIND_DECIMAL},     {"text", TDG_KIND_TEXT},
        {"bytes", TDG_KIND_BYTES},         {"json", TDG_KIND_JSON},
        {"date", TDG_KIND_DATE},           {"time", TDG_KIND_TIME},
        {"timestamp", TDG_KIND_TIMESTAMP}, {"timestamptz", TDG_KIND_TIMESTAMPTZ}};
    auto found = kinds.find(name);
    if (found == kinds.end()) throw invalidArgument("unknown kind " + name);
    return found->second;
}

FakeEvent eventFrom(const Poco::JSON::Array::Ptr& item, bool late) {
    FakeEvent event;
    event.id = item->getElement<int64_t>(0);
    event.table = item->getElement<std::string>(1);
    if (!item->isNull(2)) event.tableId = item->get(2).toString();
    event.op = item->isNull(3) ? "" : item->getElement<std::string>(3);
    event.ts = item->getElement<std::string>(4);
    event.checksUntilVisible = late ? item->getElement<int>(5) : 0;
    event.visibleAtPage = late && item->size() > 6 ? item->getElement<int>(6) : 0;
    return event;
}

// A migration of "alter".
struct FakeAlteration {
    int atPage = 0;
    int afterDescribe = 0;
    std::map<std::string, std::optional<FakeTable>> tables;  // nullopt: dropped
};

// What the connections open at the same time share.
struct SharedDatabase {
    std::mutex mutex;
    std::map<std::string, FakeTable> tables;
    std::vector<FakeAlteration> alterations;
    std::vector<FakeEvent> events;
    int restarts = 0;  // losses so far: a connection from before the last one is broken
};

FakeTable tableFrom(const Poco::JSON::Object::Ptr& table) {
    FakeTable fake;
    auto columns = table->getArray("columns");
    for (size_t i = 0; i < columns->size(); ++i) {
        auto column = columns->getObject(static_cast<unsigned>(i));
        fake.columns.push_back({column->getValue<std::string>("name"),
                                kindFromName(column->getValue<std::string>("kind")),
                                column->has("scale") ? column->getValue<int>("scale") : -1,
                                column->has("pk") && column->getValue<bool>("pk")});
    }
    auto rows = table->getArray("rows");
    for (size_t i = 0; rows && i < rows->size(); ++i) {
        fake.rows.push_back(rows->getArray(static_cast<unsigned>(i)));
    }
    return fake;
}

std::map<std::string, std::optional<FakeTable>> tablesFrom(const Poco::JSON::Object::Ptr& tables) {
    std::map<std::string, std::optional<FakeTable>> read;
    for (const auto& [name, value] : *tables) {
        read[name] = value.isEmpty()
                         ? std::nullopt
                         : std::optional(tableFrom(value.extract<Poco::JSON::Object::Ptr>()));
    }
    return read;
}

// Called with the database's mutex held.
void applyAlterations(SharedDatabase& database, int page, int describe) {
    for (const FakeAlteration& alteration : database.alterations) {
        if ((page == 0 || alteration.atPage != page) &&
            (describe == 0 || alteration.afterDescribe != describe)) {
            continue;
        }
        for (const auto& [name, table] : alteration.tables) {
            if (table) {
                database.tables[name] = *table;
            } else {
                database.tables.erase(name);
            }
        }
    }
}

class FakeDriver : public IDialectDriver {
public:
    explicit FakeDriver(const ConnectOptions& options) {
        std::string path = options.get("database");
        if (options.get("password") == "wrong") {
            throw DriverError(
                TDG_UNAUTHENTICATED,
                "password authentication failed for user '" + options.get("user") + "'", "28P01");
        }
        std::ifstream file(path);
        if (!file) throw DriverError(TDG_NOT_FOUND, "fake database file '" + path + "' not found");
        std::stringstream text;
        text << file.rdbuf();
        Poco::JSON::Parser parser;
        auto root = parser.parse(text.str()).extract<Poco::JSON::Object::Ptr>();
        database_ = openDatabase(path, root);
        restartsSeen_ = database_->restarts;
        if (root->has("page_delay_ms")) pageDelay_ = root->getValue<int>("page_delay_ms");
        if (root->has("lose_connection_at_page")) {
            loseAtPage_ = root->getValue<int>("lose_connection_at_page");
        }
        if (root->has("lose_connection_at_fetch")) {
            loseAtFetch_ = root->getValue<int>("lose_connection_at_fetch");
        }
        path_ = path;
        // Connections are numbered per database file across the process, the first one 1.
        const int number = count(Tally::Connections, path);
        if (root->has("refuse_connection") && root->getValue<int>("refuse_connection") == number) {
            throw DriverError(TDG_IO, "too many connections", "53300", true);
        }
        fetchesFail_ = root->has("fail_fetches_on_connection") &&
                       root->getValue<int>("fail_fetches_on_connection") == number;
        fetchesInterrupted_ = root->has("interrupt_fetches_on_connection") &&
                              root->getValue<int>("interrupt_fetches_on_connection") == number;
        const std::string horizon = root->optValue<std::string>("horizon", "driver");
        horizonSupported_ = horizon != "unsupported";
        horizonNeverFinal_ = horizon == "pending";
        if (root->has("journal")) journal_ = root->get("journal");
        if (root->has("chunked_scan")) chunkedScan_ = root->getValue<bool>("chunked_scan");
        if (root->has("lose_connection_at_chunk")) {
            loseAtChunk_ = root->getValue<int>("lose_connection_at_chunk");
        }
        if (root->has("estimated_rows")) estimate_ = root->getValue<int64_t>("estimated_rows");
        if (root->has("prune_at_page")) {
            auto prune = root->getArray("prune_at_page");
            pruneAtPage_ = {prune->getElement<int>(0), prune->getElement<int64_t>(1)};
        }
    }

    std::string serverVersion() override { return "FakeDB 1.0"; }

    std::vector<ColumnInfo> describeTable(const TableName& table) override {
        if (table.display() == "diffgen") return diffgenColumns();
        const FakeTable fake = find(table);
        std::vector<ColumnInfo> columns;
        int ordinal = 0;
        for (const FakeColumn& column : fake.columns) {
            ColumnInfo info;
            info.name = column.name;
            info.ordinal = ++ordinal;
            info.kind = column.kind;
            info.sqlType = "fake";
            info.scale = column.scale;
            info.primaryKey = column.primaryKey;
            info.nullable = !column.primaryKey;
            info.jsonSchema = jsonSchemaForKind(column.kind, column.scale);
            columns.push_back(info);
        }
        return columns;
    }

    std::vector<std::vector<ColumnInfo>> describeTables(
        const std::vector<TableName>& tables) override {
        const int describes = count(Tally::Describes, path_);
        struct Later {
            SharedDatabase& database;
            int describes;
            ~Later() {
                std::lock_guard<std::mutex> lock(database.mutex);
                applyAlterations(database, 0, describes);
            }
        } later{*database_, describes};
        std::vector<std::vector<ColumnInfo>> described;
        for (const TableName& table : tables) described.push_back(describeTable(table));
        return described;
    }

    void readDiffgenPage(const PageRequest& request, EventPage& page) override {
        cancelled_ = false;
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(pageDelay_);
        while (std::chrono::steady_clock::now() < until) {
            if (cancelled_) throw DriverError(TDG_CANCELLED, "page read cancelled");
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        std::lock_guard<std::mutex> lock(database_->mutex);
        throwIfRestarted();
        // Counted per database file across connections: the loss happens once per process.
        int pagesRead = count(Tally::PagesRead, path_);
        if (loseAtPage_ > 0 && pagesRead == loseAtPage_) {
            ++database_->restarts;
            throwIfRestarted();
        }
        applyAlterations(*database_, pagesRead, 0);
        for (FakeEvent& event : database_->events) {
            if (event.visibleAtPage > 0 && pagesRead >= event.visibleAtPage) {
                event.checksUntilVisible = 0;
            }
        }
        if (pruneAtPage_.first == pagesRead) {
            std::erase_if(database_->events, [this](const FakeEvent& event) {
                return event.id <= pruneAtPage_.second;
            });
        }
        const std::vector<FakeEvent>& events = database_->events;
        int64_t last = request.afterId;
        for (const FakeEvent& event : events) {
            if (!visible(event) || event.id <= request.afterId || event.id > request.upToId) {
                continue;
            }
            if (std::find(request.tableNames.begin(), request.tableNames.end(), event.table) ==
                request.tableNames.end()) {
                continue;
            }
            if (static_cast<int64_t>(page.size()) >= request.limit) break;
            std::string_view id = event.tableId ? std::string_view(*event.tableId) : "";
            page.add(event.id, event.op.empty() ? '\0' : event.op[0], event.table,
                     event.tableId ? &id : nullptr, event.ts);
            last = event.id;
        }
        int64_t count = 0;
        for (const FakeEvent& event : events) {
            if (visible(event) && event.id > request.afterId && event.id <= last) ++count;
        }
        page.setRangeRowCount(count);
        page.setMark(TdgHorizonMark{{1, 0, 0, 0}});
    }

    // A slow page read (page_delay_ms) stops early.
    void cancel() override { cancelled_ = true; }

    std::optional<int64_t> maxDiffgenId(const TableName&) override {
        std::lock_guard<std::mutex> lock(database_->mutex);
        throwIfRestarted();
        std::optional<int64_t> highest;
        for (const FakeEvent& event : database_->events) {
            if (visible(event)) highest = std::max(highest.value_or(0), event.id);
        }
        return highest;
    }

    void fetchRows(const FetchRequest& request, RowBatchBuilder& rows) override {
        {
            std::lock_guard<std::mutex> lock(database_->mutex);
            throwIfRestarted();
            if (fetchesFail_) {
                throw DriverError(TDG_IO, "server closed the connection unexpectedly", "08006",
                                  true);
            }
            if (fetchesInterrupted_) {
                throw DriverError(TDG_CANCELLED, "query execution was interrupted", "70100");
            }
            // Counted per database file across connections, like the page losses.
            if (loseAtFetch_ > 0 && count(Tally::Fetches, path_) == loseAtFetch_) {
                ++database_->restarts;
                throwIfRestarted();
            }
        }
        const FakeTable fake = find(request.table);
        std::vector<size_t> keyColumns;
        for (std::string_view name : request.keyColumns)
            keyColumns.push_back(columnIndex(fake, name));
        // A key's column texts joined by a byte no text here holds.
        std::set<std::string> wanted;
        for (size_t i = 0; i < request.keyCount(); ++i) {
            std::string key;
            for (size_t c = 0; c < keyColumns.size(); ++c) key.append(request.key(i, c)) += '\x1f';
            wanted.insert(std::move(key));
        }
        for (const auto& row : fake.rows) {
            std::string key;
            for (size_t column : keyColumns) {
                key.append(row->get(static_cast<unsigned>(column)).toString()) += '\x1f';
            }
            if (wanted.count(key) > 0) addRow(fake, row, request.columns, rows);
        }
    }

    void scanTable(const ScanRequest& request, RowBatchBuilder& rows) override {
        const FakeTable fake = find(request.table);
        for (const auto& row : fake.rows) addRow(fake, row, request.columns, rows);
    }

    void scanChunk(const ScanRequest& request, RowBatchBuilder& rows) override {
        if (!chunkedScan_) throw notImplemented("fake chunks disabled");
        {
            std::lock_guard<std::mutex> lock(database_->mutex);
            throwIfRestarted();
        }
        const bool lose = loseAtChunk_ > 0 && count(Tally::Chunks, path_) == loseAtChunk_;
        const FakeTable& fake = find(request.table);
        std::vector<size_t> keyColumns;
        for (std::string_view name : request.keyColumns)
            keyColumns.push_back(columnIndex(fake, name));
        std::vector<Poco::JSON::Array::Ptr> ordered = fake.rows;
        std::sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) {
            return compareKeys(fake, keyColumns, a, b) < 0;
        });
        int64_t delivered = 0;
        for (const auto& row : ordered) {
            if (!request.afterKey.empty() &&
                compareKey(fake, keyColumns, row, request.afterKey) <= 0) {
                continue;
            }
            if (delivered == request.maxRows) break;
            addRow(fake, row, request.columns, rows);
            ++delivered;
            if (lose) {
                rows.flush();
                std::lock_guard<std::mutex> lock(database_->mutex);
                ++database_->restarts;
                throwIfRestarted();
            }
        }
    }

    std::optional<int64_t> estimateRows(const TableName&) override { return estimate_; }

    HorizonState checkHorizon(const TdgHorizonMark&, TdgHorizonMark&) override {
        if (!horizonSupported_) throw notImplemented("fake horizon unsupported");
        std::lock_guard<std::mutex> lock(database_->mutex);
        throwIfRestarted();
        if (horizonNeverFinal_) return HorizonState::Pending;
        bool allVisible = true;
        for (FakeEvent& event : database_->events) {
            if (event.checksUntilVisible > 0) {
                --event.checksUntilVisible;
                allVisible = false;
            }
        }
        return allVisible ? HorizonState::Final : HorizonState::Pending;
    }

    std::optional<JournalBounds> journalBounds(const TableName&) override {
        if (journalUnsupported()) return std::nullopt;
        std::lock_guard<std::mutex> lock(database_->mutex);
        throwIfRestarted();
        JournalBounds bounds;
        for (const FakeEvent& event : database_->events) {
            if (!visible(event)) continue;
            bounds.oldestId = bounds.empty ? event.id : std::min(bounds.oldestId, event.id);
            bounds.newestId = bounds.empty ? event.id : std::max(bounds.newestId, event.id);
            bounds.empty = false;
        }
        if (auto journal = journalObject(); journal && journal->has("next_id")) {
            bounds.nextId = journal->getValue<int64_t>("next_id");
        }
        if (auto journal = journalObject(); journal && journal->has("highest_pruned_id")) {
            bounds.highestPrunedId = journal->getValue<int64_t>("highest_pruned_id");
        }
        return bounds;
    }

    std::optional<JournalInspection> inspectJournal(const JournalRequest& request) override {
        if (journalUnsupported()) return std::nullopt;
        JournalInspection inspection;
        auto journal = journalObject();
        if (journal && journal->has("id_source")) {
            inspection.idSource = journal->getValue<std::string>("id_source");
        }
        inspection.idCache =
            journal && journal->has("id_cache") ? journal->getValue<int64_t>("id_cache") : 1;
        for (const TableName& table : request.tables) {
            inspection.tables.push_back(tableJournal(journal, table.display(), request));
        }
        return inspection;
    }

private:
    Poco::Dynamic::Var journal_;
    std::pair<int, int64_t> pruneAtPage_{0, 0};
    std::shared_ptr<SharedDatabase> database_;
    int restartsSeen_ = 0;
    std::atomic<bool> cancelled_{false};
    bool horizonSupported_ = true;
    bool horizonNeverFinal_ = false;
    int pageDelay_ = 0;
    int loseAtPage_ = 0;
    int loseAtFetch_ = 0;
    bool fetchesFail_ = false;         // this connection is broken for re-pulls
    bool fetchesInterrupted_ = false;  // a KILL interrupts every re-pull of this connection
    bool chunkedScan_ = true;
    int loseAtChunk_ = 0;
    std::optional<int64_t> estimate_;
    std::string path_;

    // The database the open connections to `path` share, or a new one from the file.
    static std::shared_ptr<SharedDatabase> openDatabase(const std::string& path,
                                                        const Poco::JSON::Object::Ptr& root) {
        static std::mutex mutex;
        static std::map<std::string, std::weak_ptr<SharedDatabase>> open;
        std::lock_guard<std::mutex> lock(mutex);
        if (auto shared = open[path].lock()) return shared;
        auto database = std::make_shared<SharedDatabase>();
        auto events = root->getArray("diffgen");
        for (size_t i = 0; events && i < events->size(); ++i) {
            database->events.push_back(
                eventFrom(events->getArray(static_cast<unsigned>(i)), false));
        }
        auto late = root->getArray("late");
        for (size_t i = 0; late && i < late->size(); ++i) {
            database->events.push_back(eventFrom(late->getArray(static_cast<unsigned>(i)), true));
        }
        std::sort(database->events.begin(), database->events.end(),
                  [](const FakeEvent& a, const FakeEvent& b) { return a.id < b.id; });
        for (auto& [name, table] : tablesFrom(root->getObject("tables"))) {
            database->tables[name] = *table;
        }
        auto alterations = root->getArray("alter");
        for (size_t i = 0; alterations && i < alterations->size(); ++i) {
            auto item = alterations->getObject(static_cast<unsigned>(i));
            database->alterations.push_back({item->optValue<int>("at_page", 0),
                                             item->optValue<int>("after_describe", 0),
                                             tablesFrom(item->getObject("tables"))});
        }
        open[path] = database;
        return database;
    }

    // Called with the database's mutex held.
    void throwIfRestarted() const {
        if (restartsSeen_ != database_->restarts) {
            throw DriverError(TDG_IO, "server closed the connection unexpectedly", "08006", true);
        }
    }

    // What is counted per database file across the process's connections, each from 1.
    enum class Tally { Connections, PagesRead, Fetches, Chunks, Describes };
    static int count(Tally tally, const std::string& path) {
        static std::mutex mutex;
        static std::map<std::pair<Tally, std::string>, int> counts;
        std::lock_guard<std::mutex> lock(mutex);
        return ++counts[{tally, path}];
    }

    static std::vector<ColumnInfo> diffgenColumns() {
        std::vector<ColumnInfo> columns;
        int ordinal = 0;
        for (const char* name : {"id", "tablename", "table_id", "op", "ts_created"}) {
            ColumnInfo info;
            info.name = name;
            info.ordinal = ++ordinal;
            info.kind = ordinal == 1 ? TDG_KIND_INT64 : TDG_KIND_TEXT;
            info.jsonSchema = jsonSchemaForKind(info.kind);
            columns.push_back(info);
        }
        return columns;
    }

    static bool visible(const FakeEvent& event) { return event.checksUntilVisible == 0; }

    bool journalUnsupported() const {
        return journal_.isString() && journal_.toString() == "unsupported";
    }
    Poco::JSON::Object::Ptr journalObject() const {
        if (journal_.isEmpty() || journal_.isString()) return nullptr;
        return journal_.extract<Poco::JSON::Object::Ptr>();
    }

    // The entries of journal[section][table], each an array; none when absent.
    static std::vector<Poco::JSON::Array::Ptr> entries(const Poco::JSON::Object::Ptr& journal,
                                                       const char* section,
                                                       const std::string& table) {
        std::vector<Poco::JSON::Array::Ptr> found;
        if (!journal || !journal->has(section)) return found;
        auto byTable = journal->getObject(section);
        auto list = byTable->getArray(table);
        for (size_t i = 0; list && i < list->size(); ++i) {
            found.push_back(list->getArray(static_cast<unsigned>(i)));
        }
        return found;
    }

    static TableJournal tableJournal(const Poco::JSON::Object::Ptr& journal,
                                     const std::string& table, const JournalRequest& request) {
        TableJournal facts;
        if (journal && journal->has("partitions")) {
            auto list = journal->getObject("partitions")->getArray(table);
            for (size_t i = 0; list && i < list->size(); ++i) {
                std::string name = list->getElement<std::string>(static_cast<unsigned>(i));
                const size_t dot = name.find('.');
                TableName partition;
                if (dot != std::string::npos) partition.schema = name.substr(0, dot);
                partition.name = name.substr(dot == std::string::npos ? 0 : dot + 1);
                facts.partitions.push_back(partition);
            }
        }
        for (const auto& key : entries(journal, "bypassing", table)) {
            facts.bypassingForeignKeys.push_back(
                {key->getElement<std::string>(0),
                 TableName{std::nullopt, key->getElement<std::string>(1)},
                 key->getElement<std::string>(2)});
        }
        if (!request.includeTriggers) return facts;
        for (const auto& trigger : entries(journal, "triggers", table)) {
            JournalTrigger found{trigger->getElement<std::string>(0),
                                 trigger->getElement<std::string>(1), std::nullopt, std::nullopt};
            if (!trigger->isNull(2)) found.journalName = trigger->getElement<std::string>(2);
            if (auto key = trigger->getArray(3)) {
                found.keyColumns.emplace();
                for (size_t i = 0; i < key->size(); ++i) {
                    found.keyColumns->push_back(
                        key->getElement<std::string>(static_cast<unsigned>(i)));
                }
            }
            facts.triggers.push_back(found);
        }
        return facts;
    }

    // A copy: a migration may replace the table while the copy is read.
    FakeTable find(const TableName& table) const {
        std::lock_guard<std::mutex> lock(database_->mutex);
        auto found = database_->tables.find(table.display());
        if (found == database_->tables.end())
            throw notFound("table '" + table.display() + "' does not exist");
        return found->second;
    }

    static size_t columnIndex(const FakeTable& table, std::string_view name) {
        for (size_t i = 0; i < table.columns.size(); ++i) {
            if (table.columns[i].name == name) return i;
        }
        throw tableChanged("column '" + std::string(name) + "' does not exist");
    }

    static int compareValues(TdgValueKind kind, const Poco::Dynamic::Var& a,
                             const Poco::Dynamic::Var& b) {
        if (kind == TDG_KIND_INT64) {
            const int64_t x = a.convert<int64_t>();
            const int64_t y = b.convert<int64_t>();
            return x < y ? -1 : (x > y ? 1 : 0);
        }
        return a.toString().compare(b.toString());
    }

    static int compareKeys(const FakeTable& table, const std::vector<size_t>& keyColumns,
                           const Poco::JSON::Array::Ptr& a, const Poco::JSON::Array::Ptr& b) {
        for (size_t column : keyColumns) {
            const auto index = static_cast<unsigned>(column);
            if (int order =
                    compareValues(table.columns[column].kind, a->get(index), b->get(index))) {
                return order;
            }
        }
        return 0;
    }

    // A row's key against a key given as cells.
    static int compareKey(const FakeTable& table, const std::vector<size_t>& keyColumns,
                          const Poco::JSON::Array::Ptr& row, const std::vector<TdgCell>& key) {
        for (size_t c = 0; c < keyColumns.size(); ++c) {
            const TdgCell& cell = key[c];
            const Poco::Dynamic::Var given =
                cell.kind == TDG_KIND_INT64 || cell.kind == TDG_KIND_BOOL
                    ? Poco::Dynamic::Var(cell.i64)
                    : Poco::Dynamic::Var(std::string(cell.data, static_cast<size_t>(cell.size)));
            const size_t column = keyColumns[c];
            if (int order = compareValues(table.columns[column].kind,
                                          row->get(static_cast<unsigned>(column)), given)) {
                return order;
            }
        }
        return 0;
    }

    static void addRow(const FakeTable& table, const Poco::JSON::Array::Ptr& row,
                       const std::vector<std::string_view>& columns, RowBatchBuilder& rows) {
        for (std::string_view name : columns) {
            size_t index = columnIndex(table, name);
            Poco::Dynamic::Var value = row->get(static_cast<unsigned>(index));
            TdgValueKind kind = table.columns[index].kind;
            if (value.isEmpty()) {
                rows.addNull();
            } else if (kind == TDG_KIND_BOOL) {
                rows.addBool(value.convert<bool>());
            } else if (kind == TDG_KIND_INT64) {
                rows.addInt64(value.convert<int64_t>());
            } else {
                rows.addText(kind, value.toString());
            }
        }
        rows.endRow();
    }
};

}  // namespace

TAP_DIFFGEN_EXPORT_DRIVER(FakeDriver, "fake", TAP_DIFFGEN_NO_ALIASES, "0.0.1",
                          "in-memory driver for engine tests")
