// Loading: --config files, their merging, and --config ENV with the environment and .env.
#include <doctest/doctest.h>

#include <string>

#include "config/tap_config.hpp"
#include "config_test_support.hpp"

using namespace tapdiffgen::core;
using tapdiffgen::core::testing::CleanSettingEnvironment;
using tapdiffgen::core::testing::minimalConfig;
using tapdiffgen::core::testing::option;
using tapdiffgen::core::testing::ScopedEnv;
using tapdiffgen::core::testing::TempDir;

namespace {

std::string loadError(const std::vector<std::string>& args, const std::string& workingDir) {
    return testing::configErrorOf([&] { loadConfig(args, workingDir); });
}

}  // namespace

TEST_CASE("a config file that cannot be read") {
    TempDir dir;
    const std::string missing = dir.path() + "/missing.json";
    CHECK(loadError({missing}, dir.path()) ==
          "cannot read config file '" + missing + "': No such file or directory");
    CHECK(loadError({dir.path()}, dir.path()) ==
          "cannot read config file '" + dir.path() + "': Is a directory");
}

TEST_CASE("a config file that is not valid JSON") {
    TempDir dir;
    const std::string truncated = dir.write("truncated.json", "{\"sql_dialect\": ");
    CHECK(loadError({truncated}, dir.path()) ==
          "config file '" + truncated + "' is not valid JSON: unexpected end of text");
    const std::string trailingComma = dir.write("comma.json", "{\"a\": 1,}");
    CHECK(loadError({trailingComma}, dir.path()) ==
          "config file '" + trailingComma + "' is not valid JSON: unexpected byte '}' in value");
    const std::string empty = dir.write("empty.json", "");
    CHECK(loadError({empty}, dir.path()) ==
          "config file '" + empty + "' is not valid JSON: unexpected end of text");
    const std::string words = dir.write("words.json", "host = db");
    CHECK(loadError({words}, dir.path())
              .rfind("config file '" + words + "' is not valid JSON: ", 0) == 0);
}

TEST_CASE("a config file that is not an object") {
    TempDir dir;
    for (const std::string content : {"[1, 2]", "\"text\"", "12", "null"}) {
        CAPTURE(content);
        const std::string file = dir.write("scalar.json", content);
        CHECK(loadError({file}, dir.path()) ==
              "config file '" + file + "' must contain a JSON object");
    }
}

TEST_CASE("config files merge shallowly, the later one winning") {
    TempDir dir;
    const std::string first =
        dir.write("first.json", minimalConfig(R"(,"host":"a","port":1111,"page_size":7)"));
    const std::string second =
        dir.write("second.json",
                  "\xEF\xBB\xBF"
                  R"({"host":"b","tables":[{"table_name":"orders","pk_column":"no"}]})");
    const TapConfig config = loadConfig({first, second}, dir.path());
    CHECK(option(config, "host") == "b");
    CHECK(option(config, "port") == "1111");
    CHECK(config.pageSize == 7);
    REQUIRE(config.tables.size() == 1);
    CHECK(config.tables[0].tableName == "orders");
}

TEST_CASE("environment variables are ignored without --config ENV") {
    CleanSettingEnvironment clean;
    TempDir dir;
    ScopedEnv host("TAP_DIFFGEN_HOST", "from-env");
    dir.write(".env", "TAP_DIFFGEN_USER=from-dotenv\n");
    const TapConfig config = loadConfig({dir.write("c.json", minimalConfig())}, dir.path());
    CHECK(option(config, "host") == "(unset)");
    CHECK(option(config, "user") == "(unset)");
}

TEST_CASE("environment over .env over files, wherever ENV stands") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const std::string file = dir.write(
        "c.json", minimalConfig(R"(,"host":"from-file","user":"file-user","database":"file-db")"));
    dir.write(".env",
              "# connection\n"
              "TAP_DIFFGEN_HOST=from-dotenv\n"
              "export TAP_DIFFGEN_USER='dotenv-user'  # quoted\n");
    ScopedEnv host("TAP_DIFFGEN_HOST", "from-env");
    for (const auto& args : {std::vector<std::string>{"ENV", file}, {file, "ENV"}}) {
        const TapConfig config = loadConfig(args, dir.path());
        CHECK(option(config, "host") == "from-env");
        CHECK(option(config, "user") == "dotenv-user");
        CHECK(option(config, "database") == "file-db");
    }
}

TEST_CASE("ENV alone is a whole config") {
    CleanSettingEnvironment clean;
    TempDir dir;
    dir.write(".env", R"(TAP_DIFFGEN_TABLES='[{"table_name":"a","pk_column":"id"}]')"
                      "\n");
    ScopedEnv dialect("TAP_DIFFGEN_SQL_DIALECT", "mysql");
    const TapConfig config = loadConfig({"ENV"}, dir.path());
    CHECK(config.sqlDialect == "mysql");
    REQUIRE(config.tables.size() == 1);
    CHECK(config.tables[0].pkColumns == std::vector<std::string>{"id"});
    CHECK(loadError({"ENV"}, dir.path() + "/nowhere") == "'tables' is a required property");
}

TEST_CASE("environment values are converted by the setting's type") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const std::string file = dir.write("c.json", minimalConfig());
    ScopedEnv port("TAP_DIFFGEN_PORT", " 5433 ");
    ScopedEnv settle("TAP_DIFFGEN_HORIZON_SETTLE_SECONDS", "2.5");
    ScopedEnv tables("TAP_DIFFGEN_TABLES",
                     R"([{"table_name":"x","pk_column":"k","mode":"tombstones_only"}])");
    ScopedEnv pageSize("TAP_DIFFGEN_PAGE_SIZE", "+250");
    for (const auto& [text, expected] : std::vector<std::pair<std::string, bool>>{{"true", true},
                                                                                  {"1", true},
                                                                                  {"YES", true},
                                                                                  {"on", true},
                                                                                  {"false", false},
                                                                                  {"0", false},
                                                                                  {"No", false},
                                                                                  {"OFF", false}}) {
        CAPTURE(text);
        ScopedEnv flag("TAP_DIFFGEN_ADD_SDC_DELETED_AT", text);
        const TapConfig config = loadConfig({file, "ENV"}, dir.path());
        CHECK(config.addSdcDeletedAt == expected);
        CHECK(option(config, "port") == "5433");
        CHECK(config.horizonSettleSeconds == 2.5);
        CHECK(config.pageSize == 250);
        REQUIRE(config.tables.size() == 1);
        CHECK(config.tables[0].mode == StreamMode::TombstonesOnly);
    }
}

TEST_CASE("environment values that do not convert are reported like file values") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const std::string file = dir.write("c.json", minimalConfig());
    {
        ScopedEnv port("TAP_DIFFGEN_PORT", "abc");
        CHECK(loadError({file, "ENV"}, dir.path()) ==
              "'abc' is not of type 'integer' in config['port']");
    }
    {
        ScopedEnv flag("TAP_DIFFGEN_ADD_SDC_DELETED_AT", "maybe");
        CHECK(loadError({file, "ENV"}, dir.path()) ==
              "'maybe' is not of type 'boolean' in config['add_sdc_deleted_at']");
    }
    {
        ScopedEnv tables("TAP_DIFFGEN_TABLES", "[{\"table_name\":");
        CHECK(loadError({file, "ENV"}, dir.path()) ==
              "environment variable TAP_DIFFGEN_TABLES is not valid JSON: unexpected end of text");
    }
    {
        ScopedEnv tables("TAP_DIFFGEN_TABLES", "invoices");
        CHECK(loadError({file, "ENV"}, dir.path())
                  .rfind("environment variable TAP_DIFFGEN_TABLES is not valid JSON: ", 0) == 0);
    }
    {
        ScopedEnv tables("TAP_DIFFGEN_TABLES", "\"invoices\"");
        CHECK(loadError({file, "ENV"}, dir.path()) ==
              "'invoices' is not of type 'array' in config['tables']");
    }
    {
        ScopedEnv password("TAP_DIFFGEN_PASSWORD", std::string("se\x01cret"));
        CHECK(loadConfig({file, "ENV"}, dir.path()).connectionOption("password") != nullptr);
    }
}

TEST_CASE("an empty variable counts as unset") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const std::string file = dir.write("c.json", minimalConfig(R"(,"host":"from-file")"));
    dir.write(".env", "TAP_DIFFGEN_HOST=\nTAP_DIFFGEN_PORT=\nTAP_DIFFGEN_USER=dotenv-user\n");
    ScopedEnv user("TAP_DIFFGEN_USER", "");
    const TapConfig config = loadConfig({file, "ENV"}, dir.path());
    CHECK(option(config, "host") == "from-file");
    CHECK(option(config, "port") == "(unset)");
    // A variable set in the environment hides .env even when empty.
    CHECK(option(config, "user") == "(unset)");
}

TEST_CASE(".env statements that cannot be parsed are skipped with a warning") {
    CleanSettingEnvironment clean;
    TempDir dir;
    const std::string file = dir.write("c.json", minimalConfig());
    dir.write(".env", "TAP_DIFFGEN_HOST=ok\n= no key\nTAP_DIFFGEN_USER='unterminated\n");
    const TapConfig config = loadConfig({file, "ENV"}, dir.path());
    CHECK(option(config, "host") == "ok");
    REQUIRE(config.warnings.size() == 2);
    CHECK(config.warnings[0] ==
          "could not parse the statement starting at line 2 of '" + dir.path() + "/.env'");
    CHECK(config.warnings[1] ==
          "could not parse the statement starting at line 3 of '" + dir.path() + "/.env'");
}

TEST_CASE("a .env that cannot be read is an error") {
    CleanSettingEnvironment clean;
    TempDir dir;
    std::filesystem::create_directory(dir.path() + "/.env");
    CHECK(loadError({"ENV"}, dir.path()) ==
          "cannot read .env file '" + dir.path() + "/.env': Is a directory");
}
