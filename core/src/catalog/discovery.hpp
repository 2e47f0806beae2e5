// Turns the configured tables into stream definitions by asking the driver for each table's
// columns. Every problem is found here, before any output: a missing table, a pk_column that is
// not a column of it.
#pragma once

#include <stdexcept>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

/// A configured table that cannot be streamed; what() names the table and the setting.
class DiscoveryError : public TapError {
public:
    explicit DiscoveryError(const std::string& message)
        : TapError(ErrorKind::Configuration, message) {}
};

std::vector<StreamDefinition> discoverStreams(DialectConnection& connection,
                                              const TapConfig& config);

}  // namespace tapdiffgen::core
