// BATCH messages through the real binary on real PostgreSQL and MariaDB: the files named by the
// BATCH messages, read back, hold exactly the records RECORD mode emits for the same workload,
// tombstones included; every file is complete before its BATCH message, and every STATE comes
// after the BATCH messages of the records it covers.
#include <doctest/doctest.h>

#include <Poco/InflatingStream.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dialect_fixture.hpp"

using namespace tapdiffgen::testing;
using Poco::JSON::Object;

namespace {

std::string compact(const Object::Ptr& object) {
    std::ostringstream out;
    Poco::JSON::Stringifier::condense(object, out);
    return out.str();
}

// The records of a file:// manifest entry, one compact JSON text each.
std::vector<std::string> readBatchFile(const std::string& url, bool gzip) {
    const std::string prefix = "file://";
    REQUIRE(url.rfind(prefix, 0) == 0);
    std::ifstream file(url.substr(prefix.size()), std::ios::binary);
    REQUIRE_MESSAGE(file, url);
    std::unique_ptr<std::istream> in;
    if (gzip) {
        in = std::make_unique<Poco::InflatingInputStream>(file,
                                                          Poco::InflatingStreamBuf::STREAM_GZIP);
    }
    std::istream& lines = gzip ? *in : file;
    std::vector<std::string> records;
    for (std::string line; std::getline(lines, line);) {
        Poco::JSON::Parser parser;
        records.push_back(compact(parser.parse(line).extract<Object::Ptr>()));
    }
    return records;
}

std::multiset<std::string> recordTexts(const TapRun& run, const std::string& stream) {
    std::multiset<std::string> texts;
    for (const auto& record : run.records(stream)) texts.insert(compact(record));
    return texts;
}

void batchesEqualRecords(const DatabaseEnv& env, const std::string& compression) {
    JournalledSchema schema(env, "batch_" + compression);
    schema.createTable("items", "id INTEGER PRIMARY KEY, label VARCHAR(30), price NUMERIC(10,2)",
                       "id");
    schema.createTable("tags", "id INTEGER PRIMARY KEY, tag VARCHAR(10)", "id");
    const std::string items = schema.table("items");
    const std::string tags = schema.table("tags");
    for (int i = 1; i <= 25; ++i) {
        schema.exec("INSERT INTO " + items + " VALUES (" + std::to_string(i) + ", 'item " +
                    std::to_string(i) + "', " + std::to_string(i) + ".25)");
    }
    schema.exec("UPDATE " + items + " SET label = 'changed' WHERE id <= 5");
    schema.exec("DELETE FROM " + items + " WHERE id IN (7, 8, 9)");
    schema.exec("INSERT INTO " + tags + " VALUES (1, 'a'), (2, 'b')");
    schema.exec("DELETE FROM " + tags + " WHERE id = 2");

    ScratchDir dir;
    ScratchDir storage;
    // page_size 10: several pages, each ending with a STATE, and files of at most 4 records.
    const std::string common = R"("page_size":10,"max_page_size":10)";
    TapRun plain = runTapBinary({"--config", schema.writeConfig(dir, {items, tags}, common)});
    REQUIRE_MESSAGE(plain.exitCode == 0, plain.stderrText);
    const std::string batchConfig =
        R"(,"batch_config":{"encoding":{"format":"jsonl","compression":")" + compression +
        R"("},"storage":{"root":"file://)" + storage.path() +
        R"(","prefix":"run-"},"batch_size":4})";
    TapRun batched =
        runTapBinary({"--config", schema.writeConfig(dir, {items, tags}, common + batchConfig)});
    REQUIRE_MESSAGE(batched.exitCode == 0, batched.stderrText);
    CHECK(batched.messages("RECORD").empty());
    CHECK(batched.messages("SCHEMA").size() == 2);

    std::map<std::string, std::multiset<std::string>> fromFiles;
    bool batchSinceState = false;
    size_t files = 0;
    for (const auto& line : batched.lines) {
        Poco::JSON::Parser parser;
        const Object::Ptr message = parser.parse(line).extract<Object::Ptr>();
        const std::string type = message->getValue<std::string>("type");
        if (type == "BATCH") {
            CHECK(message->getObject("encoding")->getValue<std::string>("format") == "jsonl");
            CHECK(message->getObject("encoding")->getValue<std::string>("compression") ==
                  compression);
            const auto manifest = message->getArray("manifest");
            REQUIRE(manifest->size() == 1);
            const std::string url = manifest->getElement<std::string>(0);
            CHECK(url.find("/run-tap-diffgen--") != std::string::npos);
            CHECK(url.size() > 8);
            CHECK(std::filesystem::path(url).extension() ==
                  (compression == "gzip" ? ".gz" : ".json"));
            const auto records = readBatchFile(url, compression == "gzip");
            CHECK(records.size() >= 1);
            CHECK(records.size() <= 4);
            for (const auto& record : records) {
                fromFiles[message->getValue<std::string>("stream")].insert(record);
            }
            batchSinceState = true;
            ++files;
        } else if (type == "STATE") {
            batchSinceState = false;
        }
    }
    CHECK_FALSE(batchSinceState);  // the last BATCH is followed by the STATE that covers it
    CHECK(files >= 8);
    CHECK(std::distance(std::filesystem::directory_iterator(storage.path()),
                        std::filesystem::directory_iterator()) == static_cast<long>(files));
    CHECK(batched.lastState() == plain.lastState());

    // The same records, the run's own timestamps aside.
    auto normalise = [](std::multiset<std::string> texts) {
        std::multiset<std::string> out;
        for (std::string text : texts) {
            Poco::JSON::Parser parser;
            Object::Ptr record = parser.parse(text).extract<Object::Ptr>();
            if (record->getValue<bool>("is_deleted")) record->set("_sdc_deleted_at", "(set)");
            out.insert(compact(record));
        }
        return out;
    };
    for (const std::string& stream : {items, tags}) {
        CAPTURE(stream);
        CHECK(normalise(fromFiles[stream]) == normalise(recordTexts(plain, stream)));
    }
    // 33 events over pages of 10, each page on its own: the inserts of the rows deleted later
    // are re-pulled gone (tombstones), then their deletes come (tombstones again).
    CHECK(fromFiles[items].size() == 33);
    size_t tombstones = 0;
    for (const auto& text : fromFiles[items]) {
        tombstones += text.find(R"("is_deleted":true)") != std::string::npos;
    }
    CHECK(tombstones == 6);
}

void unwritableRoot(const DatabaseEnv& env) {
    JournalledSchema schema(env, "batch_root");
    schema.createTable("items", "id INTEGER PRIMARY KEY", "id");
    ScratchDir dir;
    TapRun run = runTapBinary(
        {"--config",
         schema.writeConfig(dir, {schema.table("items")},
                            R"("batch_config":{"encoding":{"format":"jsonl","compression":"gzip"},)"
                            R"("storage":{"root":"file:///nonexistent/tap-diffgen-batches"}})")});
    CHECK(run.exitCode == 1);
    CHECK(run.lines.empty());
    CHECK(run.stderrText.find("| ERROR   | tap-diffgen | batch_config: storage.root "
                              "'file:///nonexistent/tap-diffgen-batches' cannot be written: No "
                              "such file or directory") != std::string::npos);
}

}  // namespace

TEST_CASE("postgres: BATCH files hold the records RECORD mode emits") {
    TDG_REQUIRE_DATABASE(db, postgresEnv());
    batchesEqualRecords(db, "gzip");
    batchesEqualRecords(db, "none");
    unwritableRoot(db);
}

TEST_CASE("mysql: BATCH files hold the records RECORD mode emits") {
    TDG_REQUIRE_DATABASE(db, mysqlEnv());
    batchesEqualRecords(db, "gzip");
    batchesEqualRecords(db, "none");
    unwritableRoot(db);
}
