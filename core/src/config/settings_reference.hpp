// docs/settings.md, the reference table of the tap's settings, written from the catalogue's
// descriptors; a test holds the file to it.
#pragma once

#include <string>

namespace tapdiffgen::core {

/// The whole of docs/settings.md.
std::string settingsReferenceMarkdown();

}  // namespace tapdiffgen::core
