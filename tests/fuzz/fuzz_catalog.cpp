// libFuzzer target: applying any catalog text to a fixed set of streams either selects
// streams and columns or is refused with CatalogError; the key column stays selected.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "catalog/catalog_json.hpp"

namespace {

std::vector<tapdiffgen::core::StreamDefinition> streams() {
    using namespace tapdiffgen::core;
    StreamDefinition stream;
    stream.name = "invoices";
    stream.tableName = "invoices";
    stream.table = TableRef::parse("invoices");
    stream.key = KeySpec{{KeyColumn{"id", TDG_KIND_INT64}}};
    stream.columns = {
        {{"id", 1, TDG_KIND_INT64, "integer", -1, -1, false, true, R"({"type":"integer"})"}},
        {{"note", 2, TDG_KIND_TEXT, "text", -1, -1, true, false, R"({"type":"string"})"}}};
    return {stream};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto defined = streams();
    try {
        tapdiffgen::core::applyCatalogSelection(text, "fuzz", defined);
        if (defined[0].selectedColumns().empty()) std::abort();
    } catch (const tapdiffgen::core::CatalogError&) {
    }
    return 0;
}
