// Pushes N synthetic rows of 10 mixed columns through the emit path the tap uses (renderer or
// stream maps, then the message writer) and prints records/s for: RECORD without maps, RECORD
// with a typical map set (two columns removed, one md5, a filter, an alias, one computed
// column), and BATCH (gzip) without maps. Output goes to /dev/null and a scratch folder.
//
//   tdg-maps-bench [ROWS] [REPEAT]      (defaults: 1000000 rows, best of 3)
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "maps/stream_setup.hpp"
#include "replay/output/record_renderer.hpp"
#include "singer/batch_writer.hpp"
#include "singer/message_writer.hpp"
#include "util/json_value.hpp"

using namespace tapdiffgen::core;

namespace {

StreamColumn column(const std::string& name, TdgValueKind kind, const std::string& schema) {
    StreamColumn c;
    c.name = name;
    c.kind = kind;
    c.jsonSchema = schema;
    return c;
}

StreamDefinition benchStream() {
    StreamDefinition s;
    s.name = s.tableName = "invoices";
    s.key = KeySpec{{KeyColumn{"id", TDG_KIND_INT64, false, "bigint", -1}}};
    s.columns = {
        column("id", TDG_KIND_INT64, R"({"type":"integer"})"),
        column("customer_id", TDG_KIND_INT64, R"({"type":"integer"})"),
        column("amount", TDG_KIND_DECIMAL, R"({"type":"number","multipleOf":0.01})"),
        column("email", TDG_KIND_TEXT, R"({"type":"string"})"),
        column("name", TDG_KIND_TEXT, R"({"type":"string"})"),
        column("country", TDG_KIND_TEXT, R"({"type":"string"})"),
        column("note", TDG_KIND_TEXT, R"({"type":"string"})"),
        column("created_at", TDG_KIND_TIMESTAMPTZ, R"({"type":"string","format":"date-time"})"),
        column("paid", TDG_KIND_BOOL, R"({"type":"boolean"})"),
        column("doc", TDG_KIND_JSON, "{}")};
    return s;
}

struct Rows {
    std::vector<std::string> texts;  // owns every text cell
    std::vector<TdgCell> cells;      // kRowPool rows of 10 cells
};

constexpr size_t kColumns = 10;
constexpr size_t kRowPool = 4096;

TdgCell textCell(TdgValueKind kind, const std::string& text) {
    TdgCell c{};
    c.kind = kind;
    c.data = text.data();
    c.size = text.size();
    return c;
}

Rows makeRows() {
    Rows rows;
    rows.texts.reserve(kRowPool * 7);
    static const char* const kCountries[] = {"DE", "GB", "FR", "US"};
    for (size_t r = 0; r < kRowPool; ++r) {
        rows.texts.push_back(std::to_string(100 + r % 997) + "." + std::to_string(10 + r % 90));
        rows.texts.push_back("user" + std::to_string(r) + "@example.com");
        rows.texts.push_back("Customer Number " + std::to_string(r));
        rows.texts.push_back(kCountries[r % 4]);
        rows.texts.push_back(r % 3 ? "regular order" : "express delivery, leave at the door");
        rows.texts.push_back("2024-05-01T09:30:00." + std::to_string(100000 + r) + "+00:00");
        rows.texts.push_back(R"({"source":"web","items":)" + std::to_string(r % 7) + "}");
    }
    for (size_t r = 0; r < kRowPool; ++r) {
        const std::string* t = &rows.texts[r * 7];
        TdgCell id{};
        id.kind = TDG_KIND_INT64;
        id.i64 = static_cast<int64_t>(r + 1);
        TdgCell customer{};
        customer.kind = TDG_KIND_INT64;
        customer.i64 = static_cast<int64_t>(r % 300);
        TdgCell paid{};
        paid.kind = TDG_KIND_BOOL;
        paid.i64 = r % 2;
        rows.cells.insert(
            rows.cells.end(),
            {id, customer, textCell(TDG_KIND_DECIMAL, t[0]), textCell(TDG_KIND_TEXT, t[1]),
             textCell(TDG_KIND_TEXT, t[2]), textCell(TDG_KIND_TEXT, t[3]),
             textCell(TDG_KIND_TEXT, t[4]), textCell(TDG_KIND_TIMESTAMPTZ, t[5]), paid,
             textCell(TDG_KIND_JSON, t[6])});
    }
    return rows;
}

double measure(size_t rowCount, size_t repeat, const std::function<void(size_t)>& run) {
    double best = 0;
    for (size_t k = 0; k < repeat; ++k) {
        auto start = std::chrono::steady_clock::now();
        run(rowCount);
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = std::max(best, static_cast<double>(rowCount) / seconds);
    }
    return best;
}

TapConfig configWith(const std::string& members) {
    return parseConfigObject(
        R"({"sql_dialect":"sqlite","tables":[{"table_name":"invoices","pk_column":"id"}])" +
        members + "}");
}

}  // namespace

int main(int argc, char** argv) {
    const size_t rowCount = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    const size_t repeat = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 3;
    const StreamDefinition stream = benchStream();
    const Rows rows = makeRows();
    const RecordRenderer renderer(stream);
    const std::string ts = "2024-05-01T09:30:00.000000+00:00";
    const int devNull = ::open("/dev/null", O_WRONLY);
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("tdg-maps-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(scratch);

    auto plain = [&](MessageWriter& writer, size_t n) {
        for (size_t i = 0; i < n; ++i) {
            std::string& out = writer.beginRecord(stream.name);
            renderer.appendRow(out, &rows.cells[(i % kRowPool) * kColumns], ts);
            writer.endRecord(ts);
        }
        writer.writeState(std::to_string(n));
    };

    const double recordRate = measure(rowCount, repeat, [&](size_t n) {
        MessageWriter writer(devNull);
        plain(writer, n);
    });

    const TapConfig mapped = configWith(
        R"J(,"stream_maps":{"invoices":{"__alias__":"bills","__filter__":"country != 'XX'",)J"
        R"J("note":null,"name":null,"email":"md5(email)","amount_twice":"float(amount) * 2"}})J");
    auto mapper = maps::mapperFor(mapped, stream);
    const double mappedRate = measure(rowCount, repeat, [&](size_t n) {
        MessageWriter writer(devNull);
        for (size_t i = 0; i < n; ++i) {
            mapper->emitRow(writer, &rows.cells[(i % kRowPool) * kColumns], ts, ts);
        }
        writer.writeState(std::to_string(n));
    });

    BatchSettings batch;
    batch.root = scratch.string();
    batch.batchSize = 10000;
    const double batchRate = measure(rowCount, repeat, [&](size_t n) {
        MessageWriter writer(devNull);
        writer.writeBatches(batch);
        plain(writer, n);
        std::filesystem::remove_all(scratch);
        std::filesystem::create_directories(scratch);
    });
    std::filesystem::remove_all(scratch);

    std::printf(
        "| rows | RECORD, no map | RECORD, typical maps | BATCH gzip, no map | maps ÷ plain | "
        "BATCH ÷ RECORD |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %zu | %.0f | %.0f | %.0f | %.2f | %.2f |\n", rowCount, recordRate, mappedRate,
                batchRate, mappedRate / recordRate, batchRate / recordRate);
    return 0;
}
