#include "config/settings_reference.hpp"

#include "config/settings.hpp"
#include "util/joined.hpp"
#include "util/json_value.hpp"
#include "util/markdown_cell.hpp"

namespace tapdiffgen::core {

namespace {

std::string code(const std::string& text) { return "`" + text + "`"; }

std::string defaultCell(const SettingSpec& spec) {
    if (spec.required) return "required";
    if (!spec.defaultJson) return "—";
    const JsonValue value = jsonvalue::parse(*spec.defaultJson);
    return value.isEmpty() ? "—" : code(jsonvalue::scalarText(value));
}

std::string boundsCell(const SettingSpec& spec) {
    if (!spec.allowed.empty()) {
        std::vector<std::string> values;
        for (const auto& value : spec.allowed) values.push_back(code(value));
        return joined(values, ", ");
    }
    if (spec.minimum && spec.maximum) {
        return std::to_string(*spec.minimum) + "–" + std::to_string(*spec.maximum);
    }
    if (spec.minimum) return "≥ " + std::to_string(*spec.minimum);
    return "";
}

std::string typeCell(const SettingSpec& spec) {
    std::string type = spec.orStringList ? spec.type + " or list" : spec.type;
    return spec.secret ? type + ", secret" : type;
}

std::string row(const std::string& name, const SettingSpec& spec, const std::string& variable) {
    return "| " + code(name) + " | " + typeCell(spec) + " | " + defaultCell(spec) + " | " +
           boundsCell(spec) + " | " + spec.appliesTo + " | " + variable + " | " +
           markdownCell(spec.description) + " |\n";
}

}  // namespace

std::string settingsReferenceMarkdown() {
    std::string out =
        "# Settings\n\n"
        "Every setting of the tap, written from the descriptors of `core/src/config/settings.cpp` "
        "by `build/bin/tdg-settings-reference > docs/settings.md` (the test "
        "`docs.settings_reference` fails when this file differs). A setting comes from the "
        "`--config` files and, with `--config ENV`, from its environment variable or `.env`; "
        "the keys of a `tables` entry only from the files. *Applies to* names the part of the "
        "run that reads it (`connection`: the dialect plugin's connection). The README's table "
        "says more of each; each dialect plugin's README describes the settings it adds.\n\n"
        "| setting | type | default | bounds | applies to | environment variable | "
        "description |\n"
        "|---|---|---|---|---|---|---|\n";
    for (const auto& spec : flatSettingSpecs()) {
        out += row(spec.name, spec, code(settingEnvVar(spec.name)));
        if (spec.name != "tables") continue;
        for (const auto& key : tableSettingSpecs()) out += row("tables[]." + key.name, key, "—");
    }
    return out;
}

}  // namespace tapdiffgen::core
