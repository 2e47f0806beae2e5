// --about: what the tap is, what it can do and which settings it takes, in the shapes a
// Meltano-SDK tap prints. Generated from the settings catalogue; never shows a configured value.
#pragma once

#include <string>
#include <vector>

#include "config/settings.hpp"

namespace tapdiffgen::core {

/// The capabilities --about reports, in the SDK's order.
const std::vector<std::string>& tapCapabilities();

/// The --about output for format "text", "json" or "markdown", ending in a newline, with the
/// settings of the installed dialect plugins after the tap's own.
/// Throws std::invalid_argument("unknown --format 'x' (expected text, json or markdown)").
std::string aboutText(const std::string& format, const std::vector<SettingSpec>& pluginSettings);

}  // namespace tapdiffgen::core
