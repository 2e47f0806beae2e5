// TAP_DIFFGEN_EXPORT_DRIVER: generates a plugin's two C entry points from an IDialectDriver
// subclass. The trampolines below catch every exception, so nothing but a TdgStatus and a
// TdgError ever leaves the plugin.
//
//     class MyDriver : public tapdiffgen::sdk::DriverBase {
//     public:
//         MyDriver(const tapdiffgen::sdk::ConnectOptions& options, tapdiffgen::sdk::HostLog log);
//         ...
//     };
//     TAP_DIFFGEN_EXPORT_DRIVER(MyDriver, "mydb", TAP_DIFFGEN_ALIASES("my"), "1.0.0",
//                               "MyDB via libmydb")
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

#include "tap-diffgen/dialect_abi.h"
#include "tap-diffgen/sdk/declared_settings.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/host_log.hpp"
#include "tap-diffgen/sdk/version.hpp"

#define TDG_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace tapdiffgen::sdk::detail {

/// Runs `body`, turning any exception into a status and an error.
template <typename Body>
TdgStatus guarded(TdgError* error, Body&& body) noexcept {
    try {
        body();
        return TDG_OK;
    } catch (const DriverError& failure) {
        setError(error, failure);
        return failure.status();
    } catch (const std::bad_alloc&) {
        setError(error, TDG_INTERNAL, "out of memory");
        return TDG_INTERNAL;
    } catch (const std::exception& failure) {
        setError(error, TDG_INTERNAL, failure.what());
        return TDG_INTERNAL;
    } catch (...) {
        setError(error, TDG_UNKNOWN, "unknown exception in dialect driver");
        return TDG_UNKNOWN;
    }
}

inline IDialectDriver& self(TdgConnection* connection) {
    if (connection == nullptr) throw DriverError(TDG_INVALID_STATE, "connection is NULL");
    return *reinterpret_cast<IDialectDriver*>(connection);
}

void releaseColumnList(TdgColumnList* list);
void publishColumns(std::vector<ColumnInfo> columns, TdgColumnList* out);
PageRequest toPageRequest(const TdgPageRequest& request);
/// Events a page read for `request` makes room for at once: its limit, up to a bound (a page
/// beyond it grows as its events arrive).
size_t expectedEvents(const PageRequest& request);
FetchRequest toFetchRequest(const TdgFetchRequest& request);
ScanRequest toScanRequest(const TdgScanRequest& request);
/// The same for scan_chunk: the request's revision-5 fields too, checked.
ScanRequest toChunkRequest(const TdgScanRequest& request);
void requireNonNull(const void* pointer, const char* what);
JournalRequest toJournalRequest(const TdgJournalRequest& request);
void publishBounds(const JournalBounds& bounds, TdgJournalBounds* out);
void publishInspection(JournalInspection facts, size_t requestedTables, TdgJournalInspection* out);

/// A driver declares settings with a static `const DeclaredSettings& declaredSettings()`
/// (DriverBase has one that declares none); a driver without it declares none either.
template <typename Driver, typename = void>
struct HasDeclaredSettings : std::false_type {};
template <typename Driver>
struct HasDeclaredSettings<Driver, std::void_t<decltype(Driver::declaredSettings())>>
    : std::true_type {};

template <typename Driver>
const DeclaredSettings& declaredSettingsOf() {
    if constexpr (HasDeclaredSettings<Driver>::value) {
        return Driver::declaredSettings();
    } else {
        static const DeclaredSettings none;
        return none;
    }
}

template <typename Driver>
struct Trampolines {
    /// The revision the host asked for (tdg_driver_init), for statuses it may not know.
    static inline std::atomic<int32_t> hostVersion{TDG_ABI_VERSION};

    /// A row read's status as the host's revision knows it: TDG_TABLE_CHANGED is since 5.
    static TdgStatus readStatus(TdgStatus status) noexcept {
        return status == TDG_TABLE_CHANGED && hostVersion.load() < TDG_ABI_VERSION_5 ? TDG_NOT_FOUND
                                                                                     : status;
    }
    static TdgStatus connect(const TdgConnectParams* params, TdgConnection** out,
                             TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(params, "connect params");
            requireNonNull(out, "connection output");
            *out = nullptr;
            ConnectOptions options(*params);
            declaredSettingsOf<Driver>().check(options);
            IDialectDriver* driver = nullptr;
            if constexpr (std::is_constructible_v<Driver, const ConnectOptions&, HostLog>) {
                driver = new Driver(options, HostLog(*params));
            } else {
                driver = new Driver(options);
            }
            *out = reinterpret_cast<TdgConnection*>(driver);
        });
    }
    static void close(TdgConnection* connection) noexcept {
        try {
            delete reinterpret_cast<IDialectDriver*>(connection);
        } catch (...) {
        }
    }
    static TdgStatus serverVersion(TdgConnection* connection, char* buffer, size_t size,
                                   TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(buffer, "buffer");
            if (size == 0) throw invalidArgument("buffer size is 0");
            std::string version = self(connection).serverVersion();
            size_t n = version.size() < size - 1 ? version.size() : size - 1;
            version.copy(buffer, n);
            buffer[n] = '\0';
        });
    }
    static TdgStatus describeTable(TdgConnection* connection, const TdgTableRef* table,
                                   TdgColumnList* out, TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(table, "table");
            requireNonNull(table->name, "table name");
            requireNonNull(out, "column list output");
            publishColumns(self(connection).describeTable(TableName::fromRef(*table)), out);
        });
    }
    static TdgStatus describeTables(TdgConnection* connection, const TdgTableRef* tables,
                                    int64_t count, TdgColumnList* out, TdgError* error) noexcept {
        return guarded(error, [&] {
            if (count < 0) throw invalidArgument("num_tables is negative");
            if (count > 0) {
                requireNonNull(tables, "tables");
                requireNonNull(out, "column list outputs");
            }
            std::vector<TableName> names;
            for (int64_t i = 0; i < count; ++i) {
                requireNonNull(tables[i].name, "table name");
                names.push_back(TableName::fromRef(tables[i]));
            }
            auto described = self(connection).describeTables(names);
            if (described.size() != names.size()) {
                throw DriverError(TDG_INTERNAL, "describeTables answered for " +
                                                    std::to_string(described.size()) + " of " +
                                                    std::to_string(names.size()) + " tables");
            }
            // Published only once every table is described, so a failure leaves out zeroed.
            for (int64_t i = 0; i < count; ++i) publishColumns(std::move(described[i]), &out[i]);
        });
    }
    static TdgStatus readDiffgenPage(TdgConnection* connection, const TdgPageRequest* request,
                                     TdgEventPage* out, TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(request, "page request");
            requireNonNull(out, "page output");
            const PageRequest typed = toPageRequest(*request);
            auto page = std::make_unique<EventPage>();
            page->reserve(expectedEvents(typed));
            self(connection).readDiffgenPage(typed, *page);
            EventPage::publish(std::move(page), out);
        });
    }
    static TdgStatus maxDiffgenId(TdgConnection* connection, const TdgTableRef* diffgen,
                                  int64_t* maxId, int32_t* isEmpty, TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(diffgen, "diffgen table");
            requireNonNull(diffgen->name, "diffgen table name");
            requireNonNull(maxId, "max id output");
            requireNonNull(isEmpty, "is-empty output");
            auto found = self(connection).maxDiffgenId(TableName::fromRef(*diffgen));
            *isEmpty = found ? 0 : 1;
            *maxId = found.value_or(0);
        });
    }
    static TdgStatus fetchRows(TdgConnection* connection, const TdgFetchRequest* request,
                               TdgBatchSink sink, void* context, TdgError* error) noexcept {
        return readStatus(guarded(error, [&] {
            requireNonNull(request, "fetch request");
            requireNonNull(reinterpret_cast<const void*>(sink), "sink");
            FetchRequest typed = toFetchRequest(*request);
            RowBatchBuilder rows(sink, context, request->num_columns, request->batch_rows);
            rows.expectRows(request->num_keys);  // a row per key at most
            self(connection).fetchRows(typed, rows);
            rows.flush();
        }));
    }
    static TdgStatus fetchRowsMany(TdgConnection* connection, const TdgFetchRequest* requests,
                                   int64_t count, const TdgBatchSink* sinks, void* const* contexts,
                                   TdgError* error) noexcept {
        return readStatus(guarded(error, [&] {
            if (count <= 0) return;
            requireNonNull(requests, "fetch requests");
            requireNonNull(sinks, "sinks");
            requireNonNull(contexts, "sink contexts");
            std::vector<FetchRequest> typed;
            std::deque<RowBatchBuilder> builders;
            std::vector<RowBatchBuilder*> rows;
            // Request i lies requests->struct_size bytes after request i-1: a host of another
            // revision lays the array out with its own size (see TdgDriver.fetch_rows_many).
            const size_t stride = requests->struct_size;
            if (stride < TDG_FETCH_REQUEST_SIZE_1) {
                throw invalidArgument("fetch request is smaller than ABI version 1 requires");
            }
            const auto* bytes = reinterpret_cast<const unsigned char*>(requests);
            for (int64_t i = 0; i < count; ++i) {
                requireNonNull(reinterpret_cast<const void*>(sinks[i]), "sink");
                const auto& request = *reinterpret_cast<const TdgFetchRequest*>(
                    bytes + static_cast<size_t>(i) * stride);
                typed.push_back(toFetchRequest(request));
                rows.push_back(&builders.emplace_back(sinks[i], contexts[i], request.num_columns,
                                                      request.batch_rows));
                rows.back()->expectRows(request.num_keys);
            }
            self(connection).fetchRowsMany(typed, rows);
        }));
    }
    static TdgStatus waitForChange(TdgConnection* connection, int64_t timeoutMs,
                                   int32_t* outChanged, TdgError* error) noexcept {
        bool implemented = true;
        TdgStatus status = guarded(error, [&] {
            requireNonNull(outChanged, "out_changed");
            *outChanged = 0;
            std::optional<bool> changed = self(connection).waitForChange(timeoutMs);
            implemented = changed.has_value();
            *outChanged = changed.value_or(false) ? 1 : 0;
        });
        return status == TDG_OK && !implemented ? TDG_NOT_IMPLEMENTED : status;
    }
    static TdgStatus scanTable(TdgConnection* connection, const TdgScanRequest* request,
                               TdgBatchSink sink, void* context, TdgError* error) noexcept {
        return readStatus(guarded(error, [&] {
            requireNonNull(request, "scan request");
            requireNonNull(reinterpret_cast<const void*>(sink), "sink");
            ScanRequest typed = toScanRequest(*request);
            RowBatchBuilder rows(sink, context, request->num_columns, request->batch_rows);
            rows.expectRows(INT64_MAX);  // a scan fills its batches
            self(connection).scanTable(typed, rows);
            rows.flush();
        }));
    }
    static TdgStatus scanChunk(TdgConnection* connection, const TdgScanRequest* request,
                               TdgBatchSink sink, void* context, TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(request, "scan request");
            requireNonNull(reinterpret_cast<const void*>(sink), "sink");
            ScanRequest typed = toChunkRequest(*request);
            RowBatchBuilder rows(sink, context, request->num_columns, request->batch_rows);
            rows.expectRows(typed.maxRows);
            self(connection).scanChunk(typed, rows);
            rows.flush();
        });
    }
    static TdgStatus estimateRows(TdgConnection* connection, const TdgTableRef* table,
                                  int64_t* outRows, TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(table, "table");
            requireNonNull(table->name, "table name");
            requireNonNull(outRows, "rows output");
            *outRows = -1;
            *outRows = self(connection).estimateRows(TableName::fromRef(*table)).value_or(-1);
        });
    }
    static TdgStatus checkHorizon(TdgConnection* connection, const TdgHorizonMark* mark,
                                  int32_t* state, TdgHorizonMark* next, TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(mark, "mark");
            requireNonNull(state, "state output");
            requireNonNull(next, "next mark output");
            *next = *mark;
            HorizonState result = self(connection).checkHorizon(*mark, *next);
            *state = result == HorizonState::Final ? TDG_HORIZON_FINAL : TDG_HORIZON_PENDING;
        });
    }
    static TdgStatus cancel(TdgConnection* connection, TdgError* error) noexcept {
        return guarded(error, [&] { self(connection).cancel(); });
    }
    static TdgStatus journalBounds(TdgConnection* connection, const TdgTableRef* diffgen,
                                   TdgJournalBounds* out, TdgError* error) noexcept {
        bool implemented = true;
        TdgStatus status = guarded(error, [&] {
            requireNonNull(diffgen, "diffgen table");
            requireNonNull(diffgen->name, "diffgen table name");
            requireNonNull(out, "journal bounds output");
            std::optional<JournalBounds> bounds =
                self(connection).journalBounds(TableName::fromRef(*diffgen));
            implemented = bounds.has_value();
            if (bounds) publishBounds(*bounds, out);
        });
        return status == TDG_OK && !implemented ? TDG_NOT_IMPLEMENTED : status;
    }
    static TdgStatus inspectJournal(TdgConnection* connection, const TdgJournalRequest* request,
                                    TdgJournalInspection* out, TdgError* error) noexcept {
        bool implemented = true;
        TdgStatus status = guarded(error, [&] {
            requireNonNull(request, "journal request");
            requireNonNull(out, "journal inspection output");
            const JournalRequest typed = toJournalRequest(*request);
            std::optional<JournalInspection> facts = self(connection).inspectJournal(typed);
            implemented = facts.has_value();
            if (facts) publishInspection(std::move(*facts), typed.tables.size(), out);
        });
        return status == TDG_OK && !implemented ? TDG_NOT_IMPLEMENTED : status;
    }

    static TdgStatus init(int32_t version, TdgDriver* driver, TdgError* error) noexcept {
        return guarded(error, [&] {
            requireNonNull(driver, "driver table");
            if (version < TDG_ABI_VERSION_1 || version > TDG_ABI_VERSION) {
                throw notImplemented(
                    "this plugin speaks ABI version " + std::to_string(TDG_ABI_VERSION_1) + " to " +
                    std::to_string(TDG_ABI_VERSION) + ", not " + std::to_string(version));
            }
            // Members of later revisions are filled only when the host's table has them.
            if (driver->struct_size < TDG_DRIVER_SIZE_1) {
                throw invalidArgument("driver table is smaller than ABI version 1 requires");
            }
            driver->abi_version = version;
            hostVersion = version;
            driver->connect = &connect;
            driver->close = &close;
            driver->server_version = &serverVersion;
            driver->describe_table = &describeTable;
            driver->read_diffgen_page = &readDiffgenPage;
            driver->max_diffgen_id = &maxDiffgenId;
            driver->fetch_rows = &fetchRows;
            driver->scan_table = &scanTable;
            driver->check_horizon = &checkHorizon;
            driver->cancel = &cancel;
            // fetch_rows_many is filled under revision 1 too, as SDK 0.1 did (see the header).
            if (driver->struct_size >= TDG_DRIVER_SIZE_2) driver->fetch_rows_many = &fetchRowsMany;
            if (version >= TDG_ABI_VERSION_3 && driver->struct_size >= TDG_DRIVER_SIZE_3) {
                driver->wait_for_change = &waitForChange;
            }
            if (version >= TDG_ABI_VERSION_4 && driver->struct_size >= TDG_DRIVER_SIZE_4) {
                driver->describe_tables = &describeTables;
            }
            if (version >= TDG_ABI_VERSION_5 && driver->struct_size >= TDG_DRIVER_SIZE_5) {
                driver->journal_bounds = &journalBounds;
                driver->inspect_journal = &inspectJournal;
                driver->scan_chunk = &scanChunk;
                driver->estimate_rows = &estimateRows;
            }
        });
    }
};

}  // namespace tapdiffgen::sdk::detail

/// A NULL-terminated alias list for TAP_DIFFGEN_EXPORT_DRIVER.
#define TAP_DIFFGEN_ALIASES(...) \
    { __VA_ARGS__, nullptr }
#define TAP_DIFFGEN_NO_ALIASES \
    { nullptr }

/// Defines tdg_plugin_info and tdg_driver_init for DriverClass.
#define TAP_DIFFGEN_EXPORT_DRIVER(DriverClass, dialectName, aliasList, pluginVersion,             \
                                  descriptionText)                                                \
    TDG_PLUGIN_EXPORT const TdgPluginInfo* tdg_plugin_info(void) {                                \
        static const char* const aliases[] = aliasList;                                           \
        static const TdgPluginInfo info = {                                                       \
            TDG_PLUGIN_INFO_SIZE_4,                                                               \
            TDG_ABI_VERSION_1,                                                                    \
            TDG_ABI_VERSION,                                                                      \
            dialectName,                                                                          \
            aliases,                                                                              \
            pluginVersion,                                                                        \
            TAP_DIFFGEN_SDK_VERSION,                                                              \
            descriptionText,                                                                      \
            ::tapdiffgen::sdk::detail::declaredSettingsOf<DriverClass>().table()};                \
        return &info;                                                                             \
    }                                                                                             \
    TDG_PLUGIN_EXPORT TdgStatus tdg_driver_init(int32_t version, TdgDriver* driver,               \
                                                TdgError* error) {                                \
        return ::tapdiffgen::sdk::detail::Trampolines<DriverClass>::init(version, driver, error); \
    }
