#include "plugin/dialect_connection.hpp"

#include <cstring>
#include <deque>
#include <exception>

namespace tapdiffgen::core {

const char* statusName(TdgStatus status) {
    switch (status) {
        case TDG_OK:
            return "OK";
        case TDG_NOT_IMPLEMENTED:
            return "NOT_IMPLEMENTED";
        case TDG_NOT_FOUND:
            return "NOT_FOUND";
        case TDG_INVALID_ARGUMENT:
            return "INVALID_ARGUMENT";
        case TDG_INVALID_STATE:
            return "INVALID_STATE";
        case TDG_IO:
            return "IO";
        case TDG_UNAUTHENTICATED:
            return "UNAUTHENTICATED";
        case TDG_UNAUTHORIZED:
            return "UNAUTHORIZED";
        case TDG_CANCELLED:
            return "CANCELLED";
        case TDG_INVALID_DATA:
            return "INVALID_DATA";
        case TDG_INTERNAL:
            return "INTERNAL";
        case TDG_TABLE_CHANGED:
            return "TABLE_CHANGED";
        default:
            return "UNKNOWN";
    }
}

ErrorKind errorKindOfStatus(TdgStatus status) {
    switch (status) {
        case TDG_NOT_FOUND:
        case TDG_INVALID_ARGUMENT:
        case TDG_UNAUTHENTICATED:
        case TDG_UNAUTHORIZED:
            return ErrorKind::Configuration;
        case TDG_INVALID_DATA:
        case TDG_TABLE_CHANGED:
            return ErrorKind::Data;
        case TDG_NOT_IMPLEMENTED:
        case TDG_INVALID_STATE:
        case TDG_INTERNAL:
            return ErrorKind::Internal;
        default:  // IO, CANCELLED, UNKNOWN: the database or the way to it failed
            return ErrorKind::Connection;
    }
}

EventPage::EventPage(EventPage&& other) noexcept : page_(other.page_) { other.page_ = {}; }

EventPage& EventPage::operator=(EventPage&& other) noexcept {
    if (this != &other) {
        if (page_.release != nullptr) page_.release(&page_);
        page_ = other.page_;
        other.page_ = {};
    }
    return *this;
}

EventPage::~EventPage() {
    if (page_.release != nullptr) page_.release(&page_);
}

namespace {

// Frees a TdgError whatever happens to the call that received it.
struct ErrorGuard {
    TdgError error{};
    ~ErrorGuard() {
        if (error.release != nullptr) error.release(&error);
    }
};

TdgTableRef toRef(const TableRef& table) {
    return {table.schema.empty() ? nullptr : table.schema.c_str(), table.name.c_str()};
}

std::vector<const char*> cStrings(const std::vector<std::string>& items) {
    std::vector<const char*> pointers;
    pointers.reserve(items.size());
    for (const auto& item : items) pointers.push_back(item.c_str());
    return pointers;
}

void forwardLog(void* context, int32_t level, const char* message) {
    auto* log = static_cast<LogFunction*>(context);
    if (log != nullptr && *log && message != nullptr) (*log)(level, message);
}

// Carries the engine's callback through the C sink; an exception it throws is parked here and
// rethrown once the plugin has returned, so nothing C++ ever unwinds through the plugin.
struct SinkContext {
    const BatchCallback* callback;
    std::exception_ptr failure;
};

int32_t sinkTrampoline(void* context, const TdgRowBatch* batch) {
    auto* sink = static_cast<SinkContext*>(context);
    try {
        (*sink->callback)(*batch);
        return 0;
    } catch (...) {
        sink->failure = std::current_exception();
        return 1;
    }
}

}  // namespace

DialectConnection::DialectConnection(
    std::shared_ptr<const Plugin> plugin,
    const std::vector<std::pair<std::string, std::string>>& options, LogFunction log)
    : plugin_(std::move(plugin)), log_(std::move(log)) {
    std::vector<TdgOption> cOptions;
    cOptions.reserve(options.size());
    for (const auto& [key, value] : options) cOptions.push_back({key.c_str(), value.c_str()});
    TdgConnectParams params{};
    params.struct_size = sizeof(params);
    params.num_options = static_cast<int32_t>(cOptions.size());
    params.options = cOptions.data();
    params.log = &forwardLog;
    params.log_context = &log_;
    ErrorGuard guard;
    check(plugin_->driver().connect(&params, &connection_, &guard.error), guard.error, "connect");
}

DialectConnection::~DialectConnection() {
    if (connection_ != nullptr) plugin_->driver().close(connection_);
}

void DialectConnection::fail(TdgStatus status, TdgError& error, const std::string& context) {
    std::string message = error.message != nullptr && error.message[0] != '\0'
                              ? error.message
                              : context + " failed with status " + statusName(status);
    std::string sqlstate(error.sqlstate, strnlen(error.sqlstate, sizeof(error.sqlstate)));
    bool retryable = error.retryable != 0;
    throw DialectError(status, message, sqlstate, retryable);
}

void DialectConnection::check(TdgStatus status, TdgError& error, const std::string& context) {
    if (status != TDG_OK) fail(status, error, context);
}

std::string DialectConnection::serverVersion() {
    char buffer[256] = {0};
    ErrorGuard guard;
    check(plugin_->driver().server_version(connection_, buffer, sizeof(buffer), &guard.error),
          guard.error, "server_version");
    return buffer;
}

namespace {

bool isClockKind(TdgValueKind kind) {
    return kind == TDG_KIND_TIME || kind == TDG_KIND_TIMESTAMP || kind == TDG_KIND_TIMESTAMPTZ;
}

// Takes the list's columns and releases it. key_support, and the scale of times, are read
// from a plugin of revision 6 only: before, the byte was reserved and the scale undefined.
std::vector<ColumnDescription> columnsOf(TdgColumnList& list, int32_t abiVersion) {
    const bool revision6 = abiVersion >= TDG_ABI_VERSION_6;
    std::vector<ColumnDescription> columns;
    columns.reserve(static_cast<size_t>(list.num_columns));
    for (int32_t i = 0; i < list.num_columns; ++i) {
        const TdgColumn& c = list.columns[i];
        const int scale = revision6 || !isClockKind(c.value_kind) ? c.scale : -1;
        columns.push_back(
            {c.name ? c.name : "", c.ordinal, c.value_kind, c.sql_type ? c.sql_type : "",
             c.precision, scale, c.nullable != 0, c.primary_key != 0,
             c.json_schema ? c.json_schema : "{}",
             static_cast<uint8_t>(revision6 ? c.key_support : TDG_KEY_SUPPORT_UNSTATED)});
    }
    if (list.release != nullptr) list.release(&list);
    return columns;
}

}  // namespace

std::vector<ColumnDescription> DialectConnection::describeTable(const TableRef& table) {
    TdgTableRef ref = toRef(table);
    TdgColumnList list{};
    ErrorGuard guard;
    check(plugin_->driver().describe_table(connection_, &ref, &list, &guard.error), guard.error,
          "describe_table");
    return columnsOf(list, plugin_->driver().abi_version);
}

std::vector<std::vector<ColumnDescription>> DialectConnection::describeTables(
    const std::vector<TableRef>& tables) {
    std::vector<std::vector<ColumnDescription>> described;
    if (plugin_->driver().describe_tables == nullptr) {
        for (const auto& table : tables) described.push_back(describeTable(table));
        return described;
    }
    std::vector<TdgTableRef> refs;
    for (const auto& table : tables) refs.push_back(toRef(table));
    std::vector<TdgColumnList> lists(tables.size());
    ErrorGuard guard;
    check(plugin_->driver().describe_tables(connection_, refs.data(),
                                            static_cast<int64_t>(refs.size()), lists.data(),
                                            &guard.error),
          guard.error, "describe_tables");
    for (auto& list : lists) described.push_back(columnsOf(list, plugin_->driver().abi_version));
    return described;
}

EventPage DialectConnection::readDiffgenPage(const TableRef& diffgen, int64_t afterId,
                                             int64_t upToId, int64_t limit,
                                             const std::vector<std::string>& tableNames) {
    std::vector<const char*> names = cStrings(tableNames);
    TdgPageRequest request{};
    request.struct_size = sizeof(request);
    request.num_table_names = static_cast<int32_t>(names.size());
    request.diffgen = toRef(diffgen);
    request.after_id = afterId;
    request.up_to_id = upToId;
    request.limit = limit;
    request.table_names = names.data();
    TdgEventPage page{};
    ErrorGuard guard;
    check(plugin_->driver().read_diffgen_page(connection_, &request, &page, &guard.error),
          guard.error, "read_diffgen_page");
    return EventPage(page);
}

std::optional<int64_t> DialectConnection::maxDiffgenId(const TableRef& diffgen) {
    TdgTableRef ref = toRef(diffgen);
    int64_t maxId = 0;
    int32_t isEmpty = 1;
    ErrorGuard guard;
    check(plugin_->driver().max_diffgen_id(connection_, &ref, &maxId, &isEmpty, &guard.error),
          guard.error, "max_diffgen_id");
    if (isEmpty != 0) return std::nullopt;
    return maxId;
}

namespace {

KeySpec singleColumnKey(const std::string& column) {
    return KeySpec{{KeyColumn{column, TDG_KIND_TEXT, false, "", -1}}};
}

}  // namespace

// A TdgFetchRequest and the arrays it points into.
struct DialectConnection::FetchRequestStorage {
    std::vector<const char*> columnNames;
    std::vector<std::string> keyNames;
    std::vector<const char*> keyColumnNames;
    std::vector<const char*> keyData;
    std::vector<uint64_t> keySizes;
    TdgFetchRequest request{};

    FetchRequestStorage(const FetchSpec& fetch, int64_t batchRows)
        : columnNames(cStrings(*fetch.columns)),
          keyNames(fetch.key->names()),
          keyColumnNames(cStrings(keyNames)),
          keyData(cStrings(fetch.keys)) {
        keySizes.reserve(fetch.keys.size());
        for (const auto& key : fetch.keys) keySizes.push_back(key.size());
        request.struct_size = sizeof(request);
        request.num_columns = static_cast<int32_t>(columnNames.size());
        request.table = toRef(*fetch.table);
        request.columns = columnNames.data();
        request.key_column = keyColumnNames[0];
        request.num_keys = static_cast<int64_t>(fetch.keys.size() / keyColumnNames.size());
        request.keys = keyData.data();
        request.key_sizes = keySizes.data();
        request.batch_rows = batchRows;
        request.num_key_columns = static_cast<int32_t>(keyColumnNames.size());
        request.key_columns = keyColumnNames.data();
        request.column_kinds = fetch.columnKinds != nullptr && !fetch.columnKinds->empty()
                                   ? fetch.columnKinds->data()
                                   : nullptr;
    }
};

bool DialectConnection::acceptsCompositeKeys() const {
    return plugin_->driver().abi_version >= TDG_ABI_VERSION_2;
}

void DialectConnection::fetchRows(const FetchSpec& fetch, int64_t batchRows) {
    FetchRequestStorage storage(fetch, batchRows);
    SinkContext sink{&fetch.onBatch, nullptr};
    ErrorGuard guard;
    TdgStatus status = plugin_->driver().fetch_rows(connection_, &storage.request, &sinkTrampoline,
                                                    &sink, &guard.error);
    if (sink.failure) std::rethrow_exception(sink.failure);
    check(status, guard.error, "fetch_rows");
}

void DialectConnection::fetchRows(const TableRef& table, const std::vector<std::string>& columns,
                                  const std::string& keyColumn,
                                  const std::vector<std::string>& keys,
                                  const BatchCallback& onBatch, int64_t batchRows) {
    const KeySpec key = singleColumnKey(keyColumn);
    fetchRows(FetchSpec{&table, &columns, nullptr, &key, keys, onBatch}, batchRows);
}

void DialectConnection::fetchRowsMany(const std::vector<FetchSpec>& fetches, int64_t batchRows) {
    if (plugin_->driver().fetch_rows_many == nullptr || fetches.size() < 2) {
        for (const FetchSpec& fetch : fetches) fetchRows(fetch, batchRows);
        return;
    }
    // The array is laid out with the request size of the plugin's revision, which is the
    // stride it steps through it with (see TdgDriver.fetch_rows_many).
    const size_t stride =
        acceptsCompositeKeys() ? TDG_FETCH_REQUEST_SIZE_2 : TDG_FETCH_REQUEST_SIZE_1;
    static_assert(TDG_FETCH_REQUEST_SIZE_1 % alignof(TdgFetchRequest) == 0);
    std::deque<FetchRequestStorage> storage;
    std::vector<uint64_t> packed((fetches.size() * stride + 7) / 8);
    auto* bytes = reinterpret_cast<unsigned char*>(packed.data());
    std::deque<SinkContext> sinks;
    std::vector<TdgBatchSink> sinkFunctions(fetches.size(), &sinkTrampoline);
    std::vector<void*> sinkContexts;
    for (size_t i = 0; i < fetches.size(); ++i) {
        TdgFetchRequest& request = storage.emplace_back(fetches[i], batchRows).request;
        request.struct_size = static_cast<uint32_t>(stride);
        std::memcpy(bytes + i * stride, &request, stride);
        sinkContexts.push_back(&sinks.emplace_back(SinkContext{&fetches[i].onBatch, nullptr}));
    }
    ErrorGuard guard;
    TdgStatus status = plugin_->driver().fetch_rows_many(
        connection_, reinterpret_cast<const TdgFetchRequest*>(bytes),
        static_cast<int64_t>(fetches.size()), sinkFunctions.data(), sinkContexts.data(),
        &guard.error);
    for (const SinkContext& sink : sinks) {
        if (sink.failure) std::rethrow_exception(sink.failure);
    }
    check(status, guard.error, "fetch_rows_many");
}

namespace {

// A scan request of revision 5 over `scan`, pointing into `names`, which must outlive it.
struct ScanRequestStorage {
    std::vector<const char*> columnNames;
    std::vector<std::string> keyNames;
    std::vector<const char*> keyColumnNames;
    TdgScanRequest request{};

    explicit ScanRequestStorage(const ScanSpec& scan)
        : columnNames(cStrings(*scan.columns)),
          keyNames(scan.key->names()),
          keyColumnNames(cStrings(keyNames)) {
        request.struct_size = TDG_SCAN_REQUEST_SIZE_5;
        request.num_columns = static_cast<int32_t>(columnNames.size());
        request.table = toRef(*scan.table);
        request.columns = columnNames.data();
        request.key_column = keyColumnNames[0];
        request.batch_rows = scan.batchRows;
        request.num_key_columns = static_cast<int32_t>(keyColumnNames.size());
        request.key_columns = keyColumnNames.data();
        request.column_kinds = scan.columnKinds != nullptr && !scan.columnKinds->empty()
                                   ? scan.columnKinds->data()
                                   : nullptr;
    }
};

}  // namespace

void DialectConnection::scanTable(const ScanSpec& scan, const BatchCallback& onBatch) {
    ScanRequestStorage storage(scan);
    SinkContext sink{&onBatch, nullptr};
    ErrorGuard guard;
    TdgStatus status = plugin_->driver().scan_table(connection_, &storage.request, &sinkTrampoline,
                                                    &sink, &guard.error);
    if (sink.failure) std::rethrow_exception(sink.failure);
    check(status, guard.error, "scan_table");
}

void DialectConnection::scanTable(const TableRef& table, const std::vector<std::string>& columns,
                                  const std::vector<TdgValueKind>* columnKinds, const KeySpec& key,
                                  int64_t batchRows, const BatchCallback& onBatch) {
    scanTable(ScanSpec{&table, &columns, columnKinds, &key, batchRows}, onBatch);
}

void DialectConnection::scanTable(const TableRef& table, const std::vector<std::string>& columns,
                                  const std::string& keyColumn, int64_t batchRows,
                                  const BatchCallback& onBatch) {
    scanTable(table, columns, nullptr, singleColumnKey(keyColumn), batchRows, onBatch);
}

bool DialectConnection::scanChunk(const ScanSpec& scan, const std::vector<TdgCell>& afterKey,
                                  int64_t maxRows, const BatchCallback& onBatch) {
    if (plugin_->driver().scan_chunk == nullptr || cannotChunk_) return false;
    ScanRequestStorage storage(scan);
    storage.request.after_key = afterKey.empty() ? nullptr : afterKey.data();
    storage.request.max_rows = maxRows;
    SinkContext sink{&onBatch, nullptr};
    ErrorGuard guard;
    TdgStatus status = plugin_->driver().scan_chunk(connection_, &storage.request, &sinkTrampoline,
                                                    &sink, &guard.error);
    if (sink.failure) std::rethrow_exception(sink.failure);
    if (status == TDG_NOT_IMPLEMENTED) {
        cannotChunk_ = true;
        return false;
    }
    check(status, guard.error, "scan_chunk");
    return true;
}

std::optional<int64_t> DialectConnection::estimateRows(const TableRef& table) {
    if (plugin_->driver().estimate_rows == nullptr) return std::nullopt;
    TdgTableRef ref = toRef(table);
    int64_t rows = -1;
    ErrorGuard guard;
    TdgStatus status = plugin_->driver().estimate_rows(connection_, &ref, &rows, &guard.error);
    if (status == TDG_NOT_IMPLEMENTED) return std::nullopt;
    check(status, guard.error, "estimate_rows");
    if (rows < 0) return std::nullopt;
    return rows;
}

std::optional<JournalBounds> DialectConnection::journalBounds(const TableRef& diffgen) {
    if (plugin_->driver().journal_bounds == nullptr) return std::nullopt;
    TdgTableRef ref = toRef(diffgen);
    TdgJournalBounds bounds{};
    bounds.struct_size = TDG_JOURNAL_BOUNDS_SIZE_6;
    ErrorGuard guard;
    TdgStatus status = plugin_->driver().journal_bounds(connection_, &ref, &bounds, &guard.error);
    if (status == TDG_NOT_IMPLEMENTED) return std::nullopt;
    check(status, guard.error, "journal_bounds");
    return journalBoundsOf(bounds);
}

std::optional<JournalInspection> DialectConnection::inspectJournal(
    const TableRef& diffgen, const std::vector<TableRef>& tables, bool includeTriggers) {
    if (plugin_->driver().inspect_journal == nullptr) return std::nullopt;
    std::vector<TdgTableRef> refs;
    refs.reserve(tables.size());
    for (const TableRef& table : tables) refs.push_back(toRef(table));
    TdgJournalRequest request{};
    request.struct_size = TDG_JOURNAL_REQUEST_SIZE_5;
    request.num_tables = static_cast<int32_t>(refs.size());
    request.diffgen = toRef(diffgen);
    request.tables = refs.data();
    request.include_triggers = includeTriggers ? 1 : 0;
    TdgJournalInspection inspection{};
    ErrorGuard guard;
    TdgStatus status =
        plugin_->driver().inspect_journal(connection_, &request, &inspection, &guard.error);
    if (status == TDG_NOT_IMPLEMENTED) return std::nullopt;
    check(status, guard.error, "inspect_journal");
    // Copied before release, so nothing of the plugin's outlives the call.
    struct Release {
        TdgJournalInspection& inspection;
        ~Release() {
            if (inspection.release != nullptr) inspection.release(&inspection);
        }
    } release{inspection};
    JournalInspection facts = journalInspectionOf(inspection);
    if (facts.tables.size() != tables.size()) {
        throw DialectError(TDG_INTERNAL,
                           "inspect_journal answered for " + std::to_string(facts.tables.size()) +
                               " of " + std::to_string(tables.size()) + " tables",
                           "", false);
    }
    return facts;
}

std::optional<bool> DialectConnection::checkHorizon(TdgHorizonMark& mark) {
    if (plugin_->driver().check_horizon == nullptr) return std::nullopt;
    int32_t state = TDG_HORIZON_PENDING;
    TdgHorizonMark next = mark;
    ErrorGuard guard;
    TdgStatus status =
        plugin_->driver().check_horizon(connection_, &mark, &state, &next, &guard.error);
    if (status == TDG_NOT_IMPLEMENTED) return std::nullopt;
    check(status, guard.error, "check_horizon");
    mark = next;
    return state == TDG_HORIZON_FINAL;
}

std::optional<bool> DialectConnection::waitForChange(int64_t timeoutMs) {
    if (plugin_->driver().wait_for_change == nullptr || cannotWait_) return std::nullopt;
    int32_t changed = 0;
    ErrorGuard guard;
    TdgStatus status =
        plugin_->driver().wait_for_change(connection_, timeoutMs, &changed, &guard.error);
    if (status == TDG_NOT_IMPLEMENTED) {
        cannotWait_ = true;
        return std::nullopt;
    }
    check(status, guard.error, "wait_for_change");
    return changed != 0;
}

void DialectConnection::cancel() {
    if (plugin_->driver().cancel == nullptr || connection_ == nullptr) return;
    ErrorGuard guard;
    plugin_->driver().cancel(connection_, &guard.error);
}

}  // namespace tapdiffgen::core
