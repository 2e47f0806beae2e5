// Where configuration values come from: --config files, the environment and `.env`.
#pragma once

#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Object.h>

#include <string>
#include <vector>

#include "config/settings.hpp"

namespace tapdiffgen::core {

/// One --config file as a JSON object (keys in file order). Throws ConfigError.
Poco::JSON::Object::Ptr readConfigFile(const std::string& path);

/// Every setting whose TAP_DIFFGEN_<NAME> variable is set (and not empty) in the environment
/// or in <workingDir>/.env, the environment winning, converted by the setting's type. A
/// missing .env is fine; .env statements that cannot be parsed are skipped with a warning.
/// Throws ConfigError.
Poco::JSON::Object::Ptr readEnvironmentConfig(const std::string& workingDir,
                                              std::vector<std::string>& warnings);

/// Converts the text of one variable by the setting's type; text that does not convert stays
/// text. Throws ConfigError when an array or object setting is not valid JSON.
Poco::Dynamic::Var convertEnvValue(const SettingSpec& spec, const std::string& text);

}  // namespace tapdiffgen::core
