// A connection to the live database through the engine's own DialectConnection, so each case
// exercises the plugin exactly as the tap does.
#pragma once

#include <memory>

#include "live_cases.hpp"
#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::conformance {

/// Connects with the context's options; a failure is the case's failure.
std::unique_ptr<core::DialectConnection> openConnection(const LiveContext& context);

/// The same with the case's "options" (expected.json) added to the context's: a channel to
/// listen on, or a plugin's own page size in its expected.<name>.json.
std::unique_ptr<core::DialectConnection> openConnection(const LiveContext& context,
                                                        const CaseFiles& files);

/// The same with `more` added on top of the case's options.
std::unique_ptr<core::DialectConnection> openConnection(const LiveContext& context,
                                                        const CaseFiles& files,
                                                        const OptionList& more);

/// Connects through `driver` (the plugin's table, or one filled for an older revision) without
/// the engine's wrapper, for cases that pass what the engine never would. The caller closes it
/// with driver.close.
TdgConnection* connectRaw(const LiveContext& context, const TdgDriver& driver);

/// "NOT_FOUND: table 'x' does not exist" for messages.
std::string describeError(const core::DialectError& error);

}  // namespace tapdiffgen::conformance
