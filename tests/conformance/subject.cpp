#include "subject.hpp"

#include <dlfcn.h>

#include <filesystem>

#include "plugin/plugin_loader.hpp"

namespace tapdiffgen::conformance {

Subject loadSubject(const std::string& nameOrPath, const std::vector<std::string>& pluginDirs) {
    core::PluginLoader loader = core::PluginLoader::standard(pluginDirs);
    // The tap accepts only absolute paths; a plugin author naturally types a relative one.
    bool isPath = nameOrPath.find('/') != std::string::npos;
    std::string target =
        isPath ? std::filesystem::absolute(nameOrPath).lexically_normal().string() : nameOrPath;
    Subject subject;
    subject.plugin = loader.load(target);
    // The loader keeps the library loaded for good, so this only takes another reference.
    void* handle = dlopen(subject.plugin->path().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) throw core::PluginLoadError(dlerror());
    subject.info = reinterpret_cast<TdgPluginInfoFn>(dlsym(handle, TDG_PLUGIN_INFO_SYMBOL));
    subject.init = reinterpret_cast<TdgDriverInitFn>(dlsym(handle, TDG_DRIVER_INIT_SYMBOL));
    return subject;
}

}  // namespace tapdiffgen::conformance
