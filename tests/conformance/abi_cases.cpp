#include "abi_cases.hpp"

namespace tapdiffgen::conformance {

std::vector<NamedCase> abiCases(const Subject& subject) {
    auto bind = [&subject](std::string (*check)(const Subject&)) {
        return [&subject, check] { return check(subject); };
    };
    return {
        {"abi/info-block", bind(&checkInfoBlock)},
        {"abi/init-unsupported-versions", bind(&checkUnsupportedVersions)},
        {"abi/required-functions", bind(&checkRequiredFunctions)},
        {"abi/null-arguments", bind(&checkNullArguments)},
        {"abi/garbage-options", bind(&checkGarbageOptions)},
        {"abi/close-null", bind(&checkCloseNull)},
    };
}

}  // namespace tapdiffgen::conformance
