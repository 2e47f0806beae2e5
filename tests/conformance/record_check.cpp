#include "record_check.hpp"

#include <algorithm>
#include <stdexcept>

#include "case_result.hpp"
#include "catalog/stream_definition.hpp"
#include "singer/cell_json.hpp"
#include "support/schema_validator.hpp"

namespace tapdiffgen::conformance {

RecordCheck::RecordCheck(std::vector<std::string> names, const std::vector<std::string>& schemas,
                         const std::vector<std::string>& keys)
    : names_(std::move(names)) {
    for (size_t c = 0; c < names_.size(); ++c) {
        const bool key = std::find(keys.begin(), keys.end(), names_[c]) != keys.end();
        schemaTexts_.push_back(key ? schemas[c] : core::nullableSchema(schemas[c]));
        try {
            schemas_.push_back(testing::ExactJson::parse(schemaTexts_.back()));
        } catch (const std::invalid_argument& failure) {
            throw CaseFailure("column '" + names_[c] +
                              "' has a json_schema that is not JSON: " + failure.what());
        }
    }
}

void RecordCheck::check(const TdgRowBatch& batch) const {
    std::string json;
    for (int64_t r = 0; r < batch.num_rows; ++r) {
        for (size_t c = 0; c < schemas_.size(); ++c) {
            json.clear();
            core::appendCellJson(json,
                                 batch.cells[r * batch.num_columns + static_cast<int64_t>(c)]);
            std::vector<std::string> problems;
            try {
                problems = testing::schemaViolations(schemas_[c], testing::ExactJson::parse(json),
                                                     "column '" + names_[c] + "'");
            } catch (const std::invalid_argument& failure) {
                problems.push_back("column '" + names_[c] + "': " + failure.what());
            }
            require(problems.empty(),
                    problems.empty() ? ""
                                     : problems.front() +
                                           ", so a strict Draft 7 target refuses the record (its "
                                           "SCHEMA: " +
                                           schemaTexts_[c] + ")");
        }
    }
}

}  // namespace tapdiffgen::conformance
