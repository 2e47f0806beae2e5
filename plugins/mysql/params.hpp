// Typed values for the placeholders of one prepared-statement execution. Every value reaches the
// server as a bound parameter, never as SQL text.
#pragma once

#include <mysql.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tapdiffgen::mysql {

class Params {
public:
    void clear();
    void reserve(size_t count);

    void addInt64(int64_t value);
    void addUInt64(uint64_t value);
    void addDouble(double value);
    /// Borrowed: the text must stay alive until the statement has executed.
    void addText(std::string_view value);
    /// A binary string, kept by the parameters until they are done.
    void addBytes(std::string value);
    void addTime(const MYSQL_TIME& value, enum_field_types type);
    void addNull();

    size_t size() const { return slots_.size(); }
    /// The binds for mysql_stmt_bind_param; valid until the next add or clear.
    MYSQL_BIND* binds();

private:
    struct Slot {
        enum_field_types type = MYSQL_TYPE_NULL;
        bool isUnsigned = false;
        long long integer = 0;
        double real = 0;
        MYSQL_TIME time{};
        std::string_view text;
        std::string bytes;
        unsigned long length = 0;
    };
    std::vector<Slot> slots_;
    std::vector<MYSQL_BIND> binds_;
};

}  // namespace tapdiffgen::mysql
