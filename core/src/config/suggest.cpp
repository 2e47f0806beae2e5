#include "config/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace tapdiffgen::core {

namespace {

std::string normalized(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    for (const char c : name) {
        out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

}  // namespace

std::size_t levenshteinDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> previous(b.size() + 1);
    std::vector<std::size_t> current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::optional<std::string> closestName(std::string_view unknown,
                                       const std::vector<std::string>& candidates) {
    constexpr std::size_t kMaxDistance = 3;
    const std::string wanted = normalized(unknown);
    std::optional<std::string> best;
    std::size_t bestDistance = kMaxDistance + 1;
    for (const auto& candidate : candidates) {
        const std::size_t distance = levenshteinDistance(wanted, normalized(candidate));
        // A distance as large as the word itself means nothing of it survived.
        if (distance < bestDistance && distance < wanted.size()) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

}  // namespace tapdiffgen::core
