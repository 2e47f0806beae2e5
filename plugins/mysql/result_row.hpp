// The buffers one result row is fetched into. Numbers and times arrive typed; everything else
// arrives as bytes in a per-column buffer that grows with the values seen, while values beyond
// kMaxBufferedBytes are read straight into the caller's memory, so a 10 MB LONGTEXT never needs
// a second 10 MB buffer here.
#pragma once

#include <mysql.h>

#include <cstdint>
#include <string>
#include <vector>

#include "types.hpp"

namespace tapdiffgen::mysql {

class ResultRow {
public:
    /// Largest value a column buffer grows to; longer values take the direct path.
    static constexpr size_t kMaxBufferedBytes = 64 * 1024;

    /// Binds one buffer per column to the statement's result (after each execute).
    void bind(MYSQL_STMT* stmt, const std::vector<FieldInfo>& fields);
    /// Rebinds buffers that should grow; call before every mysql_stmt_fetch.
    void prepareFetch();

    size_t size() const { return columns_.size(); }
    bool isNull(size_t column) const { return columns_[column].isNull != 0; }
    int64_t int64(size_t column) const;
    uint64_t uint64(size_t column) const;
    float real32(size_t column) const;
    double real64(size_t column) const;
    const MYSQL_TIME& time(size_t column) const;

    /// An integer column, or a text column holding decimal digits (catalog views differ in
    /// which they use between MySQL and MariaDB).
    int64_t asInt64(size_t column);

    /// Appends the complete value of a byte column to `out`.
    void appendBytes(size_t column, std::string& out);
    std::string bytes(size_t column);

private:
    enum class Storage { Integer, Real32, Real64, Time, Bytes };
    struct Column {
        Storage storage = Storage::Bytes;
        long long integer = 0;
        float real32 = 0;
        double real64 = 0;
        MYSQL_TIME time{};
        std::vector<char> bytes;
        size_t wanted = 0;  // buffer size the values seen so far ask for
        unsigned long length = 0;
        my_bool isNull = 0;
        my_bool error = 0;
    };

    static Storage storageFor(const FieldInfo& field, enum_field_types& bufferType);
    const Column& typed(size_t column, Storage storage) const;
    void attach(size_t column);

    MYSQL_STMT* stmt_ = nullptr;
    std::vector<Column> columns_;
    std::vector<MYSQL_BIND> binds_;
    bool rebind_ = false;
};

}  // namespace tapdiffgen::mysql
