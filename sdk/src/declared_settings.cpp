#include "tap-diffgen/sdk/declared_settings.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "tap-diffgen/sdk/errors.hpp"

namespace tapdiffgen::sdk {
namespace {

std::string joined(const std::vector<std::string>& values) {
    std::string out;
    for (const auto& value : values) out += (out.empty() ? "" : ", ") + value;
    return out;
}

std::string quotedValue(const Setting& setting, const std::string& text) {
    return setting.secret ? std::string("the value given") : "'" + text + "'";
}

[[noreturn]] void refuse(const Setting& setting, const std::string& expectation,
                         const std::string& text) {
    throw invalidArgument("setting '" + setting.name + "' must be " + expectation + " (got " +
                          quotedValue(setting, text) + ")");
}

std::string boundsText(const Setting& setting) {
    if (setting.minimum && setting.maximum) {
        return " between " + std::to_string(*setting.minimum) + " and " +
               std::to_string(*setting.maximum);
    }
    if (setting.minimum) return " of at least " + std::to_string(*setting.minimum);
    if (setting.maximum) return " of at most " + std::to_string(*setting.maximum);
    return "";
}

template <typename Number>
void checkBounds(const Setting& setting, Number value, const std::string& what,
                 const std::string& text) {
    if ((setting.minimum && value < static_cast<Number>(*setting.minimum)) ||
        (setting.maximum && value > static_cast<Number>(*setting.maximum))) {
        refuse(setting, what + boundsText(setting), text);
    }
}

void checkValue(const Setting& setting, const std::string& text) {
    switch (setting.type) {
        case SettingType::String:
            if (setting.allowed.empty()) return;
            for (const auto& allowed : setting.allowed) {
                if (text == allowed) return;
            }
            refuse(setting, "one of " + joined(setting.allowed), text);
        case SettingType::Integer: {
            int64_t value = 0;
            const auto end = text.data() + text.size();
            const auto parsed = std::from_chars(text.data(), end, value);
            if (text.empty() || parsed.ec != std::errc() || parsed.ptr != end) {
                refuse(setting, "an integer" + boundsText(setting), text);
            }
            checkBounds(setting, value, "an integer", text);
            return;
        }
        case SettingType::Number: {
            char* end = nullptr;
            const double value = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value)) {
                refuse(setting, "a number" + boundsText(setting), text);
            }
            checkBounds(setting, value, "a number", text);
            return;
        }
        case SettingType::Boolean:
            if (text != "true" && text != "false") refuse(setting, "true or false", text);
            return;
    }
}

TdgSettingDeclaration declarationOf(const Setting& setting, const char* const* allowed) {
    TdgSettingDeclaration declaration{};
    declaration.struct_size = TDG_SETTING_DECLARATION_SIZE_4;
    declaration.type = static_cast<TdgSettingType>(setting.type);
    declaration.name = setting.name.c_str();
    declaration.description = setting.description.c_str();
    declaration.default_json = setting.defaultJson ? setting.defaultJson->c_str() : nullptr;
    declaration.allowed = allowed;
    declaration.minimum = setting.minimum.value_or(0);
    declaration.maximum = setting.maximum.value_or(0);
    declaration.has_minimum = setting.minimum ? 1 : 0;
    declaration.has_maximum = setting.maximum ? 1 : 0;
    declaration.secret = setting.secret ? 1 : 0;
    return declaration;
}

}  // namespace

DeclaredSettings::DeclaredSettings(std::vector<Setting> settings) : settings_(std::move(settings)) {
    // Every vector is filled before any pointer into it is taken.
    allowedLists_.resize(settings_.size());
    for (std::size_t i = 0; i < settings_.size(); ++i) {
        for (const auto& value : settings_[i].allowed) allowedLists_[i].push_back(value.c_str());
        allowedLists_[i].push_back(nullptr);
    }
    for (std::size_t i = 0; i < settings_.size(); ++i) {
        const bool anyString = settings_[i].allowed.empty();
        declarations_.push_back(
            declarationOf(settings_[i], anyString ? nullptr : allowedLists_[i].data()));
    }
    table_.clear();
    for (const auto& declaration : declarations_) table_.push_back(&declaration);
    table_.push_back(nullptr);
}

const Setting* DeclaredSettings::find(const std::string& name) const {
    for (const auto& setting : settings_) {
        if (setting.name == name) return &setting;
    }
    return nullptr;
}

void DeclaredSettings::check(const ConnectOptions& options) const {
    for (const auto& setting : settings_) {
        if (options.has(setting.name)) checkValue(setting, options.get(setting.name));
    }
}

std::vector<Setting> tlsSettings(std::vector<std::string> modes, const std::string& defaultMode) {
    std::vector<Setting> settings;
    settings.push_back(
        Setting("ssl_mode", SettingType::String, "TLS mode of the connection to the database.")
            .oneOf(std::move(modes))
            .byDefault("\"" + defaultMode + "\""));
    settings.emplace_back("ssl_root_cert", SettingType::String,
                          "Path of the CA certificate file the server certificate is verified "
                          "against.");
    settings.emplace_back("ssl_cert", SettingType::String, "Path of the client certificate file.");
    settings.emplace_back("ssl_key", SettingType::String,
                          "Path of the client certificate's private key file.");
    return settings;
}

}  // namespace tapdiffgen::sdk
