// The production loader against plugins that are broken on purpose (tests/sdk/broken_plugins),
// a well-formed stand-in for the postgres plugin, and the real tap-diffgen binary. Each refusal
// must be a PluginLoadError whose text tells a user what is wrong, and nothing may crash.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "loader_test_support.hpp"
#include "plugin/plugin_loader.hpp"
#include "support/tap_process.hpp"

namespace {

namespace fs = std::filesystem;
using tapdiffgen::core::PluginLoader;
using tapdiffgen::testing::contains;
using tapdiffgen::testing::copyInto;
using tapdiffgen::testing::loadError;
using tapdiffgen::testing::ScopedCwd;
using tapdiffgen::testing::ScopedEnv;
using tapdiffgen::testing::ScratchDir;

const std::string kBrokenDir = TDG_BROKEN_PLUGIN_DIR;
const std::string kAliasPlugin = TDG_ALIAS_PLUGIN;
const std::string kPostgresFile = "tap-diffgen-dialect-postgres.so";

PluginLoader brokenLoader() { return PluginLoader({{kBrokenDir, "--plugin-dir"}}); }

std::string brokenFile(const std::string& dialect) {
    return kBrokenDir + "/" + PluginLoader::fileNameFor(dialect);
}

}  // namespace

TEST_CASE("a plugin without entry points is refused, naming the missing symbol") {
    PluginLoader loader = brokenLoader();
    std::string error = loadError(loader, "noentry");
    MESSAGE(error);
    CHECK(contains(error, "sql_dialect 'noentry'"));
    CHECK(contains(error, brokenFile("noentry") + " (--plugin-dir): "));
    CHECK(contains(error, "not a tap-diffgen dialect plugin: it does not export tdg_plugin_info"));
}

TEST_CASE("a plugin speaking another ABI version is refused before it is initialised") {
    PluginLoader loader = brokenLoader();
    std::string error = loadError(loader, "wrongabi");
    MESSAGE(error);
    CHECK(contains(error,
                   "ABI version mismatch: the plugin 'wrongabi' speaks ABI 99..99, this "
                   "tap-diffgen supports 1..6"));
    CHECK_FALSE(contains(error, "tdg_driver_init was called"));
}

TEST_CASE("a failing initialisation passes the plugin's own message on") {
    PluginLoader loader = brokenLoader();
    std::string error = loadError(loader, "initfails");
    MESSAGE(error);
    CHECK(contains(error,
                   "the plugin's initialisation failed: the vendor client library is too "
                   "old (need 3.2, found 2.9)"));
}

TEST_CASE("a missing shared library is named by the dynamic loader's message") {
    PluginLoader loader = brokenLoader();
    std::string error = loadError(loader, "missingdep");
    MESSAGE(error);
    CHECK(contains(error, brokenFile("missingdep") + " (--plugin-dir): "));
    CHECK(contains(error, "libtdg-missing.so: cannot open shared object file"));
}

TEST_CASE("an info block that is NULL is refused") {
    PluginLoader loader = brokenLoader();
    std::string error = loadError(loader, "nullinfo");
    MESSAGE(error);
    CHECK(contains(error, "tdg_plugin_info returned NULL"));
}

TEST_CASE("a function table with required members unset is refused, naming them") {
    PluginLoader loader = brokenLoader();
    std::string error = loadError(loader, "incomplete");
    MESSAGE(error);
    CHECK(contains(error, "fetch_rows"));
    CHECK(contains(error, "scan_table"));
    CHECK_FALSE(contains(error, "describe_table"));
}

TEST_CASE("a broken plugin given by absolute path says which file and why") {
    PluginLoader loader({});
    std::string error = loadError(loader, brokenFile("wrongabi"));
    CHECK(contains(error, "cannot load dialect plugin '" + brokenFile("wrongabi") + "': "));
    CHECK(contains(error, "ABI version mismatch"));
}

TEST_CASE("listing a directory of broken plugins reports each one as unusable") {
    PluginLoader loader = brokenLoader();
    auto listings = loader.list();
    CHECK(listings.size() == 7);
    for (const auto& listing : listings) {
        INFO(listing.path);
        CHECK_FALSE(listing.error.empty());
        CHECK(listing.dialect.empty());
    }
}

TEST_CASE("an unknown dialect lists every place probed and why it failed") {
    ScratchDir scratch;
    const std::string cliDir = scratch.path() + "/cli";
    const std::string envDir = scratch.path() + "/env";
    fs::create_directories(cliDir);
    PluginLoader loader({{cliDir, "--plugin-dir"}, {envDir, "TAP_DIFFGEN_PLUGIN_PATH"}});
    std::string error = loadError(loader, "nosuchdb");
    MESSAGE(error);
    CHECK(contains(error,
                   "no dialect plugin for sql_dialect 'nosuchdb': looked for "
                   "tap-diffgen-dialect-nosuchdb.so"));
    CHECK(contains(error,
                   cliDir + "/tap-diffgen-dialect-nosuchdb.so (--plugin-dir): does not exist"));
    CHECK(contains(
        error,
        envDir + "/tap-diffgen-dialect-nosuchdb.so (TAP_DIFFGEN_PLUGIN_PATH): does not exist"));
    CHECK(contains(error, "no plugin found has it as an alias either"));
}

// The tap knows no dialect and no package name: the hint points at apt, for any name.
TEST_CASE("a dialect that is nowhere asks whether its package is installed") {
    ScratchDir scratch;
    PluginLoader loader({{scratch.path(), "--plugin-dir"}});
    const std::string hint =
        "; is its package installed? (apt-cache search tap-diffgen lists the dialect packages)";
    for (const std::string dialect : {"postgres", "MariaDB", "nosuchdb"}) {
        INFO(dialect);
        std::string error = loadError(loader, dialect);
        CHECK(contains(error, "no dialect plugin for sql_dialect '" + dialect + "'"));
        REQUIRE(error.size() > hint.size());
        CHECK(error.compare(error.size() - hint.size(), hint.size(), hint) == 0);
        CHECK_FALSE(contains(error, "\n"));
    }
}

TEST_CASE("a first-party plugin that is installed but broken gets its reason, not a package hint") {
    ScratchDir scratch;
    copyInto(brokenFile("wrongabi"), scratch.path(), "tap-diffgen-dialect-sqlite.so");
    PluginLoader loader({{scratch.path(), "--plugin-dir"}});
    std::string error = loadError(loader, "sqlite");
    CHECK(contains(error, "ABI version mismatch"));
    CHECK_FALSE(contains(error, "is its package installed?"));
}

TEST_CASE("a name that could be a path is refused rather than resolved in any directory") {
    PluginLoader loader({});
    CHECK(contains(loadError(loader, "../tap-diffgen-dialect-postgres.so"),
                   "neither a dialect name"));
    CHECK(contains(loadError(loader, "plugins/x.so"), "neither a dialect name"));
}

TEST_CASE("an alias finds the plugin by its info block") {
    ScratchDir scratch;
    std::string path = copyInto(kAliasPlugin, scratch.path(), kPostgresFile);
    PluginLoader loader({{scratch.path(), "--plugin-dir"}});
    for (const std::string name : {"postgresql", "PostgreSQL", "postgres"}) {
        INFO(name);
        auto plugin = loader.load(name);
        CHECK(plugin->dialect() == "postgres");
        CHECK(plugin->path() == path);
    }
}

TEST_CASE("an alias is found past broken plugins in earlier directories") {
    ScratchDir scratch;
    std::string path = copyInto(kAliasPlugin, scratch.path(), kPostgresFile);
    PluginLoader loader({{kBrokenDir, "--plugin-dir"}, {scratch.path(), "--plugin-dir"}});
    CHECK(loader.load("postgresql")->path() == path);
}

TEST_CASE("an absolute path loads whatever the file is called") {
    ScratchDir scratch;
    std::string path = copyInto(kAliasPlugin, scratch.path(), "my-own-build.so");
    PluginLoader loader({});
    auto plugin = loader.load(path);
    CHECK(plugin->dialect() == "postgres");
    CHECK(plugin->path() == path);
}

TEST_CASE("--plugin-dir comes before TAP_DIFFGEN_PLUGIN_PATH, which comes before the rest") {
    ScratchDir scratch;
    const std::string cliDir = scratch.path() + "/cli";
    const std::string envDir = scratch.path() + "/env";
    const std::string cliCopy = copyInto(kAliasPlugin, cliDir, kPostgresFile);
    const std::string envCopy = copyInto(kAliasPlugin, envDir, kPostgresFile);
    ScopedEnv env("TAP_DIFFGEN_PLUGIN_PATH", envDir);

    PluginLoader withFlag = PluginLoader::standard({cliDir});
    const auto& dirs = withFlag.searchDirs();
    REQUIRE(dirs.size() == 4);
    CHECK(dirs[0] == std::pair<std::string, std::string>(cliDir, "--plugin-dir"));
    CHECK(dirs[1] == std::pair<std::string, std::string>(envDir, "TAP_DIFFGEN_PLUGIN_PATH"));
    CHECK(dirs[2].second == "next to the executable");
    CHECK(dirs[3].second == "install directory");
    CHECK(withFlag.load("postgres")->path() == cliCopy);

    PluginLoader withoutFlag = PluginLoader::standard({});
    CHECK(withoutFlag.load("postgres")->path() == envCopy);
}

TEST_CASE("the current directory is never searched") {
    ScratchDir scratch;
    copyInto(kAliasPlugin, scratch.path(), "tap-diffgen-dialect-cwdonly.so");
    ScopedCwd cwd(scratch.path());
    ScopedEnv env("TAP_DIFFGEN_PLUGIN_PATH", std::string("::"));
    PluginLoader loader = PluginLoader::standard({});
    for (const auto& [dir, origin] : loader.searchDirs()) {
        INFO(origin);
        CHECK(fs::path(dir).is_absolute());
    }
    std::string error = loadError(loader, "cwdonly");
    CHECK(contains(error, "no dialect plugin for sql_dialect 'cwdonly'"));
    CHECK_FALSE(contains(error, scratch.path()));
}

TEST_CASE("tap-diffgen --list-plugins shows name, aliases, versions and path") {
    ScratchDir scratch;
    std::string path = copyInto(kAliasPlugin, scratch.path(), kPostgresFile);
    auto run = tapdiffgen::testing::runTapBinary(
        {"--plugin-dir", scratch.path(), "--plugin-dir", kBrokenDir, "--list-plugins"});
    REQUIRE(run.exitCode == 0);
    std::string out;
    for (const auto& line : run.lines) out += line + "\n";
    MESSAGE(out);
    CHECK(contains(out, "# searched: " + scratch.path() + " (--plugin-dir)\n"));
    CHECK(contains(out, "postgres (alias postgresql)  plugin 9.8.7, sdk " +
                            std::string(TDG_PROJECT_VERSION) + ", abi 1..6  " + path +
                            "  loader test double for postgres\n"));
    CHECK(contains(out, "unusable  " + brokenFile("wrongabi") + ": ABI version mismatch"));
    CHECK(contains(out, "unusable  " + brokenFile("missingdep") + ": "));
}

TEST_CASE("a relocated tap finds plugins next to itself, after TAP_DIFFGEN_PLUGIN_PATH") {
    ScratchDir scratch;
    const std::string binary =
        copyInto(tapdiffgen::testing::tapBinary(), scratch.path() + "/bin", "tap-diffgen");
    fs::permissions(binary, fs::perms::owner_exec, fs::perm_options::add);
    const std::string besideDir = scratch.path() + "/" + TDG_PLUGIN_SUBDIR;
    const std::string beside = copyInto(kAliasPlugin, besideDir, kPostgresFile);
    const std::string envDir = scratch.path() + "/env";
    const std::string fromEnv = copyInto(kAliasPlugin, envDir, kPostgresFile);
    ScopedEnv useCopy("TDG_TEST_TAP_BINARY", binary);

    {
        ScopedEnv noPath("TAP_DIFFGEN_PLUGIN_PATH", std::nullopt);
        auto run = tapdiffgen::testing::runTapBinary({"--list-plugins"});
        REQUIRE(run.exitCode == 0);
        REQUIRE(run.lines.size() >= 3);
        CHECK(run.lines[0] == "# searched: " + besideDir + " (next to the executable)");
        CHECK(contains(run.lines[2], "postgres (alias postgresql)"));
        CHECK(contains(run.lines[2], beside));
    }
    {
        ScopedEnv path("TAP_DIFFGEN_PLUGIN_PATH", envDir);
        auto run = tapdiffgen::testing::runTapBinary({"--list-plugins"});
        REQUIRE(run.exitCode == 0);
        REQUIRE(run.lines.size() >= 4);
        CHECK(run.lines[0] == "# searched: " + envDir + " (TAP_DIFFGEN_PLUGIN_PATH)");
        CHECK(run.lines[1] == "# searched: " + besideDir + " (next to the executable)");
        CHECK(contains(run.lines[3], fromEnv));
    }
}
