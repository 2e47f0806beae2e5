// The SDK fills the driver table as far as the host's table reaches: a host built before
// fetch_rows_many or wait_for_change was appended still loads a plugin built after it.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>

#include "tap-diffgen/sdk/export.hpp"

namespace {

class NothingDriver : public tapdiffgen::sdk::IDialectDriver {
public:
    explicit NothingDriver(const tapdiffgen::sdk::ConnectOptions&) {}
    std::string serverVersion() override { return "nothing"; }
    std::vector<tapdiffgen::sdk::ColumnInfo> describeTable(
        const tapdiffgen::sdk::TableName&) override {
        return {};
    }
    void readDiffgenPage(const tapdiffgen::sdk::PageRequest&,
                         tapdiffgen::sdk::EventPage&) override {}
    std::optional<int64_t> maxDiffgenId(const tapdiffgen::sdk::TableName&) override {
        return std::nullopt;
    }
    void fetchRows(const tapdiffgen::sdk::FetchRequest&,
                   tapdiffgen::sdk::RowBatchBuilder&) override {}
    void scanTable(const tapdiffgen::sdk::ScanRequest&,
                   tapdiffgen::sdk::RowBatchBuilder&) override {}
};

using Init = tapdiffgen::sdk::detail::Trampolines<NothingDriver>;

// A table that was altered after every description the host has of it.
class ChangedTableDriver : public NothingDriver {
public:
    using NothingDriver::NothingDriver;
    void fetchRows(const tapdiffgen::sdk::FetchRequest&,
                   tapdiffgen::sdk::RowBatchBuilder&) override {
        throw tapdiffgen::sdk::tableChanged("column 'b' does not exist in table 't'");
    }
};

using ChangedInit = tapdiffgen::sdk::detail::Trampolines<ChangedTableDriver>;

TdgStatus fetchFromChangedTable(int32_t version) {
    TdgDriver table{};
    table.struct_size = sizeof(TdgDriver);
    TdgError error{};
    REQUIRE(ChangedInit::init(version, &table, &error) == TDG_OK);
    tapdiffgen::sdk::ConnectOptions options;
    ChangedTableDriver driver(options);
    tapdiffgen::sdk::IDialectDriver* base = &driver;
    const char* columns[] = {"a"};
    const char* keys[] = {"1"};
    const uint64_t sizes[] = {1};
    TdgFetchRequest request{};
    request.struct_size = TDG_FETCH_REQUEST_SIZE_1;
    request.num_columns = 1;
    request.table = {nullptr, "t"};
    request.columns = columns;
    request.key_column = "a";
    request.num_keys = 1;
    request.keys = keys;
    request.key_sizes = sizes;
    TdgError fetchError{};
    const TdgStatus status = table.fetch_rows(
        reinterpret_cast<TdgConnection*>(base), &request,
        [](void*, const TdgRowBatch*) { return 0; }, nullptr, &fetchError);
    if (fetchError.release != nullptr) fetchError.release(&fetchError);
    return status;
}

}  // namespace

TEST_CASE("driver table: a host's table without fetch_rows_many is not written past its end") {
    TdgDriver table;
    std::memset(&table, 0xAB, sizeof(table));
    table.struct_size = offsetof(TdgDriver, fetch_rows_many);
    TdgError error{};
    REQUIRE(Init::init(TDG_ABI_VERSION_1, &table, &error) == TDG_OK);
    CHECK((table.cancel != nullptr));
    unsigned char beyond[sizeof(void*)];
    std::memcpy(beyond, reinterpret_cast<const unsigned char*>(&table) + table.struct_size,
                sizeof(beyond));
    for (unsigned char byte : beyond) CHECK(byte == 0xAB);
}

TEST_CASE("driver table: a current host gets fetch_rows_many") {
    TdgDriver table{};
    table.struct_size = sizeof(TdgDriver);
    TdgError error{};
    REQUIRE(Init::init(TDG_ABI_VERSION_1, &table, &error) == TDG_OK);
    CHECK((table.fetch_rows_many != nullptr));
}

TEST_CASE("driver table: a table shorter than version 1 is refused") {
    TdgDriver table{};
    table.struct_size = offsetof(TdgDriver, cancel);
    TdgError error{};
    CHECK(Init::init(TDG_ABI_VERSION_1, &table, &error) == TDG_INVALID_ARGUMENT);
    if (error.release != nullptr) error.release(&error);
}

TEST_CASE("driver table: a host's table that ends before wait_for_change keeps fetch_rows_many") {
    TdgDriver table;
    std::memset(&table, 0xAB, sizeof(table));
    table.struct_size = offsetof(TdgDriver, wait_for_change);
    TdgError error{};
    REQUIRE(Init::init(TDG_ABI_VERSION_1, &table, &error) == TDG_OK);
    CHECK((table.fetch_rows_many != nullptr));
    unsigned char beyond[sizeof(void*)];
    std::memcpy(beyond, reinterpret_cast<const unsigned char*>(&table) + table.struct_size,
                sizeof(beyond));
    for (unsigned char byte : beyond) CHECK(byte == 0xAB);
}

TEST_CASE("driver table: wait_for_change is filled for revision 3 only") {
    for (int32_t version : {TDG_ABI_VERSION_1, TDG_ABI_VERSION_2}) {
        TdgDriver table{};
        table.struct_size = sizeof(TdgDriver);
        TdgError error{};
        REQUIRE(Init::init(version, &table, &error) == TDG_OK);
        CHECK(table.abi_version == version);
        CHECK((table.wait_for_change == nullptr));
        CHECK((table.fetch_rows_many != nullptr));
    }
}

TEST_CASE("driver table: a driver that cannot wait answers wait_for_change NOT_IMPLEMENTED") {
    TdgDriver table{};
    table.struct_size = sizeof(TdgDriver);
    TdgError error{};
    REQUIRE(Init::init(TDG_ABI_VERSION_3, &table, &error) == TDG_OK);
    REQUIRE((table.wait_for_change != nullptr));
    tapdiffgen::sdk::ConnectOptions options;
    NothingDriver driver(options);
    tapdiffgen::sdk::IDialectDriver* base = &driver;
    int32_t changed = 7;
    TdgError waitError{};
    CHECK(table.wait_for_change(reinterpret_cast<TdgConnection*>(base), 10, &changed, &waitError) ==
          TDG_NOT_IMPLEMENTED);
    CHECK(changed == 0);
}

TEST_CASE("driver table: TABLE_CHANGED reaches a host of revision 5, NOT_FOUND an older one") {
    CHECK(fetchFromChangedTable(TDG_ABI_VERSION_5) == TDG_TABLE_CHANGED);
    CHECK(fetchFromChangedTable(TDG_ABI_VERSION_4) == TDG_NOT_FOUND);
}
