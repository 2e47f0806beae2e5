// Horizon marks as the diffgen and horizon checks judge them: with no writer running,
// check_horizon must call every page's mark final within kHorizonSeconds (pending first, with
// a successor mark, is allowed).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::conformance {

// Generous: under a parallel test run another test's transaction may hold a mark back a while.
constexpr int kHorizonSeconds = 60;
constexpr auto kHorizonPoll = std::chrono::milliseconds(100);

struct PageMark {
    std::string page;  // for messages: "page 'limit inside the events'"
    TdgHorizonMark mark;
};

/// All zero: the plugin could not tell.
bool isNoMark(const TdgHorizonMark& mark);

/// "N marks final", "no check_horizon" or "check_horizon cannot tell"; throws CaseFailure when
/// a mark is still pending kHorizonSeconds after the first check.
std::string checkMarksFinal(core::DialectConnection& connection, std::vector<PageMark> marks);

/// Asks check_horizon about `mark` (then its successors) until it answers final, for at most
/// kHorizonSeconds; throws CaseFailure with `pendingMessage` when it does not.
void awaitFinal(core::DialectConnection& connection, TdgHorizonMark mark,
                const std::string& pendingMessage);

}  // namespace tapdiffgen::conformance
