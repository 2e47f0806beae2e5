#include "replay/sync/chunk_key.hpp"

#include <charconv>

#include "singer/json_text.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {
namespace {

bool carriesInteger(TdgValueKind kind) { return kind == TDG_KIND_INT64 || kind == TDG_KIND_BOOL; }

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

bool unhexed(const std::string& hex, std::string& out) {
    if (hex.size() % 2 != 0) return false;
    out.clear();
    out.reserve(hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2) {
        const int high = hexValue(hex[i]);
        const int low = hexValue(hex[i + 1]);
        if (high < 0 || low < 0) return false;
        out.push_back(static_cast<char>(high * 16 + low));
    }
    return true;
}

}  // namespace

ChunkKey ChunkKey::fromTexts(const std::vector<std::string>& texts, const KeySpec& key,
                             const std::string& stream) {
    const std::string where = "the snapshot of stream '" + stream + "' in the state";
    if (texts.size() != key.columns.size()) {
        throw StateError(where + " has a key of " + std::to_string(texts.size()) +
                         " values, the stream's key has " + std::to_string(key.columns.size()) +
                         " columns");
    }
    ChunkKey chunkKey;
    for (size_t c = 0; c < texts.size(); ++c) {
        const std::string& text = texts[c];
        Value value;
        value.kind = key.columns[c].kind;
        bool valid = true;
        if (carriesInteger(value.kind)) {
            auto parsed = std::from_chars(text.data(), text.data() + text.size(), value.i64);
            valid = parsed.ec == std::errc() && parsed.ptr == text.data() + text.size();
        } else if (value.kind == TDG_KIND_BYTES) {
            valid = unhexed(text, value.bytes);
        } else {
            value.bytes = text;
        }
        if (!valid) {
            throw StateError(where + " has '" + text + "' as the value of key column '" +
                             key.columns[c].name + "', which cannot hold it");
        }
        chunkKey.values_.push_back(std::move(value));
    }
    return chunkKey;
}

void ChunkKey::capture(const TdgCell* row, const std::vector<size_t>& keyPositions) {
    values_.resize(keyPositions.size());
    for (size_t c = 0; c < keyPositions.size(); ++c) {
        const TdgCell& cell = row[keyPositions[c]];
        Value& value = values_[c];
        value.kind = cell.kind;
        value.i64 = cell.i64;
        if (carriesInteger(cell.kind) || cell.kind == TDG_KIND_NULL) {
            value.bytes.clear();
        } else {
            value.bytes.assign(cell.data, static_cast<size_t>(cell.size));
        }
    }
}

std::vector<TdgCell> ChunkKey::cells() const {
    std::vector<TdgCell> cells;
    cells.reserve(values_.size());
    for (const Value& value : values_) {
        TdgCell cell{};
        cell.kind = value.kind;
        cell.i64 = value.i64;
        if (!carriesInteger(value.kind)) {
            cell.data = value.bytes.data();
            cell.size = value.bytes.size();
        }
        cells.push_back(cell);
    }
    return cells;
}

std::vector<std::string> ChunkKey::texts() const {
    std::vector<std::string> texts;
    texts.reserve(values_.size());
    for (const Value& value : values_) {
        std::string text;
        if (carriesInteger(value.kind)) {
            appendInt64(text, value.i64);
        } else if (value.kind == TDG_KIND_BYTES) {
            // appendHexString writes a JSON string: its quotes are not part of the text.
            appendHexString(text, value.bytes);
            text = text.substr(1, text.size() - 2);
        } else {
            text = value.bytes;
        }
        texts.push_back(std::move(text));
    }
    return texts;
}

std::string ChunkKey::display() const {
    std::string shown = "[";
    for (const std::string& text : texts()) {
        if (shown.size() > 1) shown += ", ";
        appendJsonString(shown, text);
    }
    return shown + "]";
}

}  // namespace tapdiffgen::core
