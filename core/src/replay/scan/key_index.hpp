// Positions in a sequence of keyed items, found by key. A page plan indexes every event of a
// page by its row's key, and the re-pull matches every row it reads back: thousands of keys a
// page, on the path the servers wait on. A node-based map allocated a node per key and was
// most of a plan's cost; this is one open-addressed array of (hash, position) slots.
//
// The keys stay in the items: every call is given `keyAt(position)`, the key of the item at a
// position, so the index holds no pointer into the sequence and survives the sequence's moves
// and growth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace tapdiffgen::core {

class KeyIndex {
public:
    static constexpr size_t npos = SIZE_MAX;

    /// Room for `keys` keys without growing.
    void reserve(size_t keys) {
        if (keys > size_) growTo(capacityFor(keys));
    }
    size_t size() const { return size_; }

    /// The position stored under `key`, or npos.
    template <typename KeyAt>
    size_t find(std::string_view key, const KeyAt& keyAt) const {
        if (slots_.empty()) return npos;
        const uint32_t hash = hashOf(key);
        for (size_t slot = hash & mask(); slots_[slot].position != kEmpty;
             slot = (slot + 1) & mask()) {
            if (slots_[slot].hash == hash && keyAt(slots_[slot].position) == key) {
                return slots_[slot].position;
            }
        }
        return npos;
    }

    /// Stores `position` under `key`: the position stored before under that key, which it
    /// replaces, or npos when the key is new.
    template <typename KeyAt>
    size_t assign(std::string_view key, size_t position, const KeyAt& keyAt) {
        if (position >= kEmpty) throw std::length_error("more than 2^32 - 1 keys in one index");
        if ((size_ + 1) * 4 > slots_.size() * 3) growTo(capacityFor(size_ + 1));
        const uint32_t hash = hashOf(key);
        size_t slot = hash & mask();
        for (; slots_[slot].position != kEmpty; slot = (slot + 1) & mask()) {
            if (slots_[slot].hash == hash && keyAt(slots_[slot].position) == key) {
                return std::exchange(slots_[slot].position, static_cast<uint32_t>(position));
            }
        }
        slots_[slot] = Slot{hash, static_cast<uint32_t>(position)};
        ++size_;
        return npos;
    }

private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    struct Slot {
        uint32_t hash = 0;
        uint32_t position = kEmpty;
    };

    static uint32_t hashOf(std::string_view key) {
        const size_t hash = std::hash<std::string_view>{}(key);
        return static_cast<uint32_t>(hash ^ (hash >> 32));
    }
    // A power of two at most three quarters full.
    static size_t capacityFor(size_t keys) {
        size_t capacity = 16;
        while (capacity * 3 < keys * 4) capacity *= 2;
        return capacity;
    }
    size_t mask() const { return slots_.size() - 1; }
    // The slots keep their full hashes, so growing needs no key.
    void growTo(size_t capacity) {
        if (capacity <= slots_.size()) return;
        std::vector<Slot> old(capacity);
        old.swap(slots_);
        for (const Slot& entry : old) {
            if (entry.position == kEmpty) continue;
            size_t slot = entry.hash & mask();
            while (slots_[slot].position != kEmpty) slot = (slot + 1) & mask();
            slots_[slot] = entry;
        }
    }

    std::vector<Slot> slots_;
    size_t size_ = 0;
};

}  // namespace tapdiffgen::core
