// The settings a plugin adds to the tap's configuration, declared once: the host validates and
// documents them from the info block (TdgPluginInfo.settings, ABI revision 4), and the
// connect trampoline checks the options against the same declarations before the driver sees
// them, so the tap and the driver can never disagree on what a setting accepts.
//
//     const DeclaredSettings& MyDriver::declaredSettings() {
//         static const DeclaredSettings settings({
//             Setting("mydb_role", SettingType::String, "Role to assume after login."),
//             Setting("mydb_fetch_rows", SettingType::Integer, "Rows per round trip.")
//                 .byDefault("1000").atLeast(1).atMost(100000),
//         });
//         return settings;
//     }
//
// Since ABI revision 4.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tap-diffgen/dialect_abi.h"
#include "tap-diffgen/sdk/types.hpp"

namespace tapdiffgen::sdk {

enum class SettingType : int32_t {
    String = TDG_SETTING_STRING,
    Integer = TDG_SETTING_INTEGER,
    Number = TDG_SETTING_NUMBER,
    Boolean = TDG_SETTING_BOOLEAN,
};

/// One declared setting; the builder methods read like the catalogue they make.
struct Setting {
    Setting(std::string name, SettingType type, std::string description)
        : name(std::move(name)), type(type), description(std::move(description)) {}

    /// JSON text of the value the driver uses when the setting is not given.
    Setting& byDefault(std::string json) {
        defaultJson = std::move(json);
        return *this;
    }
    Setting& oneOf(std::vector<std::string> values) {
        allowed = std::move(values);
        return *this;
    }
    Setting& atLeast(int64_t value) {
        minimum = value;
        return *this;
    }
    Setting& atMost(int64_t value) {
        maximum = value;
        return *this;
    }
    Setting& secretValue() {
        secret = true;
        return *this;
    }

    std::string name;
    SettingType type;
    std::string description;
    std::optional<std::string> defaultJson;
    std::vector<std::string> allowed;  ///< empty: any string
    std::optional<int64_t> minimum;
    std::optional<int64_t> maximum;
    bool secret = false;
};

/// A plugin's declarations and the C table that publishes them. Keep one instance for the
/// life of the plugin (a function-local static): the table points into it.
class DeclaredSettings {
public:
    DeclaredSettings() = default;
    explicit DeclaredSettings(std::vector<Setting> settings);
    DeclaredSettings(const DeclaredSettings&) = delete;
    DeclaredSettings& operator=(const DeclaredSettings&) = delete;

    const std::vector<Setting>& settings() const { return settings_; }
    const Setting* find(const std::string& name) const;

    /// The NULL-terminated list for TdgPluginInfo.settings.
    const TdgSettingDeclaration* const* table() const { return table_.data(); }

    /// Every declared setting present in `options` holds a value its declaration accepts;
    /// otherwise throws DriverError(TDG_INVALID_ARGUMENT): "setting 'ssl_mode' must be one of
    /// disable, prefer (got 'x')". A secret's value is never shown.
    void check(const ConnectOptions& options) const;

private:
    std::vector<Setting> settings_;
    std::vector<std::vector<const char*>> allowedLists_;
    std::vector<TdgSettingDeclaration> declarations_;
    std::vector<const TdgSettingDeclaration*> table_{nullptr};
};

/// The settings of a TLS connection as every TCP dialect names them (ssl_mode, ssl_root_cert,
/// ssl_cert, ssl_key), with the modes this dialect accepts and the one it uses by default.
std::vector<Setting> tlsSettings(std::vector<std::string> modes, const std::string& defaultMode);

}  // namespace tapdiffgen::sdk
