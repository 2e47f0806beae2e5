#include "maps/stream_mapper.hpp"

#include <charconv>

#include "maps/value_json.hpp"
#include "singer/cell_json.hpp"
#include "singer/json_text.hpp"

namespace tapdiffgen::core::maps {

Value cellValue(const TdgCell& cell) {
    const std::string_view text(cell.data, static_cast<size_t>(cell.size));
    switch (cell.kind) {
        case TDG_KIND_BOOL:
            return Value::fromBool(cell.i64 != 0);
        case TDG_KIND_INT64:
            return Value::fromInt(cell.i64);
        case TDG_KIND_DECIMAL:
            if (cell.size == 0) return Value::null();
            return Value::fromDecimal(std::string(text));
        case TDG_KIND_JSON:
            if (cell.size == 0) return Value::null();
            return parseJsonValue(text);
        case TDG_KIND_BYTES: {
            std::string hex;
            appendHexString(hex, text);
            return Value::fromString(hex.substr(1, hex.size() - 2));
        }
        case TDG_KIND_TIMESTAMP:
            return Value::fromString(std::string(text) + "+00:00");
        case TDG_KIND_TEXT:
        case TDG_KIND_DATE:
        case TDG_KIND_TIME:
        case TDG_KIND_TIMESTAMPTZ:
            return Value::fromString(std::string(text));
        default:
            return Value::null();
    }
}

// The current record as expressions see it: each property converted once, when first read.
// Its buffers live as long as the mapper, so a row costs no allocation of its own.
class StreamMapper::Record : public RecordSource {
public:
    explicit Record(StreamMapper& mapper) : mapper_(mapper) {
        mapper_.valueReady_.assign(mapper_.cells_.size(), false);
        mapper_.recordReady_ = false;
    }

    const Value& property(size_t slot) override {
        if (!mapper_.valueReady_[slot]) {
            const TdgCell& cell = mapper_.cells_[slot];
            try {
                mapper_.values_[slot] = cellValue(cell);
            } catch (const EvalError&) {
                mapper_.values_[slot] = Value::fromString(std::string(cell.data, cell.size));
            }
            mapper_.valueReady_[slot] = true;
        }
        return mapper_.values_[slot];
    }

    const Value& record() override {
        if (!mapper_.recordReady_) {
            ValueDict entries;
            entries.reserve(mapper_.cells_.size());
            for (size_t i = 0; i < mapper_.cells_.size(); ++i) {
                entries.emplace_back(Value::fromString(mapper_.names_[i]), property(i));
            }
            mapper_.record_ = Value::dict(std::move(entries));
            mapper_.recordReady_ = true;
        }
        return mapper_.record_;
    }

private:
    StreamMapper& mapper_;
};

StreamMapper::StreamMapper(SourceStream source, std::vector<OutputStream> outputs,
                           InputLayout layout)
    : source_(std::move(source)),
      names_(propertyNames(*source_.schema)),
      outputs_(std::move(outputs)),
      layout_(layout) {
    cells_.resize(layout_.columnCount + (layout_.addDeletedAt ? 3 : 2));
    values_.resize(cells_.size());
    for (const auto& output : outputs_) {
        std::vector<std::string> names;
        if (output.flattened) {
            for (const auto& property : output.flat) names.push_back(property.name);
        } else {
            for (const auto& property : output.properties) names.push_back(property.name);
        }
        std::vector<std::string> prefixes;
        for (const auto& name : names) {
            std::string prefix = prefixes.empty() ? "" : ",";
            appendJsonString(prefix, name);
            prefix.push_back(':');
            prefixes.push_back(std::move(prefix));
        }
        prefixes_.push_back(std::move(prefixes));
    }
}

namespace {

TdgCell textCell(std::string_view text) {
    TdgCell cell{};
    cell.kind = TDG_KIND_TEXT;
    cell.data = text.data();
    cell.size = text.size();
    return cell;
}

TdgCell boolCell(bool value) {
    TdgCell cell{};
    cell.kind = TDG_KIND_BOOL;
    cell.i64 = value ? 1 : 0;
    return cell;
}

}  // namespace

uint64_t StreamMapper::emitRow(RecordSink& writer, const TdgCell* cells, std::string_view tsCreated,
                               std::string_view timeExtracted) {
    std::copy(cells, cells + layout_.columnCount, cells_.begin());
    cells_[layout_.columnCount] = boolCell(false);
    cells_[layout_.columnCount + 1] = textCell(tsCreated);
    if (layout_.addDeletedAt) cells_[layout_.columnCount + 2] = TdgCell{};
    return emit(writer, false, timeExtracted);
}

namespace {

// A key column's cell from its normalised text, as the renderer writes a tombstone's key.
TdgCell keyCell(TdgValueKind kind, std::string_view text) {
    TdgCell key = textCell(text);
    int64_t number = 0;
    if (kind == TDG_KIND_INT64 &&
        std::from_chars(text.data(), text.data() + text.size(), number).ec == std::errc()) {
        key.kind = TDG_KIND_INT64;
        key.i64 = number;
    } else if (kind == TDG_KIND_DECIMAL || kind == TDG_KIND_INT64) {
        key.kind = TDG_KIND_DECIMAL;
    }
    return key;
}

}  // namespace

uint64_t StreamMapper::emitTombstone(RecordSink& writer, const RowKey& key,
                                     std::string_view tsCreated, std::string_view deletedAt,
                                     std::string_view timeExtracted) {
    std::fill(cells_.begin(), cells_.end(), TdgCell{});
    for (size_t k = 0; k < layout_.keySlots.size(); ++k) {
        const InputLayout::KeySlot& column = layout_.keySlots[k];
        cells_[column.slot] = keyCell(column.kind, key.column(k));
    }
    cells_[layout_.columnCount] = boolCell(true);
    cells_[layout_.columnCount + 1] = textCell(tsCreated);
    if (layout_.addDeletedAt) cells_[layout_.columnCount + 2] = textCell(deletedAt);
    return emit(writer, true, timeExtracted);
}

void StreamMapper::failOn(const OutputStream& output, const std::string& property,
                          const std::string& expression, const std::string& problem) const {
    std::string key;
    for (const InputLayout::KeySlot& column : layout_.keySlots) {
        if (!key.empty()) key += ",";
        key += names_[column.slot] + "=";
        appendCellJson(key, cells_[column.slot]);
    }
    failExpression(output.name, property, key, expression, problem);
}

void StreamMapper::writeFlattened(RecordSink& writer, const OutputStream& output,
                                  const std::vector<std::string>& prefixes, RecordSource& record,
                                  std::string_view timeExtracted) {
    static const Value kNull;
    std::string& out = writer.beginRecord(output.name);
    for (size_t f = 0; f < output.flat.size(); ++f) {
        out += prefixes[f];
        const FlatProperty& flat = output.flat[f];
        const OutputProperty& property = output.properties[flat.source];
        if (flat.path.empty() && !flat.asJsonText && property.passthrough) {
            appendCellJson(out, cells_[*property.passthrough]);
            continue;
        }
        const Value* value = property.passthrough ? &record.property(*property.passthrough)
                                                  : &computed_[flat.source];
        for (const auto& key : flat.path) {
            const Value* child = &kNull;
            if (value->type == ValueType::Dict) {
                for (const auto& entry : *value->entries) {
                    if (entry.first.type == ValueType::String && entry.first.text == key) {
                        child = &entry.second;
                    }
                }
            }
            value = child;
        }
        // A value left nested is written as its JSON text, as the SDK's flattening does.
        const bool nested = value->type == ValueType::Dict || value->type == ValueType::List ||
                            value->type == ValueType::Tuple;
        if ((flat.asJsonText && !value->isNull()) || nested) {
            jsonText_.clear();
            appendJson(jsonText_, *value, JsonLayout::PythonDumps);
            appendJsonString(out, jsonText_);
        } else {
            appendJson(out, *value, JsonLayout::Record);
        }
    }
    writer.endRecord(timeExtracted);
}

uint64_t StreamMapper::emit(RecordSink& writer, bool deleted, std::string_view timeExtracted) {
    uint64_t written = 0;
    Record record(*this);
    for (size_t o = 0; o < outputs_.size(); ++o) {
        const OutputStream& output = outputs_[o];
        // Deletes are never filtered out: a target must see them whatever the filter says.
        if (output.filter && !deleted) {
            bool keep = false;
            try {
                keep = truthy(output.filter->evaluate(record));
            } catch (const EvalError& e) {
                failOn(output, "__filter__", output.filterText, e.what());
            }
            if (!keep) continue;
        }
        computed_.resize(output.properties.size());
        for (size_t p = 0; p < output.properties.size(); ++p) {
            const OutputProperty& property = output.properties[p];
            if (property.passthrough) continue;
            try {
                computed_[p] = property.expression->evaluate(record);
            } catch (const EvalError& e) {
                failOn(output, property.name, property.expressionText, e.what());
            }
        }
        if (output.flattened) {
            writeFlattened(writer, output, prefixes_[o], record, timeExtracted);
            ++written;
            continue;
        }
        std::string& out = writer.beginRecord(output.name);
        const auto& prefixes = prefixes_[o];
        for (size_t p = 0; p < output.properties.size(); ++p) {
            out += prefixes[p];
            const OutputProperty& property = output.properties[p];
            if (property.passthrough) {
                appendCellJson(out, cells_[*property.passthrough]);
            } else {
                appendJson(out, computed_[p], JsonLayout::Record);
            }
        }
        writer.endRecord(timeExtracted);
        ++written;
    }
    return written;
}

}  // namespace tapdiffgen::core::maps
