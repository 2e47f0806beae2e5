// tap-diffgen-dialect-faulty: a first-party plugin with one bug put in, so that the test suite
// can show each conformance case failing on the bug it is there to catch.
//
// It loads the plugin named by TDG_FAULTY_INNER (a path to a .so) and passes every call through
// to it, except where TDG_FAULTY_FAULT names a fault (faults() below lists them). Each fault
// reproduces a bug a dialect written outside this repository shipped with, as seen from the
// outside; the plugin under it does the real work, so whatever else the case checks still
// holds. Without a fault ("none") it must pass every case its inner plugin passes.
//
// It speaks the C ABI directly, as the inner plugin's table is what it wraps.
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tap-diffgen/dialect_abi.h"

namespace {

enum class Fault {
    None,
    UuidUpperCase,            // uuids in upper case (an ODBC driver's SQL_GUID text)
    JsonAsText,               // JSON columns described and sent as text
    InfinityAsDate,           // a date or time the plugin under it sent as NULL (±infinity, BC,
                              // years past 9999) as the largest date, as a text path that maps
                              // infinity to 9999-12-31 does
    TimeWithoutOffset,        // timetz without its offset (ODBC's SQL_TIME_STRUCT has none)
    BitAsBytes,               // MySQL BIT(n) described and sent as bytes
    ScanPagesOnFirstKey,      // scans in pages of its own size, each after the last page's first
                              // key column only ("WHERE a > ?"), so a page that ends inside a run
                              // of equal first key values skips the rest of that run
    FetchFirstChunkOnly,      // fetches its keys in chunks of its own size, but only the first
    CancelBetweenBatches,     // cancel only stops the row stream between batches
    EarlyMark,                // every page carries the horizon mark of the connection's first page,
                              // and a mark is final once the transactions that ran when it was
                              // taken have ended (no successor mark): like a mark of the last
                              // commit (PostgreSQL's snapshot xmax), it misses a writer that began
                              // after it
    NoCheckHorizon,           // no check_horizon at all (the engine then waits its settle time)
    DecimalTrailingZeros,     // decimals without their trailing zeros (1.50 as 1.5), as a client
                              // that reads numerics into a decimal type without scale sends them
    IntegerViaDouble,         // integers and decimals through a double (a JSON library's number)
    UnsignedAsSigned,         // bigint unsigned above 2^63-1 read as a signed 64-bit integer
    TextCut64K,               // text cut at 64 KiB (a fixed fetch buffer)
    TextCutAtNul,             // text cut at its first NUL (a C string)
    ChunkInclusive,           // scan_chunk starts at its after_key row (">=") instead of after it
    LostConnectionPermanent,  // a lost connection reported as UNKNOWN, not retryable
    KeysUnquoted,             // fetch keys pasted unquoted into a list or array literal: a key
                              // with a comma, quote, brace, backslash or blank finds no row
    ChunkAfterFirstKey,       // scan_chunk after the after_key's first column alone ("a > ?"):
                              // the rest of that column's run is skipped
    DigestCountsColumns,      // describe_tables answers from a cache whose digest of a table is
                              // its number of columns: a rename, a new type or nullability, or a
                              // column moved is not seen
};

const std::map<std::string, Fault>& faults() {
    static const std::map<std::string, Fault> byName = {
        {"none", Fault::None},
        {"uuid-upper-case", Fault::UuidUpperCase},
        {"json-as-text", Fault::JsonAsText},
        {"infinity-as-date", Fault::InfinityAsDate},
        {"time-without-offset", Fault::TimeWithoutOffset},
        {"bit-as-bytes", Fault::BitAsBytes},
        {"scan-pages-on-first-key", Fault::ScanPagesOnFirstKey},
        {"fetch-first-chunk-only", Fault::FetchFirstChunkOnly},
        {"cancel-between-batches", Fault::CancelBetweenBatches},
        {"early-mark", Fault::EarlyMark},
        {"no-check-horizon", Fault::NoCheckHorizon},
        {"decimal-trailing-zeros", Fault::DecimalTrailingZeros},
        {"integer-via-double", Fault::IntegerViaDouble},
        {"unsigned-as-signed", Fault::UnsignedAsSigned},
        {"text-cut-64k", Fault::TextCut64K},
        {"text-cut-at-nul", Fault::TextCutAtNul},
        {"chunk-inclusive", Fault::ChunkInclusive},
        {"lost-connection-permanent", Fault::LostConnectionPermanent},
        {"keys-unquoted", Fault::KeysUnquoted},
        {"chunk-after-first-key", Fault::ChunkAfterFirstKey},
        {"digest-counts-columns", Fault::DigestCountsColumns},
    };
    return byName;
}

// The page and chunk size of the faulty scan and fetch: far more than the old cases' tables
// hold, far less than the keyset case's.
constexpr int64_t kOwnPageSize = 1000;

TdgDriver inner{};
Fault fault = Fault::None;

void setError(TdgError* error, const std::string& message) {
    if (error == nullptr) return;
    error->message = strdup(message.c_str());
    error->release = [](TdgError* e) {
        free(e->message);
        *e = TdgError{};
    };
}

// ---- Connections --------------------------------------------------------------------------

struct Columns {
    std::vector<std::string> names;
    std::vector<TdgValueKind> kinds;  // as the plugin under this one described them
};

// A row kept beyond the batch that lent it (its texts in a deque, which never moves them).
struct OwnedRow {
    std::vector<TdgCell> cells;
    std::deque<std::string> texts;

    void take(const TdgCell* row, int32_t width) {
        cells.assign(row, row + width);
        texts.clear();
        for (TdgCell& cell : cells) {
            if (cell.data == nullptr) continue;
            cell.data = texts.emplace_back(cell.data, cell.size).data();
        }
    }
};

// A column list kept beyond the call that returned it (its texts in a deque, which never moves
// them).
struct OwnedColumns {
    std::vector<TdgColumn> columns;
    std::deque<std::string> texts;

    static std::unique_ptr<OwnedColumns> of(const TdgColumn* columns, int32_t count) {
        auto owned = std::make_unique<OwnedColumns>();
        owned->columns.assign(columns, columns + count);
        for (TdgColumn& column : owned->columns) {
            for (const char** text : {&column.name, &column.sql_type, &column.json_schema}) {
                if (*text != nullptr) *text = owned->texts.emplace_back(*text).c_str();
            }
        }
        return owned;
    }
};

struct Connection {
    TdgConnection* inner = nullptr;
    // DigestCountsColumns: the first description of each table
    std::map<std::string, std::unique_ptr<OwnedColumns>> cachedDescriptions;
    OwnedRow lastChunkRow;  // ChunkInclusive: the last row of the last chunk
    std::atomic<bool> cancelRequested{false};
    bool marked = false;
    TdgHorizonMark firstMark{};
    std::map<std::string, Columns> described;  // by "schema.name"
};

Connection* wrapped(TdgConnection* connection) { return reinterpret_cast<Connection*>(connection); }

std::string tableKey(const TdgTableRef& table) {
    return std::string(table.schema != nullptr ? table.schema : "") + "." +
           (table.name != nullptr ? table.name : "");
}

// ---- Values -------------------------------------------------------------------------------

bool isUuid(std::string_view text) {
    if (text.size() != 36) return false;
    for (size_t i = 0; i < text.size(); ++i) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : std::isxdigit(static_cast<unsigned char>(text[i])) == 0) {
            return false;
        }
    }
    return true;
}

const char* largestOf(TdgValueKind kind) {
    switch (kind) {
        case TDG_KIND_DATE:
            return "9999-12-31";
        case TDG_KIND_TIMESTAMP:
            return "9999-12-31T23:59:59";
        case TDG_KIND_TIMESTAMPTZ:
            return "9999-12-31T23:59:59+00:00";
        default:
            return nullptr;
    }
}

// A batch with the fault's changes, owning what it changed.
class ChangedBatch {
public:
    ChangedBatch(const TdgRowBatch& batch, const std::vector<TdgValueKind>& requestedKinds) {
        cells_.assign(batch.cells, batch.cells + batch.num_rows * batch.num_columns);
        for (size_t i = 0; i < cells_.size(); ++i) {
            change(cells_[i], requestedKinds.at(i % static_cast<size_t>(batch.num_columns)));
        }
        batch_ = batch;
        batch_.cells = cells_.data();
    }
    const TdgRowBatch& batch() const { return batch_; }

private:
    void setText(TdgCell& cell, TdgValueKind kind, std::string text) {
        const std::string& kept = texts_.emplace_back(std::move(text));
        cell.kind = kind;
        cell.data = kept.data();
        cell.size = kept.size();
    }

    // The value faults of the bugs a value's text or number lost on its way.
    bool changeValue(TdgCell& cell) {
        std::string text(cell.data != nullptr ? cell.data : "", cell.size);
        const bool plainDecimal =
            cell.kind == TDG_KIND_DECIMAL && text.find_first_of("eE") == std::string::npos;
        if (fault == Fault::DecimalTrailingZeros && plainDecimal &&
            text.find('.') != std::string::npos) {
            while (text.back() == '0') text.pop_back();
            if (text.back() == '.') text.pop_back();
            setText(cell, TDG_KIND_DECIMAL, text);
        } else if (fault == Fault::IntegerViaDouble && cell.kind == TDG_KIND_INT64) {
            const double number = static_cast<double>(cell.i64);
            // What x86's conversion gives for a double past the largest int64: its smallest.
            cell.i64 = number >= 9223372036854775807.0 ? INT64_MIN : static_cast<int64_t>(number);
        } else if (fault == Fault::IntegerViaDouble && plainDecimal) {
            char buffer[32];
            auto end =
                std::to_chars(buffer, buffer + sizeof(buffer), std::strtod(text.c_str(), nullptr));
            setText(cell, TDG_KIND_DECIMAL, std::string(buffer, end.ptr));
        } else if (fault == Fault::UnsignedAsSigned && plainDecimal && text.size() >= 19 &&
                   text.find_first_not_of("0123456789") == std::string::npos &&
                   (text.size() > 19 || text > "9223372036854775807")) {
            setText(cell, TDG_KIND_DECIMAL,
                    std::to_string(static_cast<int64_t>(std::strtoull(text.c_str(), nullptr, 10))));
        } else if (fault == Fault::TextCut64K && cell.kind == TDG_KIND_TEXT && cell.size > 65536) {
            cell.size = 65536;
        } else if (fault == Fault::TextCutAtNul && cell.kind == TDG_KIND_TEXT &&
                   text.find('\0') != std::string::npos) {
            cell.size = text.find('\0');
        } else {
            return false;
        }
        return true;
    }

    void change(TdgCell& cell, TdgValueKind requested) {
        std::string_view text(cell.data != nullptr ? cell.data : "", cell.size);
        if (changeValue(cell)) return;
        if (fault == Fault::UuidUpperCase && cell.kind == TDG_KIND_TEXT && isUuid(text)) {
            std::string upper(text);
            for (char& c : upper)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            setText(cell, TDG_KIND_TEXT, upper);
        } else if (fault == Fault::JsonAsText && cell.kind == TDG_KIND_JSON) {
            cell.kind = TDG_KIND_TEXT;
        } else if (fault == Fault::InfinityAsDate && cell.kind == TDG_KIND_NULL &&
                   largestOf(requested) != nullptr) {
            setText(cell, requested, largestOf(requested));
        } else if (fault == Fault::TimeWithoutOffset && cell.kind == TDG_KIND_TIME) {
            size_t offset = text.find_first_of("+-", 1);
            if (offset != std::string_view::npos)
                setText(cell, TDG_KIND_TIME, std::string(text.substr(0, offset)));
        } else if (fault == Fault::BitAsBytes && cell.kind == TDG_KIND_INT64 &&
                   requested == TDG_KIND_BYTES) {
            std::string bytes;
            for (uint64_t value = static_cast<uint64_t>(cell.i64); value > 0 || bytes.empty();
                 value >>= 8) {
                bytes.insert(bytes.begin(), static_cast<char>(value & 0xff));
            }
            setText(cell, TDG_KIND_BYTES, bytes);
        }
    }

    std::vector<TdgCell> cells_;
    std::deque<std::string> texts_;
    TdgRowBatch batch_{};
};

// Stands between the plugin under this one and the host's sink.
struct SinkShim {
    Connection* connection;
    TdgBatchSink sink;
    void* context;
    std::vector<TdgValueKind> requestedKinds;
    // ScanPagesOnFirstKey: where the first key column is, rows kept, and the value whose run
    // the faulty next page skips.
    size_t firstKey = 0;
    int64_t kept = 0;
    std::optional<std::string> skipping;

    static int32_t deliver(void* self, const TdgRowBatch* batch) {
        return static_cast<SinkShim*>(self)->forward(*batch);
    }

    int32_t forward(const TdgRowBatch& batch) {
        if (fault == Fault::CancelBetweenBatches && connection->cancelRequested.load()) return 1;
        if (fault == Fault::ScanPagesOnFirstKey) return forwardPaged(batch);
        ChangedBatch changed(batch, requestedKinds);
        return sink(context, &changed.batch());
    }

    static std::string valueOf(const TdgCell& cell) {
        if (cell.kind == TDG_KIND_INT64 || cell.kind == TDG_KIND_BOOL)
            return std::to_string(cell.i64);
        return std::string(cell.data != nullptr ? cell.data : "", cell.size);
    }

    int32_t forwardPaged(const TdgRowBatch& batch) {
        std::vector<TdgCell> rows;
        const auto width = static_cast<size_t>(batch.num_columns);
        for (int64_t r = 0; r < batch.num_rows; ++r) {
            const TdgCell* row = batch.cells + r * batch.num_columns;
            std::string first = valueOf(row[firstKey]);
            if (skipping && first == *skipping) continue;
            skipping.reset();
            rows.insert(rows.end(), row, row + width);
            if (++kept % kOwnPageSize == 0) skipping = first;
        }
        TdgRowBatch shown = batch;
        shown.num_rows = static_cast<int64_t>(rows.size() / std::max<size_t>(width, 1));
        shown.cells = rows.data();
        return shown.num_rows == 0 ? 0 : sink(context, &shown);
    }
};

// The kinds the plugin under this one described for `columns` of `table` (a host sends the
// kinds this plugin reported, which a fault may have changed).
std::vector<TdgValueKind> innerKinds(Connection& connection, const TdgTableRef& table,
                                     const char* const* columns, int32_t count,
                                     const TdgValueKind* sent) {
    std::vector<TdgValueKind> kinds(sent, sent + count);
    auto found = connection.described.find(tableKey(table));
    if (found == connection.described.end()) return kinds;
    for (int32_t c = 0; c < count; ++c) {
        const auto& names = found->second.names;
        auto at = std::find(names.begin(), names.end(), columns[c]);
        if (at != names.end())
            kinds[static_cast<size_t>(c)] = found->second.kinds[at - names.begin()];
    }
    return kinds;
}

// ---- Descriptions -------------------------------------------------------------------------

struct ChangedColumns {
    TdgColumnList inner;
    std::vector<TdgColumn> columns;
    std::deque<std::string> schemas;
};

bool describedAsText(const TdgColumn& column) {
    return fault == Fault::JsonAsText && column.value_kind == TDG_KIND_JSON;
}

bool describedAsBytes(const TdgColumn& column) {
    return fault == Fault::BitAsBytes && column.value_kind == TDG_KIND_INT64 &&
           column.sql_type != nullptr && std::strncmp(column.sql_type, "bit(", 4) == 0;
}

void remember(Connection& connection, const TdgTableRef& table, const TdgColumnList& list) {
    Columns& columns = connection.described[tableKey(table)];
    columns = {};
    for (int32_t c = 0; c < list.num_columns; ++c) {
        columns.names.emplace_back(list.columns[c].name);
        columns.kinds.push_back(list.columns[c].value_kind);
    }
}

// Replaces `list` by a copy with the fault's kinds; its release frees both.
void changeColumns(TdgColumnList& list) {
    if (fault != Fault::JsonAsText && fault != Fault::BitAsBytes) return;
    auto* changed = new ChangedColumns{list, {}, {}};
    changed->columns.assign(list.columns, list.columns + list.num_columns);
    for (TdgColumn& column : changed->columns) {
        if (describedAsText(column)) {
            column.value_kind = TDG_KIND_TEXT;
            column.json_schema = changed->schemas.emplace_back(R"({"type":"string"})").c_str();
        } else if (describedAsBytes(column)) {
            column.value_kind = TDG_KIND_BYTES;
            column.json_schema =
                changed->schemas.emplace_back(R"({"type":"string","contentEncoding":"base16"})")
                    .c_str();
        }
    }
    list.columns = changed->columns.data();
    list.private_data = changed;
    list.release = [](TdgColumnList* self) {
        auto* owned = static_cast<ChangedColumns*>(self->private_data);
        if (owned->inner.release != nullptr) owned->inner.release(&owned->inner);
        delete owned;
        *self = TdgColumnList{};
    };
}

// ---- The table ----------------------------------------------------------------------------

TdgStatus connect(const TdgConnectParams* params, TdgConnection** out, TdgError* error) {
    if (out == nullptr) return inner.connect(params, out, error);
    TdgConnection* connection = nullptr;
    TdgStatus status = inner.connect(params, &connection, error);
    if (status != TDG_OK) return status;
    auto* self = new Connection;
    self->inner = connection;
    *out = reinterpret_cast<TdgConnection*>(self);
    return TDG_OK;
}

void close(TdgConnection* connection) {
    if (connection == nullptr) return;
    inner.close(wrapped(connection)->inner);
    delete wrapped(connection);
}

// Every call with a connection starts here: a NULL one is the host's error, and a cancel aimed
// at an earlier call is forgotten.
TdgConnection* begin(TdgConnection* connection) {
    if (connection == nullptr) return nullptr;
    wrapped(connection)->cancelRequested.store(false);
    return wrapped(connection)->inner;
}

TdgStatus serverVersion(TdgConnection* connection, char* buffer, size_t size, TdgError* error) {
    return inner.server_version(begin(connection), buffer, size, error);
}

TdgStatus describeTable(TdgConnection* connection, const TdgTableRef* table, TdgColumnList* out,
                        TdgError* error) {
    TdgStatus status = inner.describe_table(begin(connection), table, out, error);
    if (status == TDG_OK && connection != nullptr && table != nullptr && out != nullptr) {
        remember(*wrapped(connection), *table, *out);
        changeColumns(*out);
    }
    return status;
}

// DigestCountsColumns: `list` replaced by the cached description of `table` when that has as
// many columns, else kept in the cache.
void answerFromCache(Connection& connection, const TdgTableRef& table, TdgColumnList& list) {
    auto& cached = connection.cachedDescriptions[tableKey(table)];
    if (cached == nullptr || cached->columns.size() != static_cast<size_t>(list.num_columns)) {
        cached = OwnedColumns::of(list.columns, list.num_columns);
        return;
    }
    auto* copy = OwnedColumns::of(cached->columns.data(), list.num_columns).release();
    if (list.release != nullptr) list.release(&list);
    list.num_columns = static_cast<int32_t>(copy->columns.size());
    list.columns = copy->columns.data();
    list.private_data = copy;
    list.release = [](TdgColumnList* self) {
        delete static_cast<OwnedColumns*>(self->private_data);
        *self = TdgColumnList{};
    };
}

TdgStatus describeTables(TdgConnection* connection, const TdgTableRef* tables, int64_t count,
                         TdgColumnList* out, TdgError* error) {
    TdgStatus status = inner.describe_tables(begin(connection), tables, count, out, error);
    if (status == TDG_OK && connection != nullptr && tables != nullptr && out != nullptr) {
        for (int64_t i = 0; i < count; ++i) {
            if (fault == Fault::DigestCountsColumns) {
                answerFromCache(*wrapped(connection), tables[i], out[i]);
            }
            remember(*wrapped(connection), tables[i], out[i]);
            changeColumns(out[i]);
        }
    }
    return status;
}

TdgStatus readDiffgenPage(TdgConnection* connection, const TdgPageRequest* request,
                          TdgEventPage* out, TdgError* error) {
    TdgStatus status = inner.read_diffgen_page(begin(connection), request, out, error);
    if (status != TDG_OK || fault != Fault::EarlyMark || connection == nullptr) return status;
    Connection& self = *wrapped(connection);
    if (!self.marked) {
        self.firstMark = out->mark;
        self.marked = true;
    }
    out->mark = self.firstMark;
    return status;
}

TdgStatus maxDiffgenId(TdgConnection* connection, const TdgTableRef* diffgen, int64_t* maxId,
                       int32_t* isEmpty, TdgError* error) {
    return inner.max_diffgen_id(begin(connection), diffgen, maxId, isEmpty, error);
}

const TdgValueKind* kindsOf(const TdgFetchRequest& r) {
    return r.struct_size >= TDG_FETCH_REQUEST_SIZE_2 ? r.column_kinds : nullptr;
}
const TdgValueKind* kindsOf(const TdgScanRequest& r) {
    return r.struct_size >= TDG_SCAN_REQUEST_SIZE_2 ? r.column_kinds : nullptr;
}

// What an unquoted array literal ({a,b}) misreads: a key text that needs quoting in one.
bool needsQuoting(std::string_view key) {
    return key.empty() || key.find_first_of(",\"{}\\") != std::string_view::npos ||
           key.front() == ' ' || key.back() == ' ' || key == "NULL";
}

// The keys of a fetch without those an unquoted list loses (KeysUnquoted), in `keys`.
struct KeptKeys {
    std::vector<const char*> texts;
    std::vector<uint64_t> sizes;
};

void keepQuotableKeys(TdgFetchRequest& copy, KeptKeys& kept) {
    const int64_t width = copy.struct_size >= TDG_FETCH_REQUEST_SIZE_2 && copy.num_key_columns > 1
                              ? copy.num_key_columns
                              : 1;
    for (int64_t k = 0; k < copy.num_keys; ++k) {
        bool lost = false;
        for (int64_t c = 0; c < width; ++c) {
            const int64_t at = k * width + c;
            lost = lost || needsQuoting(std::string_view(copy.keys[at], copy.key_sizes[at]));
        }
        if (lost) continue;
        kept.texts.insert(kept.texts.end(), copy.keys + k * width, copy.keys + (k + 1) * width);
        kept.sizes.insert(kept.sizes.end(), copy.key_sizes + k * width,
                          copy.key_sizes + (k + 1) * width);
    }
    copy.num_keys = static_cast<int64_t>(kept.texts.size()) / width;
    copy.keys = kept.texts.data();
    copy.key_sizes = kept.sizes.data();
}

// A request as the plugin under this one reads it: its own kinds, FetchFirstChunkOnly's first
// chunk of keys, and KeysUnquoted's keys (in `kept`).
template <typename Request>
Request innerRequest(Connection& connection, const Request& request,
                     std::vector<TdgValueKind>& kinds, KeptKeys& kept) {
    Request copy{};
    std::memcpy(&copy, &request, std::min<size_t>(request.struct_size, sizeof(Request)));
    if (kindsOf(request) != nullptr) {
        kinds = innerKinds(connection, request.table, request.columns, request.num_columns,
                           request.column_kinds);
        copy.column_kinds = kinds.data();
    }
    if constexpr (std::is_same_v<Request, TdgFetchRequest>) {
        if (fault == Fault::FetchFirstChunkOnly) {
            copy.num_keys = std::min(copy.num_keys, kOwnPageSize);
        }
        if (fault == Fault::KeysUnquoted && copy.keys != nullptr && copy.key_sizes != nullptr) {
            keepQuotableKeys(copy, kept);
        }
    }
    return copy;
}

// The shim between the plugin under this one and the host's sink for `request`'s rows.
template <typename Request>
SinkShim shimFor(Connection& connection, const Request& request, TdgBatchSink sink, void* context) {
    SinkShim shim{&connection, sink, context, {}, 0, 0, std::nullopt};
    const auto count = static_cast<size_t>(request.num_columns);
    const TdgValueKind* requested = kindsOf(request);
    shim.requestedKinds.assign(count, TDG_KIND_NULL);
    if (requested != nullptr) shim.requestedKinds.assign(requested, requested + count);
    for (size_t c = 0; c < count && request.columns != nullptr && request.key_column != nullptr;
         ++c) {
        if (std::strcmp(request.columns[c], request.key_column) == 0) shim.firstKey = c;
    }
    return shim;
}

// fetch_rows or scan_table through the plugin under this one, its rows through a shim.
template <typename Request>
TdgStatus forwardRead(TdgStatus (*call)(TdgConnection*, const Request*, TdgBatchSink, void*,
                                        TdgError*),
                      TdgConnection* connection, const Request* request, TdgBatchSink sink,
                      void* context, TdgError* error) {
    TdgConnection* under = begin(connection);
    if (under == nullptr || request == nullptr || sink == nullptr) {
        return call(under, request, sink, context, error);
    }
    Connection& self = *wrapped(connection);
    std::vector<TdgValueKind> kinds;
    KeptKeys kept;
    Request copy = innerRequest(self, *request, kinds, kept);
    SinkShim shim = shimFor(self, *request, sink, context);
    TdgStatus status = call(under, &copy, &SinkShim::deliver, &shim, error);
    if (fault == Fault::LostConnectionPermanent && status == TDG_IO && error != nullptr) {
        error->retryable = 0;
        return TDG_UNKNOWN;
    }
    return status;
}

TdgStatus fetchRows(TdgConnection* connection, const TdgFetchRequest* request, TdgBatchSink sink,
                    void* context, TdgError* error) {
    return forwardRead(inner.fetch_rows, connection, request, sink, context, error);
}

TdgStatus fetchRowsMany(TdgConnection* connection, const TdgFetchRequest* requests, int64_t count,
                        const TdgBatchSink* sinks, void* const* contexts, TdgError* error) {
    TdgConnection* under = begin(connection);
    if (under == nullptr || requests == nullptr || sinks == nullptr || contexts == nullptr ||
        count <= 0) {
        return inner.fetch_rows_many(under, requests, count, sinks, contexts, error);
    }
    Connection& self = *wrapped(connection);
    const size_t stride = requests->struct_size;
    // The host's requests as they are, each then overwritten with what this plugin changed.
    std::vector<char> copies(
        reinterpret_cast<const char*>(requests),
        reinterpret_cast<const char*>(requests) + stride * static_cast<size_t>(count));
    std::vector<std::vector<TdgValueKind>> kinds(static_cast<size_t>(count));
    std::vector<KeptKeys> kept(static_cast<size_t>(count));
    std::vector<SinkShim> shims;
    std::vector<TdgBatchSink> shimSinks(static_cast<size_t>(count), &SinkShim::deliver);
    std::vector<void*> shimContexts;
    shims.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
        const auto& request = *reinterpret_cast<const TdgFetchRequest*>(
            reinterpret_cast<const char*>(requests) + i * static_cast<int64_t>(stride));
        TdgFetchRequest copy = innerRequest(self, request, kinds[static_cast<size_t>(i)],
                                            kept[static_cast<size_t>(i)]);
        std::memcpy(copies.data() + static_cast<size_t>(i) * stride, &copy,
                    std::min(stride, sizeof(copy)));
        shims.push_back(shimFor(self, request, sinks[i], contexts[i]));
    }
    for (SinkShim& shim : shims) shimContexts.push_back(&shim);
    return inner.fetch_rows_many(under, reinterpret_cast<const TdgFetchRequest*>(copies.data()),
                                 count, shimSinks.data(), shimContexts.data(), error);
}

TdgStatus scanTable(TdgConnection* connection, const TdgScanRequest* request, TdgBatchSink sink,
                    void* context, TdgError* error) {
    return forwardRead(inner.scan_table, connection, request, sink, context, error);
}

// Between the shim and the host's sink: keeps the last row a chunk delivered (ChunkInclusive).
struct ChunkRecorder {
    Connection* connection;
    TdgBatchSink sink;
    void* context;

    static int32_t deliver(void* self, const TdgRowBatch* batch) {
        auto* recorder = static_cast<ChunkRecorder*>(self);
        if (batch->num_rows > 0) {
            recorder->connection->lastChunkRow.take(
                batch->cells + (batch->num_rows - 1) * batch->num_columns, batch->num_columns);
        }
        return recorder->sink(recorder->context, batch);
    }
};

// Between the shim and the host's sink (ChunkAfterFirstKey): what "first > ?" reads, from a
// chunk read after the whole key with room for the run it leaves out: no row whose first key
// column equals the after_key's, and at most max_rows.
struct FirstKeyFilter {
    TdgBatchSink sink;
    void* context;
    size_t firstKey;
    std::string after;
    int64_t left;

    static int32_t deliver(void* self, const TdgRowBatch* batch) {
        auto* filter = static_cast<FirstKeyFilter*>(self);
        std::vector<TdgCell> rows;
        const auto width = static_cast<size_t>(batch->num_columns);
        for (int64_t r = 0; r < batch->num_rows && filter->left > 0; ++r) {
            const TdgCell* row = batch->cells + r * batch->num_columns;
            if (SinkShim::valueOf(row[filter->firstKey]) == filter->after) continue;
            rows.insert(rows.end(), row, row + width);
            --filter->left;
        }
        if (rows.empty()) return 0;
        TdgRowBatch kept = *batch;
        kept.num_rows = static_cast<int64_t>(rows.size() / std::max<size_t>(width, 1));
        kept.cells = rows.data();
        return filter->sink(filter->context, &kept);
    }
};

// The run of equal first key values the faulty chunk may leave out is read on top of max_rows.
constexpr int64_t kLongestSkippedRun = 2000;

TdgStatus scanChunkAfterFirstKey(TdgConnection* connection, const TdgScanRequest* request,
                                 TdgBatchSink sink, void* context, TdgError* error) {
    size_t firstKey = 0;
    for (int32_t c = 0; c < request->num_columns; ++c) {
        if (std::strcmp(request->columns[c], request->key_column) == 0) firstKey = c;
    }
    FirstKeyFilter filter{sink, context, firstKey, SinkShim::valueOf(request->after_key[0]),
                          request->max_rows};
    TdgScanRequest copy = *request;
    copy.max_rows = request->max_rows + kLongestSkippedRun;
    return forwardRead(inner.scan_chunk, connection, &copy, &FirstKeyFilter::deliver, &filter,
                       error);
}

TdgStatus scanChunk(TdgConnection* connection, const TdgScanRequest* request, TdgBatchSink sink,
                    void* context, TdgError* error) {
    const bool wellFormed = connection != nullptr && request != nullptr && sink != nullptr;
    if (fault == Fault::ChunkAfterFirstKey && wellFormed && request->after_key != nullptr &&
        request->num_key_columns > 1) {
        return scanChunkAfterFirstKey(connection, request, sink, context, error);
    }
    if (fault != Fault::ChunkInclusive || !wellFormed) {
        return forwardRead(inner.scan_chunk, connection, request, sink, context, error);
    }
    Connection& self = *wrapped(connection);
    TdgScanRequest copy = *request;
    OwnedRow& last = self.lastChunkRow;
    if (request->after_key != nullptr && !last.cells.empty()) {
        // The chunk starts at its after_key's row again, as "key >= ?" reads it.
        TdgRowBatch batch{1, static_cast<int32_t>(last.cells.size()), 0, last.cells.data()};
        if (sink(context, &batch) != 0) return TDG_CANCELLED;
        if (--copy.max_rows == 0) return TDG_OK;
    }
    ChunkRecorder recorder{&self, sink, context};
    return forwardRead(inner.scan_chunk, connection, &copy, &ChunkRecorder::deliver, &recorder,
                       error);
}

TdgStatus estimateRows(TdgConnection* connection, const TdgTableRef* table, int64_t* rows,
                       TdgError* error) {
    return inner.estimate_rows(begin(connection), table, rows, error);
}

TdgStatus journalBounds(TdgConnection* connection, const TdgTableRef* diffgen,
                        TdgJournalBounds* out, TdgError* error) {
    return inner.journal_bounds(begin(connection), diffgen, out, error);
}

TdgStatus inspectJournal(TdgConnection* connection, const TdgJournalRequest* request,
                         TdgJournalInspection* out, TdgError* error) {
    return inner.inspect_journal(begin(connection), request, out, error);
}

TdgStatus checkHorizon(TdgConnection* connection, const TdgHorizonMark* mark, int32_t* state,
                       TdgHorizonMark* next, TdgError* error) {
    TdgStatus status = inner.check_horizon(begin(connection), mark, state, next, error);
    if (status == TDG_OK && fault == Fault::EarlyMark && *state == TDG_HORIZON_PENDING &&
        std::memcmp(mark, next, sizeof(TdgHorizonMark)) != 0) {
        *state = TDG_HORIZON_FINAL;  // the successor would have covered the later writers
        *next = *mark;
    }
    return status;
}

TdgStatus cancel(TdgConnection* connection, TdgError* error) {
    if (connection == nullptr) return inner.cancel(nullptr, error);
    if (fault != Fault::CancelBetweenBatches)
        return inner.cancel(wrapped(connection)->inner, error);
    wrapped(connection)->cancelRequested.store(true);
    return TDG_OK;
}

TdgStatus waitForChange(TdgConnection* connection, int64_t timeoutMs, int32_t* changed,
                        TdgError* error) {
    return inner.wait_for_change(begin(connection), timeoutMs, changed, error);
}

// The plugin under this one, loaded and initialised for `version`; false with *error set.
bool loadInner(int32_t version, TdgError* error) {
    const char* path = std::getenv("TDG_FAULTY_INNER");
    const char* faultName = std::getenv("TDG_FAULTY_FAULT");
    auto named = faults().find(faultName != nullptr ? faultName : "none");
    if (path == nullptr || named == faults().end()) {
        setError(error,
                 "faulty: set TDG_FAULTY_INNER to a plugin's path and TDG_FAULTY_FAULT to a fault");
        return false;
    }
    fault = named->second;
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    auto init = library != nullptr
                    ? reinterpret_cast<TdgDriverInitFn>(dlsym(library, TDG_DRIVER_INIT_SYMBOL))
                    : nullptr;
    if (init == nullptr) {
        setError(error, std::string("faulty: cannot load ") + path);
        return false;
    }
    inner = TdgDriver{};
    inner.struct_size = sizeof(TdgDriver);
    return init(version, &inner, error) == TDG_OK;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const TdgPluginInfo* tdg_plugin_info(void) {
    static const char* const aliases[] = {nullptr};
    static const TdgPluginInfo info = {TDG_PLUGIN_INFO_SIZE_4,
                                       TDG_ABI_VERSION_1,
                                       TDG_ABI_VERSION,
                                       "faulty",
                                       aliases,
                                       "0.0.0",
                                       "0.0.0",
                                       "a plugin with one bug put in (tests only)",
                                       nullptr};
    return &info;
}

extern "C" __attribute__((visibility("default"))) TdgStatus tdg_driver_init(int32_t version,
                                                                            TdgDriver* driver,
                                                                            TdgError* error) {
    if (driver == nullptr || version < TDG_ABI_VERSION_1 || version > TDG_ABI_VERSION) {
        return TDG_NOT_IMPLEMENTED;
    }
    if (!loadInner(version, error)) return TDG_INVALID_STATE;
    driver->abi_version = version;
    driver->connect = &connect;
    driver->close = &close;
    driver->server_version = &serverVersion;
    driver->describe_table = &describeTable;
    driver->read_diffgen_page = &readDiffgenPage;
    driver->max_diffgen_id = &maxDiffgenId;
    driver->fetch_rows = &fetchRows;
    driver->scan_table = &scanTable;
    driver->check_horizon =
        fault == Fault::NoCheckHorizon || inner.check_horizon == nullptr ? nullptr : &checkHorizon;
    driver->cancel = &cancel;
    if (driver->struct_size >= TDG_DRIVER_SIZE_2 && inner.fetch_rows_many != nullptr) {
        driver->fetch_rows_many = &fetchRowsMany;
    }
    if (driver->struct_size >= TDG_DRIVER_SIZE_3 && inner.wait_for_change != nullptr) {
        driver->wait_for_change = &waitForChange;
    }
    if (driver->struct_size >= TDG_DRIVER_SIZE_4 && inner.describe_tables != nullptr) {
        driver->describe_tables = &describeTables;
    }
    if (driver->struct_size >= TDG_DRIVER_SIZE_5) {
        if (inner.scan_chunk != nullptr) driver->scan_chunk = &scanChunk;
        if (inner.estimate_rows != nullptr) driver->estimate_rows = &estimateRows;
        if (inner.journal_bounds != nullptr) driver->journal_bounds = &journalBounds;
        if (inner.inspect_journal != nullptr) driver->inspect_journal = &inspectJournal;
    }
    return TDG_OK;
}
