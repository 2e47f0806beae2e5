// Writes docs/settings.md from the settings catalogue:
//   build/bin/tdg-settings-reference > docs/settings.md
#include <iostream>

#include "config/settings_reference.hpp"

int main() {
    std::cout << tapdiffgen::core::settingsReferenceMarkdown();
    return std::cout ? 0 : 1;
}
