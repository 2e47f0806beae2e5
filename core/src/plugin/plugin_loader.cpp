#include "plugin/plugin_loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <utility>

#include "plugin/plugin_paths.hpp"

namespace tapdiffgen::core {
namespace fs = std::filesystem;

namespace {

constexpr const char* kFilePrefix = "tap-diffgen-dialect-";
constexpr const char* kFileSuffix = ".so";
// The core package works alone, so a dialect whose plugin is nowhere is most likely a package
// not installed; the tap knows no package names, apt does.
constexpr const char* kNotInstalledHint =
    "; is its package installed? (apt-cache search tap-diffgen lists the dialect packages)";

std::string dlerrorText() {
    const char* message = dlerror();
    return message != nullptr ? message : "unknown dlopen error";
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

bool isPluginFileName(const std::string& name) {
    return name.rfind(kFilePrefix, 0) == 0 && name.size() > std::strlen(kFilePrefix) + 3 &&
           name.compare(name.size() - 3, 3, kFileSuffix) == 0;
}

// A name is a file-name fragment only: no path separators, no dot-dot tricks.
bool isSafeDialectName(const std::string& name) {
    return !name.empty() &&
           name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
}

// Says which promise of the info block is broken, so a plugin author knows what to fix.
std::string infoBlockProblem(const TdgPluginInfo* info) {
    if (info == nullptr) return std::string(TDG_PLUGIN_INFO_SYMBOL) + " returned NULL";
    if (info->struct_size < TDG_PLUGIN_INFO_SIZE_1) {
        return "the plugin's info block is " + std::to_string(info->struct_size) +
               " bytes, at least " + std::to_string(TDG_PLUGIN_INFO_SIZE_1) + " expected";
    }
    if (info->dialect_name == nullptr) return "the plugin's info block has no dialect name";
    return {};
}

// The required members of a v1 table that are NULL, comma-separated ("" when complete).
std::string unsetRequiredFunctions(const TdgDriver& driver) {
    const std::pair<bool, const char*> members[] = {
        {driver.connect != nullptr, "connect"},
        {driver.close != nullptr, "close"},
        {driver.server_version != nullptr, "server_version"},
        {driver.describe_table != nullptr, "describe_table"},
        {driver.read_diffgen_page != nullptr, "read_diffgen_page"},
        {driver.max_diffgen_id != nullptr, "max_diffgen_id"},
        {driver.fetch_rows != nullptr, "fetch_rows"},
        {driver.scan_table != nullptr, "scan_table"}};
    std::string unset;
    for (const auto& [isSet, name] : members) {
        if (!isSet) unset += (unset.empty() ? "" : ", ") + std::string(name);
    }
    return unset;
}

PluginListing describe(const std::string& path) {
    PluginListing listing;
    listing.path = path;
    try {
        auto plugin = loadPluginFile(path);
        const TdgPluginInfo& info = plugin->info();
        listing.dialect = plugin->dialect();
        listing.aliases = plugin->aliases();
        listing.pluginVersion = info.plugin_version ? info.plugin_version : "";
        listing.sdkVersion = info.sdk_version ? info.sdk_version : "";
        listing.abiMin = info.abi_version_min;
        listing.abiMax = info.abi_version_max;
        listing.description = info.description ? info.description : "";
        listing.settings = plugin->settings();
    } catch (const PluginLoadError& failure) {
        listing.error = failure.what();
    }
    return listing;
}

}  // namespace

std::shared_ptr<const Plugin> loadPluginFile(const std::string& path) {
    // RTLD_NOW: an unresolved dependency fails here with the loader's message, not later as a
    // crash. RTLD_LOCAL: two plugins bundling different client libraries cannot collide.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) throw PluginLoadError(dlerrorText());

    auto infoFn = reinterpret_cast<TdgPluginInfoFn>(dlsym(handle, TDG_PLUGIN_INFO_SYMBOL));
    auto initFn = reinterpret_cast<TdgDriverInitFn>(dlsym(handle, TDG_DRIVER_INIT_SYMBOL));
    if (infoFn == nullptr || initFn == nullptr) {
        throw PluginLoadError(
            std::string("not a tap-diffgen dialect plugin: it does not export ") +
            (infoFn == nullptr ? TDG_PLUGIN_INFO_SYMBOL : TDG_DRIVER_INIT_SYMBOL));
    }
    const TdgPluginInfo* info = infoFn();
    if (std::string problem = infoBlockProblem(info); !problem.empty()) {
        throw PluginLoadError(problem);
    }
    if (info->abi_version_max < TDG_ABI_VERSION_1 || info->abi_version_min > TDG_ABI_VERSION) {
        std::ostringstream message;
        message << "ABI version mismatch: the plugin '" << info->dialect_name << "' speaks ABI "
                << info->abi_version_min << ".." << info->abi_version_max
                << ", this tap-diffgen supports " << TDG_ABI_VERSION_1 << ".." << TDG_ABI_VERSION;
        throw PluginLoadError(message.str());
    }
    int32_t version = std::min<int32_t>(info->abi_version_max, TDG_ABI_VERSION);
    TdgDriver driver{};
    driver.struct_size = sizeof(TdgDriver);
    TdgError error{};
    TdgStatus status = initFn(version, &driver, &error);
    if (status != TDG_OK) {
        std::string message = "the plugin's initialisation failed";
        if (error.message != nullptr) message += std::string(": ") + error.message;
        if (error.release != nullptr) error.release(&error);
        throw PluginLoadError(message);
    }
    if (std::string unset = unsetRequiredFunctions(driver); !unset.empty()) {
        throw PluginLoadError("the plugin left required functions of ABI version " +
                              std::to_string(version) + " unset: " + unset);
    }
    // The handle is deliberately never closed: see Plugin.
    return std::make_shared<const Plugin>(path, *info, driver);
}

PluginLoader::PluginLoader(std::vector<std::pair<std::string, std::string>> searchDirs)
    : dirs_(std::move(searchDirs)) {}

PluginLoader PluginLoader::standard(const std::vector<std::string>& cliDirs) {
    std::vector<std::pair<std::string, std::string>> dirs;
    for (const auto& dir : cliDirs) dirs.emplace_back(dir, "--plugin-dir");
    if (const char* env = std::getenv("TAP_DIFFGEN_PLUGIN_PATH"); env != nullptr) {
        std::stringstream paths(env);
        std::string dir;
        while (std::getline(paths, dir, ':')) {
            if (!dir.empty()) dirs.emplace_back(dir, "TAP_DIFFGEN_PLUGIN_PATH");
        }
    }
    if (auto relative = executableRelativePluginDir()) {
        dirs.emplace_back(*relative, "next to the executable");
    }
    dirs.emplace_back(installedPluginDir(), "install directory");
    return PluginLoader(std::move(dirs));
}

std::string PluginLoader::fileNameFor(const std::string& dialect) {
    return kFilePrefix + dialect + kFileSuffix;
}

std::shared_ptr<const Plugin> PluginLoader::load(const std::string& dialectOrPath) {
    if (auto cached = loaded_.find(dialectOrPath); cached != loaded_.end()) return cached->second;

    if (!dialectOrPath.empty() && dialectOrPath[0] == '/') {
        try {
            return loaded_[dialectOrPath] = loadPluginFile(dialectOrPath);
        } catch (const PluginLoadError& failure) {
            throw PluginLoadError("cannot load dialect plugin '" + dialectOrPath +
                                  "': " + failure.what());
        }
    }

    const std::string name = lower(dialectOrPath);
    std::ostringstream probed;
    if (!isSafeDialectName(name)) {
        throw PluginLoadError("sql_dialect '" + dialectOrPath +
                              "' is neither a dialect name (letters, digits, '-', '_') nor an "
                              "absolute path to a plugin file");
    }
    const std::string fileName = fileNameFor(name);
    bool anyCandidateExists = false;
    for (const auto& [dir, origin] : dirs_) {
        fs::path candidate = fs::path(dir) / fileName;
        std::error_code ignored;
        if (!fs::exists(candidate, ignored)) {
            probed << "; " << candidate.string() << " (" << origin << "): does not exist";
            continue;
        }
        anyCandidateExists = true;
        try {
            return loaded_[dialectOrPath] = loadPluginFile(candidate.string());
        } catch (const PluginLoadError& failure) {
            probed << "; " << candidate.string() << " (" << origin << "): " << failure.what();
        }
    }
    // Not a file name: maybe an alias, another name a plugin's info block answers to.
    for (const PluginListing& listing : list()) {
        if (!listing.error.empty()) continue;
        if (std::find(listing.aliases.begin(), listing.aliases.end(), name) !=
            listing.aliases.end()) {
            return loaded_[dialectOrPath] = loadPluginFile(listing.path);
        }
    }
    throw PluginLoadError("no dialect plugin for sql_dialect '" + dialectOrPath + "': looked for " +
                          fileName + probed.str() +
                          "; no plugin found has it as an alias either "
                          "(tap-diffgen --list-plugins shows what is installed)" +
                          (anyCandidateExists ? std::string() : std::string(kNotInstalledHint)));
}

std::vector<PluginListing> PluginLoader::list() {
    std::vector<PluginListing> found;
    std::vector<std::string> seenDialects;
    for (const auto& [dir, origin] : dirs_) {
        std::error_code error;
        if (!fs::is_directory(dir, error)) continue;
        std::vector<std::string> files;
        for (const auto& entry : fs::directory_iterator(dir, error)) {
            std::string name = entry.path().filename().string();
            if (isPluginFileName(name)) files.push_back(entry.path().string());
        }
        std::sort(files.begin(), files.end());
        for (const auto& file : files) {
            PluginListing listing = describe(file);
            if (!listing.error.empty() || std::find(seenDialects.begin(), seenDialects.end(),
                                                    listing.dialect) == seenDialects.end()) {
                if (listing.error.empty()) seenDialects.push_back(listing.dialect);
                found.push_back(std::move(listing));
            }
        }
    }
    return found;
}

}  // namespace tapdiffgen::core
