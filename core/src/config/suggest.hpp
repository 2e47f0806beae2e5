// "Did you mean" suggestions for misspelt setting names.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapdiffgen::core {

/// Edit distance (insertions, deletions, substitutions) between two byte strings.
std::size_t levenshteinDistance(std::string_view a, std::string_view b);

/// The candidate closest to `unknown` (ignoring case, '-' read as '_') within distance 3 and
/// closer than the length of `unknown`; the first in candidate order on ties.
std::optional<std::string> closestName(std::string_view unknown,
                                       const std::vector<std::string>& candidates);

}  // namespace tapdiffgen::core
