// Reading table rows: by key for the diffgen events (fetch_rows) and in key order for snapshots
// (scan_table). Both stream rows into the batch builder as they arrive from the server, and
// answer TDG_TABLE_CHANGED when the table no longer has a requested column, or the column holds
// another kind of value than the host's request says.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/sdk/key_run.hpp"

#include "catalog.hpp"
#include "cells.hpp"
#include "key_codec.hpp"
#include "key_values.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"
#include "tap-diffgen/sdk/key_sql.hpp"

namespace tapdiffgen::mysql {

class RowReader {
public:
    RowReader(Session& session, Catalog& catalog)
        : session_(session), catalog_(catalog), writer_(session.unrepresentable()) {}

    void fetch(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows);
    /// Request i's rows to rows[i], each finished in turn: many tables' fetches as a few
    /// multi-statement text queries (text_query.hpp), decoded to the same cells as fetch's.
    void fetchMany(const std::vector<sdk::FetchRequest>& requests,
                   const std::vector<sdk::RowBatchBuilder*>& rows);
    void scan(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows);
    /// One chunk (scan_chunk): the rows after request.afterKey, at most request.maxRows.
    void scanChunk(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows);

private:
    // A keyset scan's statements: the first page, and the pages after a key.
    struct KeysetStatements {
        std::string first;
        std::string next;
        sdk::KeysetCondition after;
    };
    KeysetStatements keysetStatements(const sdk::ScanRequest& request);
    void numberLabelledKeys(const sdk::ScanRequest& request, const std::vector<FieldInfo>& fields,
                            std::vector<LastKey>& keys);
    int64_t readKeysetPage(const sdk::ScanRequest& request, const KeysetStatements& statements,
                           int64_t limit, std::vector<LastKey>& last, sdk::RowBatchBuilder& rows);

    struct TextFetch;
    void fetchChunks(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows);
    void fetchManyAsText(const std::vector<sdk::FetchRequest>& requests,
                         const std::vector<sdk::RowBatchBuilder*>& rows);
    void scanPages(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows);
    void scanOneChunk(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows);
    /// The columns of the request's SELECT as its prepared statement describes them, which say
    /// how to read the text of a text query's rows.
    std::vector<FieldInfo> decodingFieldsOf(const sdk::FetchRequest& request);
    TextFetch planTextFetch(const sdk::FetchRequest& request, size_t index,
                            std::vector<FieldInfo> columns);
    void runTextFetches(const std::vector<TextFetch>& fetches, const std::string& sql,
                        const std::vector<sdk::FetchRequest>& requests,
                        const std::vector<sdk::RowBatchBuilder*>& rows);
    std::optional<sdk::KeyRuns> integerKeyRuns(const std::string& head,
                                               const std::vector<std::string>& keyColumns,
                                               const std::vector<std::string_view>& keys,
                                               size_t keyIndex);

    Session& session_;
    Catalog& catalog_;
    CellWriter writer_;
};

}  // namespace tapdiffgen::mysql
