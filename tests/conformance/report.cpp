#include "report.hpp"

namespace tapdiffgen::conformance {
namespace {

const char* label(Outcome outcome) {
    switch (outcome) {
        case Outcome::Ok:
            return "ok";
        case Outcome::Skip:
            return "skip";
        default:
            return "FAIL";
    }
}

// One case is one line, whatever a plugin's message contains.
std::string oneLine(std::string text) {
    for (char& c : text) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return text;
}

}  // namespace

void Report::add(const std::string& caseName, const CaseResult& result) {
    if (result.outcome == Outcome::Ok) ++passed_;
    if (result.outcome == Outcome::Fail) ++failed_;
    out_ << label(result.outcome) << " " << caseName << ": " << oneLine(result.detail) << "\n"
         << std::flush;
}

void Report::finish() {
    out_ << "conformance: " << passed_ << " passed, " << failed_ << " failed\n" << std::flush;
}

}  // namespace tapdiffgen::conformance
