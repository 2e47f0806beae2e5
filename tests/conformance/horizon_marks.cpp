#include "horizon_marks.hpp"

#include <thread>

#include "case_result.hpp"

namespace tapdiffgen::conformance {

bool isNoMark(const TdgHorizonMark& mark) {
    for (int64_t word : mark.words) {
        if (word != 0) return false;
    }
    return true;
}

void awaitFinal(core::DialectConnection& connection, TdgHorizonMark mark,
                const std::string& pendingMessage) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kHorizonSeconds);
    for (;;) {
        std::optional<bool> final = connection.checkHorizon(mark);
        require(final.has_value(), "check_horizon stopped answering after it answered pending");
        if (*final) return;
        require(
            std::chrono::steady_clock::now() < deadline,
            pendingMessage + " (still pending after " + std::to_string(kHorizonSeconds) + " s)");
        std::this_thread::sleep_for(kHorizonPoll);
    }
}

std::string checkMarksFinal(core::DialectConnection& connection, std::vector<PageMark> marks) {
    if (connection.plugin().driver().check_horizon == nullptr) return "no check_horizon";
    size_t checked = 0;
    for (PageMark& page : marks) {
        if (isNoMark(page.mark)) continue;
        if (!connection.checkHorizon(page.mark)) return "check_horizon cannot tell";
        awaitFinal(connection, page.mark,
                   page.page + ": check_horizon answers pending with no writer running");
        ++checked;
    }
    return std::to_string(checked) + " marks final";
}

}  // namespace tapdiffgen::conformance
