// Where configuration values come from: --config files, the environment and `.env`.
#pragma once

#include <Poco/JSON/Object.h>

#include <map>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core {

/// One --config file as a JSON object (keys in file order). Throws ConfigError.
Poco::JSON::Object::Ptr readConfigFile(const std::string& path);

/// The TAP_DIFFGEN_<NAME> variables of the environment and of <workingDir>/.env, the
/// environment winning. The .env file is read once, when constructed: a missing one is fine;
/// statements that cannot be parsed are skipped with a warning. Throws ConfigError.
class EnvironmentSource {
public:
    EnvironmentSource(const std::string& workingDir, std::vector<std::string>& warnings);

    /// Every one of `specs` whose variable is set (and not empty), converted by the setting's
    /// type; a flat name ("ssh_tunnel.host") becomes a key of its object. Throws ConfigError.
    Poco::JSON::Object::Ptr settings(const std::vector<SettingSpec>& specs) const;

private:
    std::map<std::string, std::string> dotenv_;
};

/// Converts the text of one variable by the setting's type; text that does not convert stays
/// text. Throws ConfigError when an array or object setting is not valid JSON.
JsonValue convertEnvValue(const SettingSpec& spec, const std::string& text);

}  // namespace tapdiffgen::core
