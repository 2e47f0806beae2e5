// The last key of a scan page remembered in its own type for the next page, and the literals
// and time texts the key codec (key_codec.hpp) shares with it.
#pragma once

#include <mysql.h>

#include "tap-diffgen/dialect_abi.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "params.hpp"
#include "result_row.hpp"
#include "types.hpp"

namespace tapdiffgen::mysql {

/// Reads a date or time text of the ABI ("YYYY-MM-DD", "[-]HHH:MM:SS[.ffffff]",
/// "YYYY-MM-DDTHH:MM:SS[.ffffff][+00:00]") as a value of a column of `type`; false when it is
/// none.
bool parseKeyTime(std::string_view text, enum_field_types type, MYSQL_TIME& time);

/// Appends `text` to a text query as a quoted string literal, escaped by the client library for
/// the connection's character set. Throws TDG_INVALID_DATA naming `what` when it cannot be.
void appendTextLiteral(std::string& sql, MYSQL* connection, std::string_view text,
                       std::string_view what);

/// The key of the last row read, in the column's own type.
class LastKey {
public:
    /// Copies the key out of the current row (before the next fetch overwrites it).
    void capture(ResultRow& row, size_t column, const FieldInfo& field);
    /// The key as a cell of this plugin's row batches carried it (TdgScanRequest.after_key):
    /// the inverse of the cell's decoding. Throws TDG_INVALID_ARGUMENT naming the column when
    /// the cell cannot be a value of it.
    static LastKey fromCell(const TdgCell& cell, const FieldInfo& field,
                            std::string_view columnName);
    bool isNull() const { return isNull_; }
    void bind(Params& params) const;
    /// The key as text (a string key), for an ENUM or SET key to be read as its number.
    const std::string& text() const { return text_; }
    /// Compares by `number` from now on: an ENUM's index, a SET's bits.
    void useNumber(uint64_t number) {
        kind_ = Kind::Unsigned;
        unsigned_ = number;
    }

private:
    enum class Kind { Signed, Unsigned, Real, Time, Text };
    Kind kind_ = Kind::Text;
    bool isNull_ = true;
    int64_t signed_ = 0;
    uint64_t unsigned_ = 0;
    double real_ = 0;
    MYSQL_TIME time_{};
    enum_field_types timeType_ = MYSQL_TYPE_DATETIME;
    std::string text_;
};

}  // namespace tapdiffgen::mysql
