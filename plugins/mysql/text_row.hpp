// One row of a text-protocol result, read with the same accessors as ResultRow, so that
// CellWriter turns it into exactly the cells a prepared statement's binary row gives. The
// values are decoded by the column types of the prepared statement of the same SELECT: the
// text query selects FLOAT and DOUBLE columns as CAST(… AS DOUBLE), whose text is the shortest
// that reads back as the same double, while a FLOAT's own text keeps only six digits.
#pragma once

#include <mysql.h>

#include <cstdint>
#include <string>
#include <vector>

#include "types.hpp"

namespace tapdiffgen::mysql {

class TextRow {
public:
    /// `fields` (the prepared statement's columns) outlive the row.
    explicit TextRow(const std::vector<FieldInfo>& fields) : fields_(fields) {}

    /// Points at the row mysql_fetch_row returned; valid until the next fetch.
    void attach(MYSQL_ROW values, const unsigned long* lengths) {
        values_ = values;
        lengths_ = lengths;
    }

    size_t size() const { return fields_.size(); }
    bool isNull(size_t column) const { return values_[column] == nullptr; }
    int64_t int64(size_t column) const;
    uint64_t uint64(size_t column) const;
    float real32(size_t column) const;
    double real64(size_t column) const;
    /// DATE "YYYY-MM-DD", DATETIME and TIMESTAMP "YYYY-MM-DD HH:MM:SS[.f…]", TIME
    /// "[-]H…:MM:SS[.f…]" (all hours in `hour`, as the binary protocol gives them).
    const MYSQL_TIME& time(size_t column);
    void appendBytes(size_t column, std::string& out) const {
        out.append(values_[column], lengths_[column]);
    }
    /// The value's bytes; empty for NULL.
    std::string bytes(size_t column) const {
        return isNull(column) ? std::string() : std::string(values_[column], lengths_[column]);
    }

private:
    std::string_view text(size_t column) const { return {values_[column], lengths_[column]}; }
    [[noreturn]] void unreadable(size_t column, const char* what) const;

    const std::vector<FieldInfo>& fields_;
    MYSQL_ROW values_ = nullptr;
    const unsigned long* lengths_ = nullptr;
    MYSQL_TIME time_{};
};

/// Parses MySQL's text form of a DATE, DATETIME, TIMESTAMP or TIME value of type `type`; false
/// when `text` is not one.
bool parseTemporalText(std::string_view text, enum_field_types type, MYSQL_TIME& out);

}  // namespace tapdiffgen::mysql
