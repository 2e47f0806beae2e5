// The ABI-level cases: what every plugin must do with no database at all. They call the C
// function table directly, including with arguments the engine never passes.
#pragma once

#include <string>
#include <vector>

#include "isolated_run.hpp"
#include "subject.hpp"

namespace tapdiffgen::conformance {

struct NamedCase {
    std::string name;
    CaseBody body;
};

std::vector<NamedCase> abiCases(const Subject& subject);

// One function per case (abi_*.cpp).
std::string checkInfoBlock(const Subject& subject);
std::string checkUnsupportedVersions(const Subject& subject);
std::string checkRequiredFunctions(const Subject& subject);
std::string checkNullArguments(const Subject& subject);
std::string checkGarbageOptions(const Subject& subject);
std::string checkCloseNull(const Subject& subject);

}  // namespace tapdiffgen::conformance
