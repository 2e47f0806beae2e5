#include "params.hpp"

namespace tapdiffgen::mysql {

void Params::clear() { slots_.clear(); }

void Params::reserve(size_t count) { slots_.reserve(count); }

void Params::addInt64(int64_t value) {
    Slot& slot = slots_.emplace_back();
    slot.type = MYSQL_TYPE_LONGLONG;
    slot.integer = value;
}

void Params::addUInt64(uint64_t value) {
    Slot& slot = slots_.emplace_back();
    slot.type = MYSQL_TYPE_LONGLONG;
    slot.isUnsigned = true;
    slot.integer = static_cast<long long>(value);
}

void Params::addDouble(double value) {
    Slot& slot = slots_.emplace_back();
    slot.type = MYSQL_TYPE_DOUBLE;
    slot.real = value;
}

void Params::addText(std::string_view value) {
    Slot& slot = slots_.emplace_back();
    slot.type = MYSQL_TYPE_STRING;
    slot.text = value;
    slot.length = static_cast<unsigned long>(value.size());
}

void Params::addBytes(std::string value) {
    Slot& slot = slots_.emplace_back();
    slot.type = MYSQL_TYPE_BLOB;
    slot.bytes = std::move(value);
    slot.length = static_cast<unsigned long>(slot.bytes.size());
}

void Params::addTime(const MYSQL_TIME& value, enum_field_types type) {
    Slot& slot = slots_.emplace_back();
    slot.type = type;
    slot.time = value;
}

void Params::addNull() { slots_.emplace_back(); }

MYSQL_BIND* Params::binds() {
    binds_.assign(slots_.size(), MYSQL_BIND{});
    for (size_t i = 0; i < slots_.size(); ++i) {
        Slot& slot = slots_[i];
        MYSQL_BIND& bind = binds_[i];
        bind.buffer_type = slot.type;
        bind.is_unsigned = slot.isUnsigned;
        switch (slot.type) {
            case MYSQL_TYPE_LONGLONG:
                bind.buffer = &slot.integer;
                break;
            case MYSQL_TYPE_DOUBLE:
                bind.buffer = &slot.real;
                break;
            case MYSQL_TYPE_STRING:
                // The client only reads parameter buffers; the cast is what its C API needs.
                bind.buffer = const_cast<char*>(slot.text.data());
                bind.buffer_length = slot.length;
                bind.length = &slot.length;
                break;
            case MYSQL_TYPE_BLOB:
                bind.buffer = slot.bytes.data();
                bind.buffer_length = slot.length;
                bind.length = &slot.length;
                break;
            case MYSQL_TYPE_NULL:
                break;
            default:
                bind.buffer = &slot.time;
                bind.buffer_length = sizeof(MYSQL_TIME);
                break;
        }
    }
    return binds_.data();
}

}  // namespace tapdiffgen::mysql
