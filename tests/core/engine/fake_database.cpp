#include "engine/fake_database.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "catalog/sync_streams.hpp"
#include "cli/tap_main.hpp"
#include "config/tap_config.hpp"
#include "plugin/connection_factory.hpp"
#include "plugin/plugin_loader.hpp"
#include "replay/sync/sync_coordinator.hpp"
#include "replay/timing/stop_signal.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::testing {
namespace {

std::string readAll(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream content;
    content << file.rdbuf();
    return content.str();
}

// Buffered output must land on the side of the redirect it was written on.
void flushAll() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
}

// Points fd at a file for the lifetime of the object.
class Redirect {
public:
    Redirect(int fd, const std::string& path) : fd_(fd), saved_((flushAll(), dup(fd))) {
        int target = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(target, fd_);
        close(target);
    }
    ~Redirect() {
        flushAll();
        dup2(saved_, fd_);
        close(saved_);
    }

private:
    int fd_;
    int saved_;
};

}  // namespace

std::string numberedDatabase(int tables, int events, const std::string& extra) {
    return numberedDatabase(tables, events, NumberedRows{3, 0}, extra);
}

std::string numberedDatabase(int tables, int events, NumberedRows rows, const std::string& extra) {
    std::string json = R"({"tables":{)";
    for (int t = 0; t < tables; ++t) {
        if (t > 0) json += ",";
        json +=
            "\"t" + std::to_string(t) +
            R"(":{"columns":[{"name":"id","kind":"int64","pk":true},{"name":"v","kind":"text"}],)"
            R"("rows":[)";
        for (int id = 1; id <= rows.present; ++id) {
            if (id > 1) json += ",";
            json += "[" + std::to_string(id) + ",\"v" + std::to_string(t) + "-" +
                    std::to_string(id) + "\"]";
        }
        json += "]}";
    }
    json += R"(},"diffgen":[)";
    const int keys = rows.present + rows.gone;
    for (int e = 1; e <= events; ++e) {
        if (e > 1) json += ",";
        json += "[" + std::to_string(e) + ",\"t" + std::to_string(e % tables) + "\",\"" +
                std::to_string(e % keys + 1) + "\",\"u\",\"ts\"]";
    }
    return json + "]" + extra + "}";
}

std::string numberedTablesSetting(int tables) {
    std::string json = R"("tables":[)";
    for (int t = 0; t < tables; ++t) {
        if (t > 0) json += ",";
        json += R"({"table_name":"t)" + std::to_string(t) + R"(","pk_column":"id"})";
    }
    return json + "]";
}

FakeSetup::FakeSetup(const std::string& databaseJson, const std::string& extraConfig) {
    char pattern[] = "/tmp/tdg-engine-XXXXXX";
    if (mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    std::string database = write("database.json", databaseJson);
    write("config.json", std::string(R"({"sql_dialect":")") + TDG_FAKE_PLUGIN +
                             R"(","database":")" + database + R"(",)" + extraConfig + "}");
}

FakeSetup::~FakeSetup() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

std::string FakeSetup::write(const std::string& name, const std::string& content) const {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

// Runs `body` with stdout and stderr captured; its result is the exit code.
template <typename Body>
TapRun captured(Body body) {
    char pattern[] = "/tmp/tdg-run-XXXXXX";
    if (mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    std::string dir = pattern;
    TapRun run;
    core::requestStop(false);
    {
        Redirect out(1, dir + "/stdout");
        Redirect err(2, dir + "/stderr");
        run.exitCode = body();
    }
    run.setOutput(readAll(dir + "/stdout"), readAll(dir + "/stderr"));
    std::filesystem::remove_all(dir);
    return run;
}

TapRun runTap(const std::vector<std::string>& arguments) {
    std::vector<std::string> storage = {"tap-diffgen"};
    storage.insert(storage.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& argument : storage) argv.push_back(argument.data());
    argv.push_back(nullptr);
    return captured([&] { return core::tapMain(static_cast<int>(storage.size()), argv.data()); });
}

TapRun runWatchedSync(const FakeSetup& setup, core::RunObserver& observer) {
    core::PluginLoader loader({});
    std::shared_ptr<const core::Plugin> plugin;
    const core::TapConfig config =
        core::loadConfig({setup.configPath()}, setup.dir(), [&](const std::string& dialect) {
            plugin = loader.load(dialect);
            return plugin->settings();
        });
    return captured([&] {
        const core::ConnectionFactory connections(plugin, config);
        auto connection = connections.connect();
        core::TapState state;
        const std::vector<core::StreamDefinition> definitions =
            core::streamsToSync(*connection, config, std::nullopt, state);
        core::SyncCoordinator coordinator(config, connections, definitions, state,
                                          core::SyncMode::Replay);
        coordinator.addObserver(observer);
        coordinator.run(std::move(connection));
        return 0;
    });
}

}  // namespace tapdiffgen::testing
