#include "support/tap_output.hpp"

#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <sstream>

namespace tapdiffgen::testing {

void TapRun::setOutput(const std::string& out, const std::string& err) {
    std::stringstream stream(out);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    stderrText = err;
}

std::vector<Poco::JSON::Object::Ptr> TapRun::messages(const std::string& type) const {
    std::vector<Poco::JSON::Object::Ptr> found;
    for (const auto& line : lines) {
        Poco::JSON::Parser parser;
        auto message = parser.parse(line).extract<Poco::JSON::Object::Ptr>();
        if (message->getValue<std::string>("type") == type) found.push_back(message);
    }
    return found;
}

std::vector<Poco::JSON::Object::Ptr> TapRun::records(const std::string& stream) const {
    std::vector<Poco::JSON::Object::Ptr> found;
    for (const auto& message : messages("RECORD")) {
        if (message->getValue<std::string>("stream") == stream) {
            found.push_back(message->getObject("record"));
        }
    }
    return found;
}

std::string TapRun::applyAsTarget(
    const std::string& stream, const std::function<void(const Poco::JSON::Object::Ptr&)>& onRecord,
    std::string state) const {
    for (const auto& line : lines) {
        Poco::JSON::Object::Ptr message;
        try {
            message = Poco::JSON::Parser().parse(line).extract<Poco::JSON::Object::Ptr>();
        } catch (const Poco::Exception&) {
            break;  // the line a kill cut short: a target would discard it
        }
        const std::string type = message->getValue<std::string>("type");
        if (type == "STATE") {
            std::ostringstream value;
            message->getObject("value")->stringify(value);
            state = value.str();
        } else if (type == "RECORD" && message->getValue<std::string>("stream") == stream) {
            onRecord(message->getObject("record"));
        }
    }
    return state;
}

std::string TapRun::lastState() const {
    auto states = messages("STATE");
    if (states.empty()) return "";
    std::ostringstream out;
    Poco::JSON::Stringifier::condense(states.back()->get("value"), out);
    return out.str();
}

std::vector<std::string> TapRun::errorMessages() const {
    const std::string source = "| tap-diffgen | ";
    std::vector<std::string> found;
    std::istringstream stream(stderrText);
    for (std::string line; std::getline(stream, line);) {
        if (line.find("| ERROR") == std::string::npos) continue;
        const size_t at = line.find(source);
        found.push_back(at == std::string::npos ? line : line.substr(at + source.size()));
    }
    return found;
}

std::optional<int64_t> TapRun::lastBookmark(const std::string& stream) const {
    auto states = messages("STATE");
    if (states.empty()) return std::nullopt;
    return states.back()
        ->getObject("value")
        ->getObject("bookmarks")
        ->getObject(stream)
        ->getValue<int64_t>("replication_key_value");
}

std::vector<std::string> TapRun::recordsAndStates() const {
    std::vector<std::string> out;
    for (const std::string& line : lines) {
        if (line.find(R"("type":"RECORD")") == std::string::npos &&
            line.find(R"("type":"STATE")") == std::string::npos) {
            continue;
        }
        std::string kept = line;
        const std::string member = R"(,"time_extracted":")";
        size_t at = kept.find(member);
        if (at != std::string::npos) {
            kept.erase(at, kept.find('"', at + member.size()) + 1 - at);
        }
        out.push_back(kept);
    }
    return out;
}

}  // namespace tapdiffgen::testing
