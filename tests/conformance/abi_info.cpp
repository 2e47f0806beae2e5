// abi/info-block: the block the tap reads before anything else, and shows in --list-plugins.
#include <cstring>
#include <filesystem>
#include <set>

#include "abi_cases.hpp"
#include "case_result.hpp"

namespace tapdiffgen::conformance {
namespace {

// Dialect names become file names and the value users type for sql_dialect.
bool isDialectName(const char* name) {
    if (name == nullptr || name[0] == '\0') return false;
    for (const char* c = name; *c != '\0'; ++c) {
        bool allowed =
            (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-';
        if (!allowed) return false;
    }
    return true;
}

bool isOneLine(const char* text) {
    return text != nullptr && text[0] != '\0' && std::strpbrk(text, "\r\n") == nullptr;
}

std::string quoted(const char* text) {
    return text == nullptr ? "NULL" : "'" + std::string(text) + "'";
}

void checkAliases(const TdgPluginInfo& info, std::string& summary) {
    if (info.aliases == nullptr) return;
    std::set<std::string> seen = {info.dialect_name};
    for (const char* const* alias = info.aliases; *alias != nullptr; ++alias) {
        require(isDialectName(*alias),
                "alias " + quoted(*alias) + " is not a lower-case name of [a-z0-9_-]");
        require(seen.insert(*alias).second,
                "alias '" + std::string(*alias) + "' repeats the dialect name or another alias");
        summary += " (alias " + std::string(*alias) + ")";
    }
}

// A plugin found by name must be the file that name maps to.
void checkFileName(const Subject& subject, const TdgPluginInfo& info) {
    std::string file = std::filesystem::path(subject.plugin->path()).filename().string();
    const std::string prefix = "tap-diffgen-dialect-";
    if (file.rfind(prefix, 0) != 0 || file.size() < prefix.size() + 3) return;
    std::string stem = file.substr(prefix.size(), file.size() - prefix.size() - 3);
    require(stem == info.dialect_name, "the file is named for dialect '" + stem +
                                           "' but the info block says '" + info.dialect_name +
                                           "': sql_dialect=" + stem + " would not find it");
}

}  // namespace

std::string checkInfoBlock(const Subject& subject) {
    require(subject.info != nullptr, "the plugin does not export " TDG_PLUGIN_INFO_SYMBOL);
    const TdgPluginInfo* info = subject.info();
    require(info != nullptr, TDG_PLUGIN_INFO_SYMBOL " returned NULL");
    require(subject.info() == info, TDG_PLUGIN_INFO_SYMBOL
            " returned a different block on a second call; it must be static");
    require(info->struct_size >= sizeof(TdgPluginInfo),
            "struct_size is " + std::to_string(info->struct_size) + ", at least " +
                std::to_string(sizeof(TdgPluginInfo)) + " expected");
    require(isDialectName(info->dialect_name), "dialect_name " + quoted(info->dialect_name) +
                                                   " is not a lower-case name of [a-z0-9_-]");
    require(info->abi_version_min <= info->abi_version_max,
            "abi_version_min " + std::to_string(info->abi_version_min) + " > abi_version_max " +
                std::to_string(info->abi_version_max));
    require(
        info->abi_version_min <= TDG_ABI_VERSION_1 && info->abi_version_max >= TDG_ABI_VERSION_1,
        "the ABI range " + std::to_string(info->abi_version_min) + ".." +
            std::to_string(info->abi_version_max) + " does not include version 1");
    require(isOneLine(info->plugin_version), "plugin_version is " + quoted(info->plugin_version));
    require(isOneLine(info->sdk_version), "sdk_version is " + quoted(info->sdk_version));
    require(isOneLine(info->description),
            "description must be one non-empty line, is " + quoted(info->description));
    std::string summary = info->dialect_name;
    checkAliases(*info, summary);
    checkFileName(subject, *info);
    return summary + ", plugin " + info->plugin_version + ", sdk " + info->sdk_version + ", abi " +
           std::to_string(info->abi_version_min) + ".." + std::to_string(info->abi_version_max);
}

}  // namespace tapdiffgen::conformance
