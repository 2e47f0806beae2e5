// The Singer catalog: what --discover prints, and how a --catalog file selects streams and
// columns (Meltano writes "selected" into the metadata of the catalog it got from --discover).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "util/tap_error.hpp"

namespace tapdiffgen::core {

class CatalogError : public TapError {
public:
    explicit CatalogError(const std::string& message)
        : TapError(ErrorKind::Configuration, message) {}
};

/// {"streams":[...]} with SDK-shaped metadata for every configured stream.
std::string catalogJson(const std::vector<StreamDefinition>& streams);

/// Throws CatalogError when `catalogText` is not a catalog document at all.
void checkCatalogSyntax(const std::string& catalogText, const std::string& source);

/// Applies the selection in a catalog document to `streams`: a stream absent from the catalog
/// is not selected; a catalog stream that is not configured is an error naming it. Selection
/// rules: inclusion automatic → selected; else "selected", else "selected-by-default", else
/// the stream's own selection.
void applyCatalogSelection(const std::string& catalogText, const std::string& source,
                           std::vector<StreamDefinition>& streams);

}  // namespace tapdiffgen::core
