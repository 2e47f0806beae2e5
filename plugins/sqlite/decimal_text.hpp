// Decimal text for NUMERIC(p,s) columns. SQLite keeps no scale: '1.5000' is stored as the REAL
// 1.5 and '10.00' as the INTEGER 10, so the declared scale is put back when the value is
// written out ("1.5000", "10.00"), as PostgreSQL and MySQL would send it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tapdiffgen::sqlite {

/// `value` with exactly `scale` decimals, correctly rounded; nullopt for NaN and ±Infinity.
std::optional<std::string> fixedDecimal(double value, int scale);

/// `value` with exactly `scale` zero decimals ("10.00"); exact for every 64-bit integer.
std::string integerDecimal(int64_t value, int scale);

}  // namespace tapdiffgen::sqlite
