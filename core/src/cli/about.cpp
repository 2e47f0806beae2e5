#include "cli/about.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <stdexcept>

#include "config/settings.hpp"
#include "util/joined.hpp"
#include "util/json_value.hpp"
#include "util/markdown_cell.hpp"

// The version and description are set once, in the top-level CMakeLists.txt.
#if !defined(TAP_DIFFGEN_VERSION) || !defined(TAP_DIFFGEN_DESCRIPTION)
#error "TAP_DIFFGEN_VERSION and TAP_DIFFGEN_DESCRIPTION must be defined by the build"
#endif

namespace tapdiffgen::core {

namespace {

constexpr const char* kName = "tap-diffgen";

std::string defaultText(const SettingSpec& spec) {
    return jsonvalue::scalarText(jsonvalue::parse(*spec.defaultJson));
}

std::string textSetting(const SettingSpec& spec) {
    std::string out = "  - Name: " + spec.name + "\n";
    out += "    Type: " + spec.type + "\n";
    out += "    Environment Variable: " + settingEnvVar(spec.name) + "\n";
    if (spec.required) out += "    Required: true\n";
    if (spec.defaultJson) out += "    Default: " + defaultText(spec) + "\n";
    if (!spec.allowed.empty()) out += "    Allowed Values: " + joined(spec.allowed, ", ") + "\n";
    if (spec.secret) out += "    Secret: true\n";
    if (!spec.dialects.empty()) out += "    Dialects: " + joined(spec.dialects, ", ") + "\n";
    out += "    Description: " + spec.description + "\n";
    return out;
}

std::string aboutAsText(const std::vector<SettingSpec>& pluginSettings) {
    std::string out = std::string("Name: ") + kName + "\n";
    out += std::string("Description: ") + TAP_DIFFGEN_DESCRIPTION + "\n";
    out += std::string("Version: ") + TAP_DIFFGEN_VERSION + "\n";
    out += "Capabilities:\n";
    for (const auto& capability : tapCapabilities()) out += "  - " + capability + "\n";
    out += "Settings:\n";
    for (const auto& spec : flatSettingSpecs()) out += textSetting(spec);
    for (const auto& spec : pluginSettings) out += textSetting(spec);
    return out;
}

std::string aboutAsJson(const std::vector<SettingSpec>& pluginSettings) {
    Poco::JSON::Object::Ptr about = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
    Poco::JSON::Array::Ptr capabilities = new Poco::JSON::Array;
    for (const auto& capability : tapCapabilities()) capabilities->add(capability);
    about->set("name", kName);
    about->set("description", TAP_DIFFGEN_DESCRIPTION);
    about->set("version", TAP_DIFFGEN_VERSION);
    about->set("capabilities", capabilities);
    about->set("settings", settingsJsonSchemaObject(pluginSettings));
    return jsonvalue::writePretty(about, 2) + "\n";
}

// Columns as the SDK fills them: Python's str() of the required flag and the default.
std::string markdownRow(const std::string& name, const SettingSpec& spec) {
    const std::string defaultCell =
        spec.defaultJson ? jsonvalue::pythonStr(jsonvalue::parse(*spec.defaultJson)) : "None";
    return "| " + name + " | " + (spec.required ? "True" : "False") + " | " +
           markdownCell(defaultCell) + " | " + markdownCell(spec.description) + " |\n";
}

std::string markdownSettingsTable(const std::vector<SettingSpec>& pluginSettings) {
    std::string out =
        "| Setting | Required | Default | Description |\n"
        "|:--------|:--------:|:-------:|:------------|\n";
    for (const auto& spec : flatSettingSpecs()) {
        out += markdownRow(spec.name, spec);
        if (spec.name != "tables") continue;
        for (const auto& key : tableSettingSpecs()) out += markdownRow("tables[]." + key.name, key);
    }
    for (SettingSpec spec : pluginSettings) {
        spec.description += " (" + joined(spec.dialects, ", ") + ")";
        out += markdownRow(spec.name, spec);
    }
    return out;
}

std::string aboutAsMarkdown(const std::vector<SettingSpec>& pluginSettings) {
    std::string out = std::string("# `") + kName + "`\n\n" + TAP_DIFFGEN_DESCRIPTION + "\n\n";
    out += "## Capabilities\n\n";
    for (const auto& capability : tapCapabilities()) out += "- `" + capability + "`\n";
    out += "\n## Settings\n\n" + markdownSettingsTable(pluginSettings) + "\n";
    out +=
        "With `--config ENV`, every setting can also be given as an environment variable "
        "named `TAP_DIFFGEN_` followed by the setting's name in upper case (for example "
        "`TAP_DIFFGEN_HOST`), in the environment or in a `.env` file in the working "
        "directory.\n\n";
    out += std::string(
               "A full list of supported settings and capabilities is available by "
               "running: `") +
           kName + " --about`\n";
    return out;
}

}  // namespace

const std::vector<std::string>& tapCapabilities() {
    static const std::vector<std::string> capabilities = {
        "catalog", "state",       "discover",          "about", "log-based",
        "test",    "stream-maps", "schema-flattening", "batch"};
    return capabilities;
}

std::string aboutText(const std::string& format, const std::vector<SettingSpec>& pluginSettings) {
    if (format == "text") return aboutAsText(pluginSettings);
    if (format == "json") return aboutAsJson(pluginSettings);
    if (format == "markdown") return aboutAsMarkdown(pluginSettings);
    throw std::invalid_argument("unknown --format '" + format +
                                "' (expected text, json or markdown)");
}

}  // namespace tapdiffgen::core
