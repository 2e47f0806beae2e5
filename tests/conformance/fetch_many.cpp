#include "fetch_many.hpp"

#include <cstring>
#include <deque>
#include <exception>

#include "abi_error.hpp"
#include "case_result.hpp"
#include "live_connection.hpp"

namespace tapdiffgen::conformance {
namespace {

// Collects one request's rows and checks that no batch of an earlier request comes after it.
class OrderedSink {
public:
    OrderedSink(const PlannedFetch& fetch, size_t index, size_t& latest)
        : collector_(fetch.columns, fetch.kinds), index_(index), latest_(latest) {}

    void add(const TdgRowBatch& batch) {
        require(index_ >= latest_, "a batch of request " + std::to_string(index_ + 1) +
                                       " arrived after one of request " +
                                       std::to_string(latest_ + 1));
        latest_ = index_;
        collector_.add(batch);
    }
    const RowCollector& collector() const { return collector_; }

    // The raw sink: a failure must not cross the plugin's C frames, so it is kept and the read
    // is stopped.
    static int32_t raw(void* context, const TdgRowBatch* batch) {
        auto* self = static_cast<OrderedSink*>(context);
        try {
            self->add(*batch);
            return 0;
        } catch (...) {
            self->failure_ = std::current_exception();
            return 1;
        }
    }
    void rethrow() const {
        if (failure_) std::rethrow_exception(failure_);
    }

private:
    RowCollector collector_;
    size_t index_;
    size_t& latest_;
    std::exception_ptr failure_;
};

void compare(const std::string& how, const std::vector<PlannedFetch>& fetches,
             const std::deque<OrderedSink>& sinks) {
    for (size_t i = 0; i < fetches.size(); ++i) {
        requireSameRows(
            how + " request " + std::to_string(i + 1) + " " + rowDisplay(fetches[i].keys),
            fetches[i].rows, sinks[i].collector().sortedRows());
    }
}

void throughEngine(core::DialectConnection& connection, const core::TableRef& table,
                   const core::KeySpec& key, const std::vector<PlannedFetch>& fetches,
                   int64_t batchRows) {
    size_t latest = 0;
    std::deque<OrderedSink> sinks;
    std::vector<core::FetchSpec> specs;
    for (size_t i = 0; i < fetches.size(); ++i) {
        OrderedSink& sink = sinks.emplace_back(fetches[i], i, latest);
        specs.push_back({&table, &fetches[i].columns, &fetches[i].kinds, &key, fetches[i].keys,
                         [&sink](const TdgRowBatch& batch) { sink.add(batch); }});
    }
    try {
        connection.fetchRowsMany(specs, batchRows);
    } catch (const core::DialectError& failure) {
        throw CaseFailure("fetch_rows_many: " + describeError(failure));
    }
    compare("fetch_rows_many", fetches, sinks);
}

// The plugin's table for revision 1, when it speaks it and fills fetch_rows_many there.
bool revisionOneTable(const Subject& subject, TdgDriver& out) {
    const TdgPluginInfo* info = subject.info();
    if (info == nullptr || info->abi_version_min > TDG_ABI_VERSION_1) return false;
    out = TdgDriver{};
    out.struct_size = sizeof(TdgDriver);
    TdgError error{};
    TdgStatus status = subject.init(TDG_ABI_VERSION_1, &out, &error);
    takeErrorMessage(error);
    return status == TDG_OK && out.fetch_rows_many != nullptr;
}

// Revision-1 requests, TDG_FETCH_REQUEST_SIZE_1 bytes apart, through the revision-1 table.
void throughRevisionOne(const LiveContext& context, const TdgDriver& driver,
                        const core::TableRef& table, const core::KeySpec& key,
                        const std::vector<PlannedFetch>& fetches, int64_t batchRows) {
    const size_t stride = TDG_FETCH_REQUEST_SIZE_1;
    std::vector<uint64_t> storage((fetches.size() * stride + 7) / 8);
    auto* bytes = reinterpret_cast<unsigned char*>(storage.data());
    std::deque<std::vector<const char*>> pointers;
    std::deque<std::vector<uint64_t>> sizes;
    const std::string keyColumn = key.columns.front().name;
    const TdgTableRef ref{table.schema.empty() ? nullptr : table.schema.c_str(),
                          table.name.c_str()};
    for (size_t i = 0; i < fetches.size(); ++i) {
        auto& columns = pointers.emplace_back();
        for (const std::string& name : fetches[i].columns) columns.push_back(name.c_str());
        auto& keys = pointers.emplace_back();
        auto& keySizes = sizes.emplace_back();
        for (const std::string& text : fetches[i].keys) {
            keys.push_back(text.data());
            keySizes.push_back(text.size());
        }
        TdgFetchRequest request{};
        request.struct_size = static_cast<uint32_t>(stride);
        request.num_columns = static_cast<int32_t>(columns.size());
        request.table = ref;
        request.columns = columns.data();
        request.key_column = keyColumn.c_str();
        request.num_keys = static_cast<int64_t>(keys.size());
        request.keys = keys.data();
        request.key_sizes = keySizes.data();
        request.batch_rows = batchRows;
        std::memcpy(bytes + i * stride, &request, stride);
    }
    size_t latest = 0;
    std::deque<OrderedSink> sinks;
    std::vector<TdgBatchSink> sinkFunctions(fetches.size(), &OrderedSink::raw);
    std::vector<void*> sinkContexts;
    for (size_t i = 0; i < fetches.size(); ++i) {
        sinkContexts.push_back(&sinks.emplace_back(fetches[i], i, latest));
    }
    TdgConnection* connection = connectRaw(context, driver);
    TdgError error{};
    TdgStatus status = driver.fetch_rows_many(
        connection, reinterpret_cast<const TdgFetchRequest*>(bytes),
        static_cast<int64_t>(fetches.size()), sinkFunctions.data(), sinkContexts.data(), &error);
    std::string message = takeErrorMessage(error);
    driver.close(connection);
    for (const OrderedSink& sink : sinks) sink.rethrow();
    require(status == TDG_OK, "fetch_rows_many with revision-1 requests returned " +
                                  describeStatus(status) + ": " + message);
    compare("fetch_rows_many (revision 1)", fetches, sinks);
}

}  // namespace

std::string checkFetchRowsMany(const LiveContext& context, core::DialectConnection& connection,
                               const core::TableRef& table, const core::KeySpec& key,
                               const std::vector<PlannedFetch>& fetches, int64_t batchRows) {
    if (context.subject->driver().fetch_rows_many == nullptr) return "no fetch_rows_many";
    if (fetches.size() < 2) return "";
    throughEngine(connection, table, key, fetches, batchRows);
    TdgDriver revisionOne{};
    if (key.composite() || !revisionOneTable(*context.subject, revisionOne)) {
        return "fetch_rows_many";
    }
    throughRevisionOne(context, revisionOne, table, key, fetches, batchRows);
    return "fetch_rows_many at both revisions' strides";
}

}  // namespace tapdiffgen::conformance
