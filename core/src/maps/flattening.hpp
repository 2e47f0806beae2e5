// Schema flattening as the Meltano Singer SDK does it after the stream maps: properties declared
// as objects with properties are expanded into parent__child properties, flattening_max_depth
// levels deep; what stays nested (deeper objects, arrays, and the tap's open-schema JSON
// columns) is written as JSON text and declared as a string, so SCHEMA and RECORD agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "maps/value.hpp"

namespace tapdiffgen::core::maps {

struct OutputStream;

/// One property of a flattened record: where its value comes from and how it is written.
struct FlatProperty {
    std::string name;
    size_t source = 0;              // index of the output property it is read from
    std::vector<std::string> path;  // keys into that property's value ({} when it is the value)
    bool asJsonText = false;        // written as Python's json.dumps of the value
};

/// Flattens `stream` in place: its schema, and the plan of its record's properties.
/// Throws StreamMapError on a duplicate flattened name.
void flattenStream(OutputStream& stream, int64_t maxDepth);

}  // namespace tapdiffgen::core::maps
