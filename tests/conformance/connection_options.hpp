// The live database, as TDG_CONFORMANCE_OPTIONS gives it: the tap settings a plugin's
// connect() receives.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tapdiffgen::conformance {

using OptionList = std::vector<std::pair<std::string, std::string>>;

/// Parses a JSON object into (key, text value) pairs the way the tap passes settings: strings
/// as they are, numbers and booleans in their JSON text. Adds sql_dialect when absent.
/// Throws std::invalid_argument when the text is not a JSON object of scalars.
OptionList parseConnectionOptions(const std::string& json, const std::string& dialect);

/// TDG_CONFORMANCE_OPTIONS parsed, or nullopt when it is not set.
std::optional<OptionList> connectionOptionsFromEnvironment(const std::string& dialect);

/// `base` with every key of `changes` replaced or added.
OptionList withOptions(OptionList base, const OptionList& changes);

}  // namespace tapdiffgen::conformance
