#include "replay/output/schema_watch.hpp"

#include <algorithm>
#include <chrono>

#include "catalog/stream_change.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

// How long a table that is missing is waited for before the run stops.
constexpr std::chrono::seconds kMissingTableWait{10};

}  // namespace

bool SchemaWatch::refresh(const std::vector<StreamChannel*>& streams) {
    if (streams.empty()) return false;
    std::vector<std::vector<ColumnDescription>> described = describe(streams);
    bool changed = false;
    for (size_t i = 0; i < streams.size(); ++i) {
        if (describesSameColumns(*streams[i]->definition, described[i])) continue;
        apply(*streams[i], std::move(described[i]));
        changed = true;
    }
    return changed;
}

std::vector<std::vector<ColumnDescription>> SchemaWatch::describe(
    const std::vector<StreamChannel*>& streams) {
    std::vector<TableRef> tables;
    tables.reserve(streams.size());
    for (const StreamChannel* stream : streams) tables.push_back(stream->definition->table);
    const auto deadline = std::chrono::steady_clock::now() + kMissingTableWait;
    std::chrono::milliseconds wait{50};
    for (bool warned = false;; warned = true) {
        try {
            return connection_.describeTables(tables);
        } catch (const DialectError& failure) {
            if (failure.status() != TDG_NOT_FOUND) throw;
            if (!warned) {
                log::warning(std::string(failure.what()) + "; waiting up to " +
                             std::to_string(kMissingTableWait.count()) +
                             " s for it to be created again");
            }
            if (std::chrono::steady_clock::now() >= deadline || !clock_.sleepFor(wait)) {
                throw SchemaChangeError(std::string(failure.what()) +
                                        " (dropped while the tap ran, and not there again after " +
                                        std::to_string(kMissingTableWait.count()) +
                                        " s); remove it from tables, or create it, and run again");
            }
            wait = std::min(wait * 2, std::chrono::milliseconds(1000));
        }
    }
}

void SchemaWatch::apply(StreamChannel& stream, std::vector<ColumnDescription> columns) {
    auto changed = std::make_shared<const StreamDefinition>(
        withColumns(*stream.definition, std::move(columns)));
    const std::string what = changeText(*stream.definition, *changed);
    const std::vector<SchemaMessage> before = stream.output->schemas();
    outputs_.assign(stream, std::move(changed));
    // Only the outputs whose schema changed: a map that leaves the new column out has nothing
    // new to say.
    std::vector<SchemaMessage> renewed = stream.output->schemas();
    std::erase_if(renewed, [&](const SchemaMessage& schema) {
        return std::find(before.begin(), before.end(), schema) != before.end();
    });
    log::info("stream '" + stream.definition->name + "': table '" + stream.definition->tableName +
              "' changed (" + what + ")" +
              (renewed.empty() ? "; its SCHEMA stays as it was" : "; a new SCHEMA follows"));
    for (const SchemaMessage& schema : renewed) {
        writer_.writeSchema(schema.stream, schema.schemaJson, schema.keyProperties);
    }
}

}  // namespace tapdiffgen::core
