#include "config/config_sources.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>

#include "config/dotenv.hpp"
#include "config/tap_config.hpp"
#include "util/json_value.hpp"

namespace tapdiffgen::core {

namespace {

using Poco::JSON::Object;

/// The whole file, or nullopt with errno set.
std::optional<std::string> readWholeFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            const int error = errno;
            ::close(fd);
            errno = error;
            return std::nullopt;
        }
        content.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return content;
}

std::string withoutBom(const std::string& text) {
    return text.rfind("\xEF\xBB\xBF", 0) == 0 ? text.substr(3) : text;
}

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::string lowered(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::optional<std::int64_t> parseInteger(const std::string& text) {
    std::string digits = trimmed(text);
    if (!digits.empty() && digits[0] == '+') digits.erase(0, 1);
    std::int64_t value = 0;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || result.ec != std::errc() || result.ptr != digits.data() + digits.size()) {
        return std::nullopt;
    }
    return value;
}

std::optional<double> parseNumber(const std::string& text) {
    std::string digits = trimmed(text);
    if (!digits.empty() && digits[0] == '+') digits.erase(0, 1);
    double value = 0;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || result.ec != std::errc() || result.ptr != digits.data() + digits.size() ||
        !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::optional<bool> parseBoolean(const std::string& text) {
    const std::string word = lowered(trimmed(text));
    if (word == "true" || word == "1" || word == "yes" || word == "on") return true;
    if (word == "false" || word == "0" || word == "no" || word == "off") return false;
    return std::nullopt;
}

std::map<std::string, std::string> readDotenvFile(const std::string& path,
                                                  std::vector<std::string>& warnings) {
    const auto content = readWholeFile(path);
    if (!content) {
        if (errno == ENOENT) return {};
        throw ConfigError("cannot read .env file '" + path + "': " + std::strerror(errno));
    }
    const DotenvContents parsed = parseDotenv(*content);
    for (const int line : parsed.badLines) {
        warnings.push_back("could not parse the statement starting at line " +
                           std::to_string(line) + " of '" + path + "'");
    }
    std::map<std::string, std::string> values;
    for (const auto& [key, value] : parsed.values) values[key] = value;  // the last one counts
    return values;
}

// "ssh_tunnel.host" goes to key host of the object ssh_tunnel, as Meltano nests it.
void setFlat(Object& config, const std::string& name, const JsonValue& value) {
    const auto dot = name.find('.');
    if (dot == std::string::npos) {
        config.set(name, value);
        return;
    }
    const std::string objectName = name.substr(0, dot);
    if (!config.has(objectName))
        config.set(objectName, Object::Ptr(new Object(Poco::JSON_PRESERVE_KEY_ORDER)));
    config.getObject(objectName)->set(name.substr(dot + 1), value);
}

}  // namespace

Object::Ptr readConfigFile(const std::string& path) {
    const auto content = readWholeFile(path);
    if (!content) {
        throw ConfigError("cannot read config file '" + path + "': " + std::strerror(errno));
    }
    JsonValue parsed;
    try {
        parsed = jsonvalue::parse(withoutBom(*content));
    } catch (const jsonvalue::JsonSyntaxError& e) {
        throw ConfigError("config file '" + path + "' is not valid JSON: " + e.what());
    }
    if (jsonvalue::kindOf(parsed) != jsonvalue::Kind::Object) {
        throw ConfigError("config file '" + path + "' must contain a JSON object");
    }
    return parsed.extract<Object::Ptr>();
}

JsonValue convertEnvValue(const SettingSpec& spec, const std::string& text) {
    if (spec.type == "integer") {
        if (const auto value = parseInteger(text)) return *value;
    } else if (spec.type == "number") {
        if (const auto value = parseNumber(text)) return *value;
    } else if (spec.type == "boolean") {
        if (const auto value = parseBoolean(text)) return *value;
    } else if (spec.type == "array" || spec.type == "object") {
        try {
            return jsonvalue::parse(text);
        } catch (const jsonvalue::JsonSyntaxError& e) {
            throw ConfigError("environment variable " + settingEnvVar(spec.name) +
                              " is not valid JSON: " + e.what());
        }
    }
    return text;
}

EnvironmentSource::EnvironmentSource(const std::string& workingDir,
                                     std::vector<std::string>& warnings)
    : dotenv_(readDotenvFile((workingDir.empty() ? std::string(".") : workingDir) + "/.env",
                             warnings)) {}

Object::Ptr EnvironmentSource::settings(const std::vector<SettingSpec>& specs) const {
    Object::Ptr config = new Object(Poco::JSON_PRESERVE_KEY_ORDER);
    for (const auto& spec : specs) {
        const std::string variable = settingEnvVar(spec.name);
        std::string text;
        if (const char* fromEnvironment = std::getenv(variable.c_str())) {
            text = fromEnvironment;
        } else if (const auto it = dotenv_.find(variable); it != dotenv_.end()) {
            text = it->second;
        }
        if (!text.empty()) setFlat(*config, spec.name, convertEnvValue(spec, text));
    }
    return config;
}

}  // namespace tapdiffgen::core
