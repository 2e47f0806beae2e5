// inspect_journal from information_schema: what hands out diffgen.id (its AUTO_INCREMENT, or a
// MariaDB SEQUENCE its DEFAULT takes NEXT VALUE FOR), the foreign keys whose ON DELETE / ON
// UPDATE actions change a configured table's rows without firing its triggers (InnoDB runs
// them inside the engine), and (when asked) the journal triggers with the name they write. A
// partition is no table of its own here (triggers fire with the table's name), so none are
// listed.
#pragma once

#include <optional>
#include <string_view>

#include "catalog.hpp"
#include "horizon.hpp"
#include "session.hpp"
#include "tap-diffgen/sdk/journal_facts.hpp"

namespace tapdiffgen::mysql {

/// The sequence a column DEFAULT takes NEXT VALUE FOR, as information_schema.COLUMNS shows
/// that default ("nextval(`db`.`s`)"); nullopt for any other default.
std::optional<sdk::TableName> sequenceOfDefault(std::string_view columnDefault);

/// The id source and its cache, bypassing foreign keys and journal triggers, in one text query
/// for the id source and one per schema and thousand tables, plus INNODB_SYS_FOREIGN once when
/// information_schema hides foreign keys' actions. `horizon` says whether INNODB_TRX (and with
/// it INNODB_SYS_FOREIGN) is readable; its problem is the inspection's horizon problem.
sdk::JournalInspection inspectJournal(Session& session, const Catalog& catalog,
                                      HorizonCheck& horizon, const sdk::JournalRequest& request);

}  // namespace tapdiffgen::mysql
