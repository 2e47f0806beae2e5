// Reading table rows: by key for the diffgen events (fetch_rows) and in key order for snapshots
// (scan_table). Both stream rows into the batch builder as they arrive from the server.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tap-diffgen/sdk/key_run.hpp"

#include "catalog.hpp"
#include "cells.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/dialect_driver.hpp"

namespace tapdiffgen::mysql {

class RowReader {
public:
    RowReader(Session& session, Catalog& catalog)
        : session_(session), catalog_(catalog), writer_(session.unrepresentable()) {}

    void fetch(const sdk::FetchRequest& request, sdk::RowBatchBuilder& rows);
    void scan(const sdk::ScanRequest& request, sdk::RowBatchBuilder& rows);

private:
    std::optional<sdk::KeyRun> integerKeyRun(const std::string& head,
                                             const std::vector<std::string>& keyColumns,
                                             const std::vector<std::string_view>& keys,
                                             size_t keyIndex);

    Session& session_;
    Catalog& catalog_;
    CellWriter writer_;
};

}  // namespace tapdiffgen::mysql
