// Reading `.env` files the way python-dotenv (and so a Meltano-SDK tap) does: KEY=value lines,
// optional `export`, # comments, single-quoted literals, double-quoted values with backslash
// escapes (both may span lines), and unquoted values ending at " #". No ${VAR} expansion.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tapdiffgen::core {

struct DotenvContents {
    /// In file order; a key given twice appears twice, the later one counts.
    std::vector<std::pair<std::string, std::string>> values;
    /// 1-based numbers of the lines that could not be parsed (skipped, as python-dotenv does).
    std::vector<int> badLines;
};

DotenvContents parseDotenv(std::string_view text);

}  // namespace tapdiffgen::core
