// abi/garbage-options and abi/close-null: the two connection calls that need no server.
#include "abi_cases.hpp"
#include "abi_error.hpp"
#include "case_result.hpp"

namespace tapdiffgen::conformance {
namespace {

// Distinctive enough that finding it in a message can only mean the password leaked.
constexpr const char* kSecret = "conformance-secret-7d1f";

}  // namespace

std::string checkGarbageOptions(const Subject& subject) {
    const std::string dialect = subject.plugin->dialect();
    const TdgOption options[] = {
        {"sql_dialect", dialect.c_str()}, {"host", "127.0.0.1"}, {"port", "abc"},
        {"user", "conformance"},          {"password", kSecret}, {"database", "conformance"},
        {"connect_timeout", "2"}};
    TdgConnectParams params{};
    params.struct_size = sizeof(params);
    params.num_options = static_cast<int32_t>(sizeof(options) / sizeof(options[0]));
    params.options = options;
    TdgConnection* connection = nullptr;
    TdgError error{};
    TdgStatus status = subject.driver().connect(&params, &connection, &error);
    std::string message = takeErrorMessage(error);
    if (status == TDG_OK) subject.driver().close(connection);
    require(status != TDG_OK, "connect accepted port \"abc\"");
    require(connection == nullptr, "connect failed but set the connection");
    require(!message.empty(), "connect failed without an error message");
    require(message.find(kSecret) == std::string::npos,
            "the error message contains the password: " + message);
    return describeStatus(status) + ": " + message;
}

std::string checkCloseNull(const Subject& subject) {
    subject.driver().close(nullptr);
    return "close(NULL) returned";
}

}  // namespace tapdiffgen::conformance
