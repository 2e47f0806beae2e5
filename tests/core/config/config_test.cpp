// Validation of a merged config object: the messages users see and the values the engine gets.
#include <doctest/doctest.h>

#include <string>

#include "config/settings.hpp"
#include "config/tap_config.hpp"
#include "config_test_support.hpp"

using namespace tapdiffgen::core;
using tapdiffgen::core::testing::minimalConfig;
using tapdiffgen::core::testing::parseErrorOf;

namespace {

std::string tablesConfig(const std::string& tables, const std::string& extra = "") {
    return R"({"sql_dialect":"postgres","tables":)" + tables + extra + "}";
}

}  // namespace

TEST_CASE("a minimal config gets every default of the catalogue") {
    const TapConfig config = parseConfigObject(minimalConfig());
    const TapConfig untouched;
    CHECK(config.sqlDialect == "postgres");
    REQUIRE(config.tables.size() == 1);
    CHECK(config.tables[0].tableName == "invoices");
    CHECK(config.tables[0].pkColumns == std::vector<std::string>{"id"});
    CHECK(config.tables[0].mode == StreamMode::Full);
    CHECK(config.tables[0].startFrom == StartFrom::Beginning);
    CHECK(config.diffgenTable == untouched.diffgenTable);
    CHECK(config.pageSize == untouched.pageSize);
    CHECK(config.addSdcDeletedAt == untouched.addSdcDeletedAt);
    CHECK(config.logLevel == untouched.logLevel);
    CHECK(config.maxRunSeconds == untouched.maxRunSeconds);
    CHECK(config.onBadEvent == untouched.onBadEvent);
    CHECK(config.horizonSettleSeconds == untouched.horizonSettleSeconds);
    CHECK(config.horizonWaitSeconds == untouched.horizonWaitSeconds);
    CHECK(config.connectTimeout == untouched.connectTimeout);
    CHECK(config.reconnectAttempts == untouched.reconnectAttempts);
    CHECK(config.reconnectMaxWaitSeconds == untouched.reconnectMaxWaitSeconds);
    CHECK(config.warnings.empty());
}

TEST_CASE("the struct defaults are the catalogue defaults") {
    const TapConfig untouched;
    const auto defaultOf = [](const std::string& name) {
        return *findSettingSpec(name)->defaultJson;
    };
    CHECK(defaultOf("diffgen_table") == "\"" + untouched.diffgenTable + "\"");
    CHECK(defaultOf("page_size") == std::to_string(untouched.pageSize));
    CHECK(defaultOf("add_sdc_deleted_at") == (untouched.addSdcDeletedAt ? "true" : "false"));
    CHECK(defaultOf("log_level") == "\"" + untouched.logLevel + "\"");
    CHECK(defaultOf("max_run_seconds") == std::to_string(untouched.maxRunSeconds));
    CHECK(defaultOf("on_bad_event") == "\"fail\"");
    CHECK(untouched.onBadEvent == BadEventPolicy::Fail);
    CHECK(std::stod(defaultOf("horizon_settle_seconds")) == untouched.horizonSettleSeconds);
    CHECK(defaultOf("horizon_wait_seconds") == std::to_string(untouched.horizonWaitSeconds));
    CHECK(defaultOf("connect_timeout") == std::to_string(untouched.connectTimeout));
    CHECK(defaultOf("reconnect_attempts") == std::to_string(untouched.reconnectAttempts));
    CHECK(defaultOf("reconnect_max_wait_seconds") ==
          std::to_string(untouched.reconnectMaxWaitSeconds));
}

TEST_CASE("every setting is read into the config") {
    const TapConfig config = parseConfigObject(tablesConfig(
        R"([{"table_name":"public.a","pk_column":"id","mode":"tombstones_only",
             "start_from":"snapshot"}])",
        R"(,"diffgen_table":"audit.diffgen","page_size":500,"add_sdc_deleted_at":false,
           "log_level":"debug","max_run_seconds":3600,"on_bad_event":"skip",
           "horizon_settle_seconds":2.5,"horizon_wait_seconds":7,"connect_timeout":3,
           "reconnect_attempts":0,"reconnect_max_wait_seconds":4)"));
    CHECK(config.tables[0].tableName == "public.a");
    CHECK(config.tables[0].mode == StreamMode::TombstonesOnly);
    CHECK(config.tables[0].startFrom == StartFrom::Snapshot);
    CHECK(config.diffgenTable == "audit.diffgen");
    CHECK(config.pageSize == 500);
    CHECK_FALSE(config.addSdcDeletedAt);
    CHECK(config.logLevel == "debug");
    CHECK(config.maxRunSeconds == 3600);
    CHECK(config.onBadEvent == BadEventPolicy::Skip);
    CHECK(config.horizonSettleSeconds == 2.5);
    CHECK(config.horizonWaitSeconds == 7);
    CHECK(config.connectTimeout == 3);
    CHECK(config.reconnectAttempts == 0);
    CHECK(config.reconnectMaxWaitSeconds == 4);
}

TEST_CASE("required settings are named when missing") {
    CHECK(parseErrorOf(R"({"tables":[{"table_name":"a","pk_column":"id"}]})") ==
          "'sql_dialect' is a required property");
    CHECK(parseErrorOf(R"({"sql_dialect":"postgres"})") == "'tables' is a required property");
    CHECK(parseErrorOf("{}") == "'sql_dialect' is a required property");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"a"}])")) ==
          "'pk_column' is a required property in config['tables'][0]");
    CHECK(
        parseErrorOf(tablesConfig(R"([{"table_name":"a","pk_column":"id"},{"pk_column":"id"}])")) ==
        "'table_name' is a required property in config['tables'][1]");
}

TEST_CASE("wrong types show the value as Python would") {
    CHECK(parseErrorOf(minimalConfig(R"(,"port":"abc")")) ==
          "'abc' is not of type 'integer' in config['port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"port":true)")) ==
          "True is not of type 'integer' in config['port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"add_sdc_deleted_at":"false")")) ==
          "'false' is not of type 'boolean' in config['add_sdc_deleted_at']");
    CHECK(parseErrorOf(minimalConfig(R"(,"add_sdc_deleted_at":0)")) ==
          "0 is not of type 'boolean' in config['add_sdc_deleted_at']");
    CHECK(parseErrorOf(minimalConfig(R"(,"port":1.5)")) ==
          "1.5 is not of type 'integer' in config['port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"host":[1,"a",null,false])")) ==
          "[1, 'a', None, False] is not of type 'string' in config['host']");
    CHECK(parseErrorOf(minimalConfig(R"(,"host":{"name":"db","port":5})")) ==
          "{'name': 'db', 'port': 5} is not of type 'string' in config['host']");
    CHECK(parseErrorOf(minimalConfig(R"(,"port":"it's")")) ==
          "\"it's\" is not of type 'integer' in config['port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"horizon_settle_seconds":"10")")) ==
          "'10' is not of type 'number' in config['horizon_settle_seconds']");
    CHECK(parseErrorOf(R"({"sql_dialect":null,"tables":[]})") ==
          "None is not of type 'string' in config['sql_dialect']");
    CHECK(parseErrorOf(tablesConfig(R"({"table_name":"a","pk_column":"id"})")) ==
          "{'table_name': 'a', 'pk_column': 'id'} is not of type 'array' in config['tables']");
}

TEST_CASE("long values are shortened in messages") {
    std::string longArray = "[";
    for (int i = 0; i < 200; ++i) longArray += std::to_string(i) + ",";
    longArray += "200]";
    const std::string message = parseErrorOf(minimalConfig(",\"host\":" + longArray));
    CHECK(message.rfind("[0, 1, 2, 3, ", 0) == 0);
    CHECK(message.find("... is not of type 'string' in config['host']") != std::string::npos);
    CHECK(message.size() < 130);
}

TEST_CASE("nested type errors name the full path") {
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"a","pk_column":5}])")) ==
          "5 is not of type 'string' in config['tables'][0]['pk_column']");
    CHECK(parseErrorOf(tablesConfig(R"(["invoices"])")) ==
          "'invoices' is not of type 'object' in config['tables'][0]");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"a","pk_column":"id","mode":null}])")) ==
          "(no error)");
}

TEST_CASE("enumerated settings list the allowed values") {
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"a","pk_column":"id","mode":"fulll"}])")) ==
          "'fulll' is not one of ['full', 'tombstones_only'] in config['tables'][0]['mode']");
    CHECK(
        parseErrorOf(tablesConfig(R"([{"table_name":"a","pk_column":"id","start_from":"now"}])")) ==
        "'now' is not one of ['beginning', 'snapshot', 'when_needed'] in "
        "config['tables'][0]['start_from']");
    CHECK(parseErrorOf(minimalConfig(R"(,"log_level":"INFO")")) ==
          "'INFO' is not one of ['debug', 'info', 'warning', 'error'] in config['log_level']");
    CHECK(parseErrorOf(minimalConfig(R"(,"on_bad_event":"ignore")")) ==
          "'ignore' is not one of ['fail', 'skip'] in config['on_bad_event']");
}

TEST_CASE("pk_column is a column name or a list of them for a composite key") {
    const TapConfig config = parseConfigObject(tablesConfig(
        R"([{"table_name":"lines","pk_column":["order_id","line_no"]},
            {"table_name":"invoices","pk_column":"id"}])"));
    CHECK(config.tables[0].pkColumns == std::vector<std::string>{"order_id", "line_no"});
    CHECK(config.tables[1].pkColumns == std::vector<std::string>{"id"});
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"lines","pk_column":[]}])")) ==
          "[] should be non-empty in config['tables'][0]['pk_column']");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"lines","pk_column":["a",1]}])")) ==
          "1 is not of type 'string' in config['tables'][0]['pk_column'][1]");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"lines","pk_column":["a","a"]}])")) ==
          "'a' is listed twice in config['tables'][0]['pk_column']");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"lines","pk_column":["a",""]}])")) ==
          "'' should be non-empty in config['tables'][0]['pk_column']");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"lines","pk_column":7}])")) ==
          "7 is not of type 'string' in config['tables'][0]['pk_column']");
}

TEST_CASE("tables must not be empty nor name a table twice") {
    CHECK(parseErrorOf(tablesConfig("[]")) == "[] should be non-empty in config['tables']");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"invoices","pk_column":"id"},
                                   {"table_name":"orders","pk_column":"id"},
                                   {"table_name":"invoices","pk_column":"no"}])")) ==
          "table 'invoices' is configured twice in config['tables']");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"invoices","pk_column":"id"},
                                   {"table_name":"public.invoices","pk_column":"id"}])")) ==
          "tables 'invoices' and 'public.invoices' both read journal name 'invoices' (set "
          "journal_name to what each table's trigger writes) in config['tables'][1]");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"invoices","pk_column":"id"},
                                   {"table_name":"public.invoices","pk_column":"id",
                                    "journal_name":"public.invoices"}])")) == "(no error)");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"invoices","pk_column":"id",
                                    "journal_name":""}])")) ==
          "'' should be non-empty in config['tables'][0]['journal_name']");
}

TEST_CASE("two tables that would become one stream are refused") {
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"a.b","pk_column":"id"},
                                   {"table_name":"a-b","pk_column":"id"}])")) ==
          "tables 'a.b' and 'a-b' both become stream 'a-b' in config['tables'][1]");
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"a.b","pk_column":"id"},
                                   {"table_name":"a_b","pk_column":"id"}])")) == "(no error)");
}

TEST_CASE("numeric limits") {
    CHECK(parseErrorOf(minimalConfig(R"(,"page_size":0)")) ==
          "0 is less than the minimum of 1 in config['page_size']");
    CHECK(parseErrorOf(minimalConfig(R"(,"port":70000)")) ==
          "70000 is greater than the maximum of 65535 in config['port']");
    CHECK(parseErrorOf(minimalConfig(R"(,"horizon_settle_seconds":-0.5)")) ==
          "-0.5 is less than the minimum of 0 in config['horizon_settle_seconds']");
    CHECK(parseErrorOf(minimalConfig(R"(,"page_size":18446744073709551615)")) ==
          "18446744073709551615 is greater than the maximum of 9223372036854775807 in "
          "config['page_size']");
    CHECK(parseErrorOf(minimalConfig(R"(,"max_run_seconds":1e30)")) ==
          "1e+30 is greater than the maximum of 9223372036854775807 in "
          "config['max_run_seconds']");
    CHECK(parseConfigObject(minimalConfig(R"(,"page_size":3.0)")).pageSize == 3);
    CHECK(parseConfigObject(minimalConfig(R"(,"horizon_settle_seconds":4)")).horizonSettleSeconds ==
          4.0);
}

TEST_CASE("max_page_size: 0 is three times page_size, and it may not be less than page_size") {
    const TapConfig untouched;
    CHECK(untouched.maxPageSize == 3 * untouched.pageSize);
    CHECK(parseConfigObject(minimalConfig("")).maxPageSize == 30000);
    CHECK(parseConfigObject(minimalConfig(R"(,"page_size":500)")).maxPageSize == 1500);
    CHECK(parseConfigObject(minimalConfig(R"(,"page_size":500,"max_page_size":500)")).maxPageSize ==
          500);
    CHECK(parseConfigObject(minimalConfig(R"(,"max_page_size":100000)")).maxPageSize == 100000);
    CHECK(parseConfigObject(minimalConfig(R"(,"page_size":9223372036854775807)")).maxPageSize ==
          9223372036854775807);
    CHECK(parseErrorOf(minimalConfig(R"(,"page_size":500,"max_page_size":499)")) ==
          "'max_page_size' (499) is less than 'page_size' (500); give at least page_size, or 0 "
          "for three times page_size");
    CHECK(parseErrorOf(minimalConfig(R"(,"max_page_size":-1)")) ==
          "-1 is less than the minimum of 0 in config['max_page_size']");
}

TEST_CASE(
    "max_page_size: 0 lets pages over many tables grow to four times page_size, a given "
    "one does not") {
    const TapConfig untouched;
    CHECK(untouched.widestPageSize == 4 * untouched.pageSize);
    CHECK(parseConfigObject(minimalConfig("")).widestPageSize == 40000);
    CHECK(parseConfigObject(minimalConfig(R"(,"page_size":500)")).widestPageSize == 2000);
    CHECK(parseConfigObject(minimalConfig(R"(,"max_page_size":20000)")).widestPageSize == 20000);
    CHECK(parseConfigObject(minimalConfig(R"(,"page_size":500,"max_page_size":500)"))
              .widestPageSize == 500);
    CHECK(parseConfigObject(minimalConfig(R"(,"page_size":9223372036854775807)")).widestPageSize ==
          9223372036854775807);
}

TEST_CASE("table names are name or schema.name") {
    for (const std::string bad : {"a..b", ".a", "a.", "a.b.c", "", "."}) {
        CAPTURE(bad);
        CHECK(parseErrorOf(tablesConfig(R"([{"table_name":")" + bad + R"(","pk_column":"id"}])")) ==
              "'" + bad + "' is not a valid table name in config['tables'][0]['table_name']");
        CHECK(parseErrorOf(minimalConfig(R"(,"diffgen_table":")" + bad + "\"")) ==
              "'" + bad + "' is not a valid table name in config['diffgen_table']");
    }
    CHECK(parseErrorOf(tablesConfig(R"([{"table_name":"a","pk_column":""}])")) ==
          "'' should be non-empty in config['tables'][0]['pk_column']");
    CHECK(parseErrorOf(minimalConfig(R"(,"diffgen_table":"audit.log")")) == "(no error)");
}

TEST_CASE("sql_dialect is a name or an absolute path") {
    CHECK(parseErrorOf(R"({"sql_dialect":"","tables":[{"table_name":"a","pk_column":"id"}]})") ==
          "'' should be non-empty in config['sql_dialect']");
    CHECK(parseErrorOf(
              R"({"sql_dialect":"plugins/x.so","tables":[{"table_name":"a","pk_column":"i"}]})") ==
          "'plugins/x.so' is neither a dialect name nor an absolute path in config['sql_dialect']");
    CHECK(parseConfigObject(
              R"({"sql_dialect":"/opt/x.so","tables":[{"table_name":"a","pk_column":"i"}]})")
              .sqlDialect == "/opt/x.so");
}

TEST_CASE("unknown settings warn with the closest known name") {
    const TapConfig config = parseConfigObject(
        tablesConfig(R"([{"table_name":"a","pk_colum":"id","pk_column":"id","moode":"full"}])",
                     R"(,"hots":"db","PAGE_SIZE":5,"zzzzzzzzzzzz":1)"));
    REQUIRE(config.warnings.size() == 5);
    CHECK(config.warnings[0] ==
          "unknown key 'pk_colum' in config['tables'][0] (did you mean 'pk_column'?)");
    CHECK(config.warnings[1] ==
          "unknown key 'moode' in config['tables'][0] (did you mean 'mode'?)");
    CHECK(config.warnings[2] == "unknown setting 'hots' in config (did you mean 'host'?)");
    CHECK(config.warnings[3] ==
          "unknown setting 'PAGE_SIZE' in config (did you mean 'page_size'?)");
    CHECK(config.warnings[4] == "unknown setting 'zzzzzzzzzzzz' in config");
}

TEST_CASE("the password never appears in a message") {
    const std::string secret = "hunter2-s3cr3t";
    const std::vector<std::string> badPasswords = {
        "12345678",
        "[\"" + secret + "\"]",
        "{\"p\":\"" + secret + "\"}",
        "\"" + secret + "\\u0000x\"",
    };
    for (const auto& password : badPasswords) {
        CAPTURE(password);
        const std::string message = parseErrorOf(minimalConfig(",\"password\":" + password));
        CHECK(message.find(secret) == std::string::npos);
        CHECK(message.find("12345678") == std::string::npos);
        CHECK(message.find("'***'") != std::string::npos);
        CHECK(message.find("in config['password']") != std::string::npos);
    }
    CHECK(parseErrorOf(minimalConfig(R"(,"password":12345678)")) ==
          "'***' is not of type 'string' in config['password']");
    const TapConfig config = parseConfigObject(minimalConfig(R"(,"pasword":"x")"));
    CHECK(config.warnings.at(0) ==
          "unknown setting 'pasword' in config (did you mean 'password'?)");
}

// Read as for a plugin that declares no settings (plugin_settings_test.cpp has the others).
TEST_CASE("connection options carry what the driver needs, as text") {
    const TapConfig config = parseConfigObject(minimalConfig(
        R"(,"application_name":"etl","host":"db.example","page_size":50,"password":"pw",
           "port":5433,"ssl_mode":"require","user":"tap","database":"shop",
           "keepalives":true,"nested":{"a":1},"list":[1],"nothing":null,"ratio":0.5,
           "ssl_root_cert":"/etc/ca.pem")"));
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"sql_dialect", "postgres"},
        {"host", "db.example"},
        {"port", "5433"},
        {"user", "tap"},
        {"password", "pw"},
        {"database", "shop"},
        {"connect_timeout", "10"},
        {"application_name", "etl"},
        {"ssl_mode", "require"},
        {"keepalives", "true"},
        {"ratio", "0.5"},
        {"ssl_root_cert", "/etc/ca.pem"},
    };
    CHECK(config.connectionOptions == expected);
    REQUIRE(config.connectionOption("host") != nullptr);
    CHECK(*config.connectionOption("host") == "db.example");
    CHECK(config.connectionOption("ssl_cert") == nullptr);
}

TEST_CASE("a null optional setting counts as not given") {
    const TapConfig config =
        parseConfigObject(minimalConfig(R"(,"port":null,"page_size":null,"host":null)"));
    CHECK(config.connectionOption("port") == nullptr);
    CHECK(config.connectionOption("host") == nullptr);
    CHECK(config.pageSize == 10000);
}

TEST_CASE("config text that is not an object") {
    CHECK(parseErrorOf("[1]") == "config must contain a JSON object");
    CHECK(parseErrorOf("12") == "config must contain a JSON object");
    CHECK(parseErrorOf("{\"a\":") == "config is not valid JSON: unexpected end of text");
}
