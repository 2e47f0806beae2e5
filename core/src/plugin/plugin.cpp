#include "plugin/plugin.hpp"

#include <algorithm>
#include <cstring>

#include "plugin/declared_settings.hpp"

namespace tapdiffgen::core {
namespace {

TdgPluginInfo knownPart(const TdgPluginInfo& info) {
    TdgPluginInfo copy{};
    std::memcpy(&copy, &info, std::min<std::size_t>(info.struct_size, sizeof copy));
    copy.struct_size = std::min<uint32_t>(info.struct_size, sizeof copy);
    return copy;
}

}  // namespace

Plugin::Plugin(std::string path, const TdgPluginInfo& info, const TdgDriver& driver)
    : path_(std::move(path)),
      info_(knownPart(info)),
      driver_(driver),
      settings_(readDeclaredSettings(info_, dialect())) {}

std::vector<std::string> Plugin::aliases() const {
    std::vector<std::string> names;
    if (info_.aliases == nullptr) return names;
    for (const char* const* alias = info_.aliases; *alias != nullptr; ++alias) {
        names.emplace_back(*alias);
    }
    return names;
}

}  // namespace tapdiffgen::core
