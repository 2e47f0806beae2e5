// Three views of the settings must agree: what `tap-diffgen --about` prints (names, defaults,
// descriptions, bounds), the settings table of README.md, and what the parser accepts and
// refuses. All three come from the catalogue's descriptors (config/settings.cpp); the README
// is written by hand, so this is what keeps it from drifting.
#include <doctest/doctest.h>

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/tap_config.hpp"
#include "util/json_value.hpp"

using namespace tapdiffgen::core;

namespace {

using Poco::JSON::Object;

std::string tapOutput(const std::string& arguments) {
    const std::string command = std::string(TDG_TAP_BINARY) + " " + arguments + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        out.append(buffer, n);
    REQUIRE(::pclose(pipe) == 0);
    return out;
}

/// One setting as a view states it; a missing default is nullopt.
struct Stated {
    std::optional<std::string> defaultText;
    std::string description;
    bool secret = false;
};

/// The tap's own settings from `tap-diffgen --about` (text), plugins' settings left out.
std::map<std::string, Stated> aboutSettings() {
    std::istringstream lines(tapOutput("--about"));
    std::map<std::string, Stated> settings;
    std::string name;
    bool inSettings = false;
    bool pluginSetting = false;
    const auto flush = [&] {
        if (!name.empty() && pluginSetting) settings.erase(name);
    };
    for (std::string line; std::getline(lines, line);) {
        if (line == "Settings:") inSettings = true;
        if (!inSettings) continue;
        if (line.rfind("  - Name: ", 0) == 0) {
            flush();
            name = line.substr(10);
            pluginSetting = false;
            settings[name];
        } else if (line.rfind("    Default: ", 0) == 0) {
            settings[name].defaultText = line.substr(13);
        } else if (line.rfind("    Description: ", 0) == 0) {
            settings[name].description = line.substr(17);
        } else if (line == "    Secret: true") {
            settings[name].secret = true;
        } else if (line.rfind("    Dialects: ", 0) == 0) {
            pluginSetting = true;
        }
    }
    flush();
    return settings;
}

std::string readReadme() {
    std::ifstream in(TDG_README_PATH, std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> cells(const std::string& row) {
    std::vector<std::string> out;
    std::string cell;
    for (std::size_t i = 1; i < row.size(); ++i) {
        if (row[i] == '|' && row[i - 1] != '\\') {
            const auto first = cell.find_first_not_of(' ');
            const auto last = cell.find_last_not_of(' ');
            out.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
            cell.clear();
        } else {
            cell += row[i];
        }
    }
    return out;
}

/// "a, b (x, y), c" -> {"a", "b (x, y)", "c"}: commas inside parentheses do not split.
std::vector<std::string> topLevelItems(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (depth == 0 && c == ',' && i + 1 < text.size() && text[i + 1] == ' ') {
            items.push_back(item);
            item.clear();
            ++i;
            continue;
        }
        item += c;
    }
    items.push_back(item);
    return items;
}

std::vector<std::string> codeNames(const std::string& text) {
    std::vector<std::string> names;
    static const std::regex code("`([a-z_]+)`");
    for (std::sregex_iterator it(text.begin(), text.end(), code), end; it != end; ++it) {
        names.push_back((*it)[1]);
    }
    return names;
}

/// "`diffgen`" -> "diffgen", "0 (no limit)" -> "0", "— (required)" -> nullopt.
std::optional<std::string> readmeDefault(std::string text) {
    if (const auto paren = text.find(" ("); paren != std::string::npos) text.erase(paren);
    if (text == "—") return std::nullopt;
    if (text.size() >= 2 && text.front() == '`' && text.back() == '`') {
        text = text.substr(1, text.size() - 2);
    }
    return text;
}

/// The README's settings table (## Configuration), `ssh_tunnel`'s keys as ssh_tunnel.<key>,
/// and the keys its `tables` row lists.
struct ReadmeTable {
    std::map<std::string, Stated> settings;
    std::vector<std::string> tableKeys;
};

// An object row's keys: "object: `enable` (false), `host`, `private_key` (secret), ...; see".
void readObjectKeys(const std::string& object, const std::string& meaning, ReadmeTable& table) {
    std::string list = meaning.substr(std::string("object: ").size());
    list.erase(list.find(';'));
    for (const auto& item : topLevelItems(list)) {
        const auto names = codeNames(item);
        REQUIRE_MESSAGE(names.size() == 1, "README: ", object, " key '", item, "'");
        Stated& key = table.settings[object + "." + names[0]];
        static const std::regex annotated("`[a-z_]+` \\((.*)\\)");
        std::smatch match;
        if (!std::regex_match(item, match, annotated)) continue;
        if (match[1] == "secret") {
            key.secret = true;
        } else {
            key.defaultText = match[1];
        }
    }
}

ReadmeTable readmeTable() {
    std::istringstream lines(readReadme());
    ReadmeTable table;
    bool inSection = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("## ", 0) == 0) inSection = line == "## Configuration";
        if (!inSection || line.rfind("| `", 0) != 0) continue;
        const auto row = cells(line);
        REQUIRE_MESSAGE(row.size() == 3, "README row: ", line);
        const auto names = codeNames(row[0]);
        const auto defaults = topLevelItems(row[1]);
        REQUIRE_MESSAGE((defaults.size() == names.size() || defaults.size() == 1),
                        "README row: ", line, ": one default, or one per setting");
        CHECK_MESSAGE(!row[2].empty(), "README row without a meaning: ", line);
        for (std::size_t i = 0; i < names.size(); ++i) {
            Stated& setting = table.settings[names[i]];
            setting.defaultText = readmeDefault(defaults[defaults.size() == 1 ? 0 : i]);
            setting.description = row[2];
        }
        if (row[2].rfind("object: ", 0) == 0) {
            REQUIRE(names.size() == 1);
            table.settings.erase(names[0]);
            readObjectKeys(names[0], row[2], table);
        }
        if (names == std::vector<std::string>{"tables"}) {
            static const std::regex keyList("\\{(\"[a-z_]+\"(, )?)+\\}");
            std::smatch match;
            REQUIRE(std::regex_search(row[2], match, keyList));
            static const std::regex quoted("\"([a-z_]+)\"");
            const std::string list = match[0];
            for (std::sregex_iterator it(list.begin(), list.end(), quoted), end; it != end; ++it) {
                table.tableKeys.push_back((*it)[1]);
            }
        }
    }
    return table;
}

Object::Ptr aboutJsonSettings() {
    Poco::JSON::Parser parser;
    const auto about = parser.parse(tapOutput("--about --format json")).extract<Object::Ptr>();
    return about->getObject("settings");
}

std::string shown(const std::optional<std::string>& defaultText) {
    return defaultText ? "default " + *defaultText : "no default";
}

std::set<std::string> namesOf(const std::map<std::string, Stated>& settings) {
    std::set<std::string> names;
    for (const auto& [name, setting] : settings) names.insert(name);
    return names;
}

std::string minimalConfigWith(const std::string& name, const std::string& valueJson) {
    std::string config =
        R"({"sql_dialect":"postgres","tables":[{"table_name":"a","pk_column":"id"}])";
    if (const auto dot = name.find('.'); dot != std::string::npos) {
        config +=
            ",\"" + name.substr(0, dot) + "\":{\"" + name.substr(dot + 1) + "\":" + valueJson + "}";
    } else if (name != "sql_dialect" && name != "tables") {
        config += ",\"" + name + "\":" + valueJson;
    }
    return config + "}";
}

std::string parseError(const std::string& json) {
    try {
        parseConfigObject(json);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(accepted)";
}

// "ssh_tunnel.port" -> config['ssh_tunnel']['port'], as the parser's messages name a setting.
std::string pathOf(const std::string& name) {
    std::string path = "config";
    std::size_t start = 0;
    for (std::size_t dot; (dot = name.find('.', start)) != std::string::npos; start = dot + 1) {
        path += "['" + name.substr(start, dot - start) + "']";
    }
    return path + "['" + name.substr(start) + "']";
}

// The JSON Schema of one flat setting ("ssh_tunnel.port" inside ssh_tunnel's properties).
Object::Ptr schemaOf(const Object::Ptr& settings, const std::string& name) {
    const auto properties = settings->getObject("properties");
    const auto dot = name.find('.');
    if (dot == std::string::npos) return properties->getObject(name);
    return properties->getObject(name.substr(0, dot))
        ->getObject("properties")
        ->getObject(name.substr(dot + 1));
}

}  // namespace

TEST_CASE("settings: the README's table names exactly the settings --about prints") {
    const auto about = aboutSettings();
    const auto readme = readmeTable();
    REQUIRE(about.size() > 30);
    CHECK(about.count("repull_sessions") == 1);
    CHECK(about.count("metrics_port") == 1);
    std::string missing;
    std::string extra;
    for (const auto& name : namesOf(about)) {
        if (readme.settings.count(name) == 0) missing += " " + name;
    }
    for (const auto& name : namesOf(readme.settings)) {
        if (about.count(name) == 0) extra += " " + name;
    }
    CHECK_MESSAGE(missing.empty(), "settings --about prints and README.md does not:", missing);
    CHECK_MESSAGE(extra.empty(), "settings README.md names and --about does not:", extra);
}

TEST_CASE("settings: the README states the default --about prints, and the same secrets") {
    const auto about = aboutSettings();
    for (const auto& [name, stated] : readmeTable().settings) {
        CAPTURE(name);
        const auto it = about.find(name);
        if (it == about.end()) continue;  // reported by the test above
        CHECK(shown(stated.defaultText) == shown(it->second.defaultText));
        // The table marks the secrets of object keys; a top-level secret says so in prose.
        if (name.find('.') != std::string::npos) CHECK(stated.secret == it->second.secret);
    }
}

TEST_CASE("settings: the README's tables row lists the keys of a tables entry") {
    const auto items = aboutJsonSettings()
                           ->getObject("properties")
                           ->getObject("tables")
                           ->getObject("items")
                           ->getObject("properties");
    std::vector<std::string> schemaKeys;
    for (const auto& key : items->getNames()) schemaKeys.push_back(key);
    auto readmeKeys = readmeTable().tableKeys;
    std::sort(schemaKeys.begin(), schemaKeys.end());
    std::sort(readmeKeys.begin(), readmeKeys.end());
    CHECK(readmeKeys == schemaKeys);
}

TEST_CASE("settings: every setting --about documents has a description") {
    for (const auto& [name, stated] : aboutSettings()) {
        CAPTURE(name);
        CHECK(stated.description.size() > 10);
    }
}

TEST_CASE("settings: the parser accepts each default --about prints, given explicitly") {
    const auto settings = aboutJsonSettings();
    int checked = 0;
    for (const auto& [name, stated] : aboutSettings()) {
        const auto schema = schemaOf(settings, name);
        if (!schema->has("default")) continue;
        CAPTURE(name);
        const std::string valueJson = jsonvalue::write(schema->get("default"));
        CHECK(parseError(minimalConfigWith(name, valueJson)) == "(accepted)");
        ++checked;
    }
    CHECK(checked > 20);
}

TEST_CASE("settings: the parser refuses a value outside the bounds --about prints, naming it") {
    const auto settings = aboutJsonSettings();
    int checked = 0;
    for (const auto& [name, stated] : aboutSettings()) {
        const auto schema = schemaOf(settings, name);
        CAPTURE(name);
        if (schema->has("minimum")) {
            const auto below = std::to_string(schema->getValue<Poco::Int64>("minimum") - 1);
            CHECK(parseError(minimalConfigWith(name, below)) ==
                  below + " is less than the minimum of " + schema->get("minimum").toString() +
                      " in " + pathOf(name));
            ++checked;
        }
        if (schema->has("maximum")) {
            const auto above = std::to_string(schema->getValue<Poco::Int64>("maximum") + 1);
            CHECK(parseError(minimalConfigWith(name, above)) ==
                  above + " is greater than the maximum of " + schema->get("maximum").toString() +
                      " in " + pathOf(name));
            ++checked;
        }
        if (schema->has("enum")) {
            const std::string error = parseError(minimalConfigWith(name, R"("no-such-value")"));
            CHECK(error.rfind("'no-such-value' is not one of [", 0) == 0);
            CHECK(error.find(" in " + pathOf(name)) != std::string::npos);
            ++checked;
        }
    }
    CHECK(checked > 15);
}

TEST_CASE("settings: a default-constructed TapConfig holds the defaults the parser applies") {
    const TapConfig untouched;
    const TapConfig parsed = parseConfigObject(minimalConfigWith("tables", ""));
    CHECK(parsed.repullSessions == untouched.repullSessions);
    CHECK(parsed.pageSize == untouched.pageSize);
    CHECK(parsed.maxPageSize == untouched.maxPageSize);
    CHECK(parsed.metricsPort == 0);
    CHECK(parsed.metricsAddress == "127.0.0.1");
    CHECK(untouched.metricsAddress == "127.0.0.1");
    CHECK(parseConfigObject(minimalConfigWith("metrics_port", "9100")).metricsPort == 9100);
    CHECK(parseConfigObject(minimalConfigWith("repull_sessions", "4")).repullSessions == 4);
}
