#include "dense_key_replay.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <set>
#include <string_view>

#include "plugins/support/plugin_probe.hpp"
#include "tap-diffgen/sdk/key_run.hpp"

namespace tapdiffgen::testing {
namespace {

constexpr int64_t kFirstRows = 3000;
constexpr int kPages = 12;

// The rows as the application left them: the test's own account of the table.
class Table {
public:
    Table(const DatabaseEnv& db, std::string name) : db_(db), name_(std::move(name)) {
        exec(db_, "DROP TABLE IF EXISTS " + name_ + ";\nCREATE TABLE " + name_ +
                      " (id BIGINT PRIMARY KEY, v VARCHAR(40), n INT)");
        std::vector<int64_t> ids;
        for (int64_t id = 1; id <= kFirstRows; ++id) ids.push_back(id);
        insert(ids, 0);
        apply();
    }

    // Runs the changes made since the last call, in their order, in one round trip.
    void apply() {
        if (!pending_.empty()) exec(db_, pending_);
        pending_.clear();
    }

    void insert(const std::vector<int64_t>& ids, int page) {
        std::string values;
        for (int64_t id : ids) {
            if (!ids_.insert(id).second) continue;
            values += (values.empty() ? "" : ", ") + std::string("(") + std::to_string(id) +
                      ", 'p" + std::to_string(page) + "-" + std::to_string(id) + "', " +
                      (id % 5 == 0 ? "NULL" : std::to_string(id % 97)) + ")";
        }
        if (!values.empty()) pending_ += "INSERT INTO " + name_ + " VALUES " + values + ";\n";
    }
    void remove(int64_t id) {
        if (ids_.erase(id) == 0) return;
        pending_ += "DELETE FROM " + name_ + " WHERE id = " + std::to_string(id) + ";\n";
    }
    // The row keeps its values under another key.
    void changeKey(int64_t from, int64_t to) {
        if (ids_.count(from) == 0 || ids_.count(to) != 0) return;
        pending_ += "UPDATE " + name_ + " SET id = " + std::to_string(to) +
                    ", n = n + 1 WHERE id = " + std::to_string(from) + ";\n";
        ids_.erase(from);
        ids_.insert(to);
    }
    void touch(int64_t id, int page) {
        if (ids_.count(id) == 0) return;
        pending_ += "UPDATE " + name_ + " SET v = 'u" + std::to_string(page) + "-" +
                    std::to_string(id) + "' WHERE id = " + std::to_string(id) + ";\n";
    }
    bool has(int64_t id) const { return ids_.count(id) != 0; }
    const std::string& name() const { return name_; }

private:
    const DatabaseEnv& db_;
    std::string name_;
    std::set<int64_t> ids_;
    std::string pending_;
};

// What an application does between two pages: new rows at the end, some in the holes of the
// first rows, deletes, key changes within the first rows and out of them, plain updates.
std::vector<int64_t> changeBetweenPages(Table& table, int page, std::mt19937_64& random) {
    std::uniform_int_distribution<int64_t> firstRows(1, kFirstRows);
    std::vector<int64_t> inserted;
    const int64_t newFrom = 100000 + page * 1000;
    for (int64_t id = newFrom; id < newFrom + 70; ++id) inserted.push_back(id);
    for (int i = 0; i < 40; ++i) inserted.push_back(firstRows(random));  // back into holes
    table.insert(inserted, page);
    for (int i = 0; i < 60; ++i) table.remove(firstRows(random));
    for (int i = 0; i < 30; ++i) {
        const int64_t from = firstRows(random);
        table.changeKey(from, i % 2 == 0 ? firstRows(random) : from + 50000);
    }
    for (int i = 0; i < 100; ++i) table.touch(firstRows(random), page);
    table.apply();
    return inserted;
}

// A page's keys: a stretch of the first rows with most keys in it, the rows the last changes
// inserted, scattered keys, keys of rows that moved away or never were, some twice; shuffled.
std::vector<std::string> pageKeys(int page, const std::vector<int64_t>& inserted,
                                  std::mt19937_64& random) {
    std::vector<std::string> keys;
    const int64_t stretchFrom = 1 + static_cast<int64_t>(random() % (kFirstRows - 600));
    // Every fourth page's stretch is too sparse for a range (sdk::kMinRunDensity): its keys
    // take the lookup path beside the range of the inserted rows.
    const double share = page % 4 == 3 ? 0.5 : page % 4 == 0 ? 0.97 : page % 4 == 1 ? 0.9 : 0.85;
    std::bernoulli_distribution taken(share);
    for (int64_t id = stretchFrom; id < stretchFrom + 500; ++id) {
        if (taken(random)) keys.push_back(std::to_string(id));
    }
    for (int64_t id : inserted) keys.push_back(std::to_string(id));
    for (int i = 0; i < 25; ++i) keys.push_back(std::to_string(1 + random() % 160000));
    keys.push_back(std::to_string(stretchFrom + 50000));  // where a moved row may be
    const size_t twice = keys.size() / 10;
    for (size_t i = 0; i < twice; ++i) keys.push_back(keys[random() % keys.size()]);
    std::shuffle(keys.begin(), keys.end(), random);
    return keys;
}

Rows sortedRows(Rows rows) {
    std::sort(rows.begin(), rows.end());
    return rows;
}

// The distinct keys in sorted chunks of fewer keys than a run (sdk::kMinKeyRun): all of them
// read through the key list.
Rows throughKeyLists(core::DialectConnection& connection, const Table& table,
                     const std::vector<std::string>& columns,
                     const std::vector<std::string>& keys) {
    Collector collected;
    const std::set<std::string> distinct(keys.begin(), keys.end());
    std::vector<std::string> chunk;
    for (auto key = distinct.begin(); key != distinct.end(); ++key) {
        chunk.push_back(*key);
        if (chunk.size() + 1 == sdk::kMinKeyRun || std::next(key) == distinct.end()) {
            const std::vector<std::string_view> views(chunk.begin(), chunk.end());
            CHECK_FALSE(sdk::denseKeyRuns(views).has_value());
            connection.fetchRows({"", table.name()}, columns, "id", chunk, collected.callback());
            chunk.clear();
        }
    }
    return sortedRows(collected.rows);
}

// Rows a range covers that exist but were not asked for.
size_t unaskedInRanges(const Table& table, const sdk::KeyRuns& runs) {
    size_t unasked = 0;
    for (const sdk::KeyRange& range : runs.ranges) {
        for (int64_t id = range.first; id <= range.last; ++id) {
            if (table.has(id) && !runs.asked(id)) ++unasked;
        }
    }
    return unasked;
}

struct DenseReplayCounts {
    int pages = 0;
    // Pages whose keys the SDK takes dense runs of with a gap in one, so that a range also
    // reads rows nobody asked for.
    int pagesWithGappedRuns = 0;
    // Rows the three ways agreed on, over all pages.
    size_t rows = 0;
    // Rows present as the page was read whose key a range covers without it being asked.
    size_t unaskedRowsInRanges = 0;
};

}  // namespace

void checkDenseKeyPages(const DatabaseEnv& db, core::DialectConnection& connection,
                        const std::string& tableName) {
    Table table(db, tableName);
    std::mt19937_64 random(20261207);
    const std::vector<std::string> columns = {"v", "id", "n"};
    DenseReplayCounts counts;
    for (int page = 1; page <= kPages; ++page) {
        const std::vector<int64_t> inserted = changeBetweenPages(table, page, random);
        const std::vector<std::string> keys = pageKeys(page, inserted, random);
        CAPTURE(page);

        const std::vector<std::string_view> views(keys.begin(), keys.end());
        const std::optional<sdk::KeyRuns> runs = sdk::denseKeyRuns(views);
        if (runs) {
            const size_t unasked = unaskedInRanges(table, *runs);
            counts.unaskedRowsInRanges += unasked;
            if (unasked > 0) ++counts.pagesWithGappedRuns;
        }

        Collector whole;
        connection.fetchRows({"", table.name()}, columns, "id", keys, whole.callback(), 100);
        ManyCollector many(2);
        fetchMany(connection,
                  {{{"", table.name()}, {"id"}, "id", {"1", "2", "3"}},
                   {{"", table.name()}, columns, "id", keys}},
                  many);
        const Rows single = throughKeyLists(connection, table, columns, keys);

        std::set<std::string> present;
        for (const std::string& key : keys) {
            if (table.has(std::stoll(key))) present.insert(key);
        }
        CHECK(single.size() == present.size());
        CHECK(sortedRows(whole.rows) == single);
        CHECK(many.sorted(1) == single);
        counts.rows += single.size();
        ++counts.pages;
    }
    CHECK(counts.pages == kPages);
    // Pages 3, 7 and 11 read their stretch through the key list; every other page reads a range
    // over rows it did not ask for, which the batches drop.
    CHECK(counts.pagesWithGappedRuns == kPages - 3);
    CHECK(counts.unaskedRowsInRanges > 200);
    CHECK(counts.rows > 5000);
}

}  // namespace tapdiffgen::testing
