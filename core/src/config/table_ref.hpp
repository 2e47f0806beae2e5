// A table as the user named it in the configuration: what the settings hold and every layer
// above them passes to the plugin.
#pragma once

#include <string>

namespace tapdiffgen::core {

/// schema empty means the session's default.
struct TableRef {
    std::string schema;
    std::string name;

    /// Splits "schema.table" at the first dot ("table" alone has no schema).
    static TableRef parse(const std::string& qualified);
    std::string display() const { return schema.empty() ? name : schema + "." + name; }
    bool operator==(const TableRef& other) const {
        return schema == other.schema && name == other.name;
    }
};

}  // namespace tapdiffgen::core
