#include "live_connection.hpp"

#include <iostream>

#include "abi_error.hpp"
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

std::unique_ptr<core::DialectConnection> openConnection(const LiveContext& context,
                                                        const CaseFiles& files) {
    return openConnection(context, files, {});
}

std::unique_ptr<core::DialectConnection> openConnection(const LiveContext& context,
                                                        const CaseFiles& files,
                                                        const OptionList& more) {
    Poco::JSON::Object::Ptr options = files.expected->getObject("options");
    if (options.isNull() && more.empty()) return openConnection(context);
    OptionList extra;
    if (!options.isNull()) {
        for (const auto& [key, value] : *options) extra.emplace_back(key, value.toString());
    }
    LiveContext changed = context;
    changed.options = withOptions(withOptions(*context.options, extra), more);
    return openConnection(changed);
}

TdgConnection* connectRaw(const LiveContext& context, const TdgDriver& driver) {
    std::vector<TdgOption> options;
    for (const auto& [key, value] : *context.options)
        options.push_back({key.c_str(), value.c_str()});
    TdgConnectParams params{};
    params.struct_size = sizeof(params);
    params.num_options = static_cast<int32_t>(options.size());
    params.options = options.data();
    TdgConnection* connection = nullptr;
    TdgError error{};
    TdgStatus status = driver.connect(&params, &connection, &error);
    std::string message = takeErrorMessage(error);
    require(status == TDG_OK, "cannot connect: " + describeStatus(status) + ": " + message);
    return connection;
}

std::string describeError(const core::DialectError& error) {
    return std::string(core::statusName(error.status())) + ": " + error.what();
}

}  // namespace tapdiffgen::conformance
