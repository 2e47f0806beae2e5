#include "live_connection.hpp"

#include <iostream>

#include "case_result.hpp"

namespace tapdiffgen::conformance {

std::unique_ptr<core::DialectConnection> openConnection(const LiveContext& context) {
    auto log = [](int level, const std::string& message) {
        if (level >= TDG_LOG_WARNING) std::cerr << "plugin: " << message << "\n";
    };
    try {
        return std::make_unique<core::DialectConnection>(context.subject->plugin, *context.options,
                                                         log);
    } catch (const core::DialectError& failure) {
        throw CaseFailure("cannot connect to the live database: " + describeError(failure));
    }
}

std::string describeError(const core::DialectError& error) {
    return std::string(core::statusName(error.status())) + ": " + error.what();
}

}  // namespace tapdiffgen::conformance
