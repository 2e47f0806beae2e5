// check "connect-error" and check "missing-table": failures must carry the status that lets
// the tap tell the user what to fix, and never the password.
//
//   {"check": "connect-error", "options": {"password": "wrong"}, "status": "UNAUTHENTICATED"}
//   {"check": "missing-table", "table": "tdg_conf_no_such_table", "status": "NOT_FOUND",
//    "calls": ["describe_table", "scan_table", "fetch_rows", "read_diffgen_page",
//              "max_diffgen_id"]}
#include <functional>
#include <map>

#include "abi_error.hpp"
#include "case_result.hpp"
#include "expected_json.hpp"
#include "live_cases.hpp"
#include "live_connection.hpp"

namespace tapdiffgen::conformance {
namespace {

using Poco::JSON::Object;
using Call = std::function<void(core::DialectConnection&, const core::TableRef&)>;

const std::map<std::string, Call>& calls() {
    static const std::map<std::string, Call> table = {
        {"describe_table",
         [](core::DialectConnection& c, const core::TableRef& t) { c.describeTable(t); }},
        {"scan_table",
         [](core::DialectConnection& c, const core::TableRef& t) {
             c.scanTable(t, {"id"}, "id", 0, [](const TdgRowBatch&) {});
         }},
        {"fetch_rows",
         [](core::DialectConnection& c, const core::TableRef& t) {
             c.fetchRows(t, {"id"}, "id", {"1"}, [](const TdgRowBatch&) {});
         }},
        {"read_diffgen_page",
         [](core::DialectConnection& c, const core::TableRef& t) {
             c.readDiffgenPage(t, 0, INT64_MAX, 10, {"alpha"});
         }},
        {"max_diffgen_id",
         [](core::DialectConnection& c, const core::TableRef& t) { c.maxDiffgenId(t); }},
    };
    return table;
}

OptionList optionsOf(const Object::Ptr& object) {
    OptionList options;
    if (object.isNull()) return options;
    for (const auto& [key, value] : *object) options.emplace_back(key, value.toString());
    return options;
}

}  // namespace

std::string checkConnectError(const LiveContext& context, const CaseFiles& files) {
    const OptionList changes = optionsOf(files.expected->getObject("options"));
    const TdgStatus expected = statusFromName(textOf(files.expected, "status"));
    LiveContext changed = context;
    changed.options = withOptions(*context.options, changes);
    try {
        core::DialectConnection connection(context.subject->plugin, *changed.options);
    } catch (const core::DialectError& failure) {
        require(failure.status() == expected, "connect failed with " + describeError(failure) +
                                                  ", expected " + describeStatus(expected));
        std::string message = failure.what();
        for (const auto& [key, value] : changes) {
            require(key != "password" || message.find(value) == std::string::npos,
                    "the error message contains the password: " + message);
        }
        return describeError(failure);
    }
    throw CaseFailure("connect succeeded with the changed options");
}

std::string checkMissingTable(const LiveContext& context, const CaseFiles& files) {
    const core::TableRef table{"", textOf(files.expected, "table")};
    const TdgStatus expected = statusFromName(textOf(files.expected, "status"));
    auto connection = openConnection(context);
    std::vector<std::string> names = stringsOf(arrayOf(files.expected, "calls"));
    for (const std::string& name : names) {
        auto call = calls().find(name);
        require(call != calls().end(), "expected.json: unknown call '" + name + "'");
        try {
            call->second(*connection, table);
        } catch (const core::DialectError& failure) {
            require(failure.status() == expected, name + " failed with " + describeError(failure) +
                                                      ", expected " + describeStatus(expected));
            require(std::string(failure.what()).find(table.name) != std::string::npos,
                    name + ": the message does not name the table: " + failure.what());
            continue;
        }
        throw CaseFailure(name + " succeeded on a table that does not exist");
    }
    return std::to_string(names.size()) + " calls failed with " + describeStatus(expected);
}

}  // namespace tapdiffgen::conformance
