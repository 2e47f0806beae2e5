// Horizon marks. A diffgen id can appear below ids already read when the transaction that
// allocated it commits later. A mark is the first transaction id not yet assigned when the
// page's snapshot was taken (not the snapshot's xmax: that is only the newest completed xid
// plus one, and running transactions above it are not listed anywhere in the snapshot). Every
// transaction that could still commit rows into the page's range had an xid below the mark,
// or had none yet.
//
//   phase 1 {1, next}: once the oldest running xid (current snapshot xmin) is >= next, every
//     transaction that had an xid at mark time has ended. One that had already taken its
//     diffgen id from the sequence but not yet an xid (nextval does not assign one) got its xid
//     after the mark; so the check moves on to {2, the current next xid} and reports pending.
//   phase 2 {2, next2}: final once the oldest running xid is >= next2, i.e. everything that
//     had an xid when phase 1 completed has ended too.
// What remains uncovered is a transaction still without an xid when phase 1 completes, i.e.
// one that has spent the whole phase-1 wait between nextval and its INSERT.
//
// The next xid is read without assigning one, so the session stays read-only: age(xid) counts
// from the next xid when the transaction has none, so xmax + age(xmax as a 32-bit xid) is the
// 64-bit next xid.
#include "diffgen.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "array_literal.hpp"
#include "binary_values.hpp"
#include "journal.hpp"
#include "statement.hpp"
#include "tap-diffgen/sdk/errors.hpp"
#include "tap-diffgen/sdk/values.hpp"
#include "types.hpp"

namespace tapdiffgen::postgres {
namespace {

constexpr int64_t kPhaseFirst = 1;
constexpr int64_t kPhaseSecond = 2;

// SQL over a snapshot named `s`. pg_snapshot appeared in PostgreSQL 13; txid_snapshot holds
// the same 64-bit xids before.
struct SnapshotSql {
    std::string current;  // the snapshot, as a FROM item
    std::string xmin;     // the oldest running xid, int8
    std::string nextXid;  // the first unassigned xid, int8
};

SnapshotSql snapshotSql(const Session& session) {
    bool modern = session.serverVersionNumber() >= 130000;
    std::string prefix = modern ? "pg_catalog.pg_snapshot_" : "pg_catalog.txid_snapshot_";
    std::string xmax = prefix + "xmax(s)::text::int8";
    return {modern ? "pg_catalog.pg_current_snapshot() s" : "pg_catalog.txid_current_snapshot() s",
            prefix + "xmin(s)::text::int8",
            xmax + " + pg_catalog.age((" + xmax + " % 4294967296)::text::xid)"};
}

int64_t parseInt64(std::string_view text, const char* what) {
    int64_t value = 0;
    auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size()) {
        throw sdk::DriverError(TDG_INVALID_DATA,
                               std::string(what) + " is not an integer: " + std::string(text));
    }
    return value;
}

// A page's scan, @columns@ of its events in id order. @names@ is the configured tables' names
// as one array literal: the session plans generically (session.cpp), and only a constant array
// lets the planner test a row's table name against a hash of them rather than against every
// name in turn (12 ms instead of 38 ms for a page of 30,000 events over 64 tables).
constexpr const char* kPageScanSql = R"SQL(
SELECT @columns@
  FROM @table@
 WHERE "id" > $1::int8 AND "id" <= $2::int8 AND "tablename" = ANY (@names@::pg_catalog.text[])
 ORDER BY "id"
 LIMIT $3::int8
)SQL";

constexpr const char* kEventColumns =
    R"SQL("id"::int8 AS id, "tablename"::text AS tablename, "table_id"::text AS table_id,
       "op"::text AS op, "ts_created"::timestamptz AS ts_created)SQL";

constexpr const char* kEventIdColumn = R"SQL("id"::int8 AS id)SQL";

// Both statements return (id, tablename, table_id, op, ts_created, range count, mark); each
// is one statement, so one snapshot. @events@ stands for the page's scan of its events,
// @event_ids@ for the same scan of their ids alone, @table@ for the quoted diffgen table,
// @names@ for the table names' literal, @next@ and @snapshot@ for the SnapshotSql parts.
//
// Plain: the events, each with the mark (an InitPlan, computed once), no count.
constexpr const char* kPlainPageSql = R"SQL(
SELECT page.*, NULL::int8, (SELECT (@next@)::text FROM @snapshot@) FROM (@events@) AS page
)SQL";

// Full: the events in id order, then the mark row (NULL id) with the count and the mark. The
// count and the last id come from a second scan of the page's ids in the same statement, so
// in the same snapshot. Reading the events once into a CTE for both costs more than that
// second scan, since every event is copied into the CTE's store: a page of 30,000 events took
// 52 ms that way and 34 ms this way, rows received by psql included. Logs that journal tables
// the tap does not read take this statement for every page (GaplessPageReader). When the
// events fill their id range the ELSE branch (an index scan of the range) is never evaluated:
// PostgreSQL runs a CASE branch's sub-select only when reached.
constexpr const char* kFullPageSql = R"SQL(
SELECT id, tablename, table_id, op, ts_created, NULL::int8, NULL::text FROM (@events@) AS page
UNION ALL
SELECT NULL::int8, NULL::text, NULL::text, NULL::text, NULL::timestamptz,
       CASE WHEN st.n = coalesce(st.last_id - $1::int8, 0) THEN st.n
            ELSE (SELECT count(*) FROM @table@ d
                   WHERE d."id" > $1::int8 AND d."id" <= st.last_id)
       END,
       (@next@)::text
  FROM (SELECT count(*) AS n, max(id) AS last_id FROM (@event_ids@) AS ids) st, @snapshot@
)SQL";

struct Placeholder {
    std::string_view name;
    std::string_view value;
};

// Fills every placeholder in one pass over `text`, so that no value is searched for
// placeholders itself: a table's name may well hold "@names@".
std::string fillPlaceholders(std::string_view text, const std::vector<Placeholder>& placeholders) {
    std::string sql;
    for (size_t at = 0; at < text.size();) {
        const auto match = std::find_if(
            placeholders.begin(), placeholders.end(),
            [&](const Placeholder& p) { return text.compare(at, p.name.size(), p.name) == 0; });
        if (match == placeholders.end()) {
            sql += text[at++];
        } else {
            sql += match->value;
            at += match->name.size();
        }
    }
    return sql;
}

std::string pageSql(const char* statement, const sdk::TableName& diffgen,
                    const std::string& namesLiteral, const SnapshotSql& snapshot) {
    const std::string events = fillPlaceholders(kPageScanSql, {{"@columns@", kEventColumns}});
    const std::string ids = fillPlaceholders(kPageScanSql, {{"@columns@", kEventIdColumn}});
    const std::string scans =
        fillPlaceholders(statement, {{"@events@", events}, {"@event_ids@", ids}});
    return fillPlaceholders(scans, {{"@table@", tableSql(diffgen)},
                                    {"@names@", namesLiteral},
                                    {"@next@", snapshot.nextXid},
                                    {"@snapshot@", snapshot.current}});
}

// A page's rows come in binary format (binary_values.hpp), its text columns as their text.
// `created` is the caller's, reused from event to event: the page copies what it keeps.
void addEvent(const Result& rows, int row, sdk::EventPage& page, std::string& created) {
    int64_t id = binaryInt8(rows.value(row, 0));
    std::optional<std::string_view> op = rows.optional(row, 3);
    std::optional<std::string_view> tableId = rows.optional(row, 2);
    created.clear();  // stays empty (NULL) for ±infinity as well
    if (auto ts = rows.optional(row, 4)) appendBinaryTimestampTz(*ts, created);
    page.add(id, op && !op->empty() ? (*op)[0] : '\0', rows.optional(row, 1).value_or(""),
             tableId ? &*tableId : nullptr, created);
}

// Runs one of the page statements; false when no row carried the mark.
bool readPage(Session& session, const char* statement, const sdk::PageRequest& request,
              sdk::EventPage& page) {
    Params params;
    params.add(std::to_string(request.afterId), oid::kInt8)
        .add(std::to_string(request.upToId), oid::kInt8)
        .add(std::to_string(request.limit), oid::kInt8);
    const std::string context = "reading diffgen table '" + request.diffgen.display() + "'";
    const std::string names =
        quoteLiteral(session.handle(), arrayLiteral(request.tableNames), context);
    Result rows = execute(session, pageSql(statement, request.diffgen, names, snapshotSql(session)),
                          params, context, ResultFormat::Binary);
    bool marked = false;
    std::string created;
    for (int row = 0; row < rows.rows(); ++row) {
        if (!rows.isNull(row, 0)) addEvent(rows, row, page, created);
        if (!rows.isNull(row, 5)) {
            page.setRangeRowCount(binaryInt8(rows.value(row, 5)));
        }
        if (!marked && !rows.isNull(row, 6)) {
            TdgHorizonMark mark{};
            mark.words[0] = kPhaseFirst;
            mark.words[1] = parseInt64(rows.value(row, 6), "next xid");
            page.setMark(mark);
            marked = true;
        }
    }
    return marked;
}

}  // namespace

void readDiffgenPagePlain(Session& session, const sdk::PageRequest& request, sdk::EventPage& page) {
    readPage(session, kPlainPageSql, request, page);
}

void readDiffgenPage(Session& session, const sdk::PageRequest& request, sdk::EventPage& page) {
    if (!readPage(session, kFullPageSql, request, page)) {
        throw sdk::DriverError(TDG_INTERNAL, "the diffgen page query returned no mark row");
    }
}

std::optional<int64_t> maxDiffgenId(Session& session, const sdk::TableName& diffgen) {
    Result rows = execute(session, "SELECT max(\"id\")::int8 FROM " + tableSql(diffgen), {},
                          "reading diffgen table '" + diffgen.display() + "'");
    if (rows.isNull(0, 0)) return std::nullopt;
    return parseInt64(rows.value(0, 0), "diffgen id");
}

// min and max each read one end of the id index. The next id is what nextval hands out next
// where no session holds cached values (above 1, CACHE makes the stored value the end of the
// latest block handed out): the sequence's last value plus its increment once it has handed
// one out, else the last value itself, which ALTER SEQUENCE ... RESTART [WITH n], TRUNCATE ...
// RESTART IDENTITY and setval(..., false) set. Only the sequence relation holds both (its
// catalog function answers NULL for the second), so it is read through query_to_xml, in the
// same statement; a session with USAGE alone gets the catalog function's answer, and one
// without either leaves the next id unknown rather than fail.
//
// The prune record is <diffgen>_pruned in the log's schema (packaging/diffgen/postgres.sql),
// read the same way where it exists and the session may read it; NULL otherwise, or when it
// holds no row.
constexpr const char* kBoundsSelect = R"SQL(,
record AS (
    SELECT pg_catalog.to_regclass(pg_catalog.format('%I.%I', log.nspname, c.relname || '_pruned'))
               AS oid
      FROM log JOIN pg_catalog.pg_class c ON c.oid = log.oid)
SELECT (SELECT min("id") FROM @table@)::int8::text,
       (SELECT max("id") FROM @table@)::int8::text,
       (SELECT CASE WHEN pg_catalog.has_sequence_privilege(source.seqrelid, 'SELECT')
                    THEN (SELECT CASE WHEN s.is_called THEN s.last_value + source.seqincrement
                                      ELSE s.last_value END
                            FROM XMLTABLE('/row' PASSING pg_catalog.query_to_xml(
                                     pg_catalog.format('SELECT last_value, is_called FROM %s',
                                                       source.seqrelid::pg_catalog.regclass),
                                     false, true, '')
                                   COLUMNS last_value numeric, is_called boolean) s)
                    WHEN pg_catalog.has_sequence_privilege(source.seqrelid, 'USAGE')
                    THEN pg_catalog.pg_sequence_last_value(source.seqrelid)::numeric
                         + source.seqincrement
               END
          FROM source)::text,
       (SELECT CASE WHEN pg_catalog.has_table_privilege(record.oid, 'SELECT')
                    THEN (SELECT p.highest
                            FROM XMLTABLE('/row' PASSING pg_catalog.query_to_xml(
                                     pg_catalog.format(
                                         'SELECT max(highest_pruned_id) AS highest FROM %s',
                                         record.oid::pg_catalog.regclass),
                                     false, true, '')
                                   COLUMNS highest int8) p)
               END
          FROM record WHERE record.oid IS NOT NULL)::text
)SQL";

sdk::JournalBounds journalBounds(Session& session, const sdk::TableName& diffgen) {
    Params params;
    params.add(tableSql(diffgen), oid::kText);
    const std::string sql = std::string("WITH ") + kIdSequenceCtes +
                            fillPlaceholders(kBoundsSelect, {{"@table@", tableSql(diffgen)}});
    Result rows = execute(session, sql, params,
                          "reading the bounds of diffgen table '" + diffgen.display() + "'");
    sdk::JournalBounds bounds;
    bounds.empty = rows.isNull(0, 0);
    if (!bounds.empty) {
        bounds.oldestId = parseInt64(rows.value(0, 0), "diffgen id");
        bounds.newestId = parseInt64(rows.value(0, 1), "diffgen id");
    }
    // Beyond int8 only when the sequence is exhausted: nothing comes next.
    int64_t next = 0;
    std::optional<std::string_view> nextText = rows.optional(0, 2);
    if (nextText &&
        std::from_chars(nextText->data(), nextText->data() + nextText->size(), next).ptr ==
            nextText->data() + nextText->size()) {
        bounds.nextId = next;
    }
    if (std::optional<std::string_view> pruned = rows.optional(0, 3)) {
        bounds.highestPrunedId = parseInt64(*pruned, "highest pruned id");
    }
    return bounds;
}

sdk::HorizonState checkHorizon(Session& session, const TdgHorizonMark& mark, TdgHorizonMark& next) {
    int64_t phase = mark.words[0];
    if (phase != kPhaseFirst && phase != kPhaseSecond) {
        throw sdk::invalidArgument("not a PostgreSQL horizon mark");
    }
    SnapshotSql snapshot = snapshotSql(session);
    std::string sql = "SELECT (" + snapshot.xmin + ")::text, (" + snapshot.nextXid +
                      ")::text FROM " + snapshot.current;
    Result rows = execute(session, sql, {}, "checking the transaction horizon");
    int64_t xmin = parseInt64(rows.value(0, 0), "snapshot xmin");
    if (xmin < mark.words[1]) return sdk::HorizonState::Pending;
    if (phase == kPhaseSecond) return sdk::HorizonState::Final;
    next = TdgHorizonMark{};
    next.words[0] = kPhaseSecond;
    next.words[1] = parseInt64(rows.value(0, 1), "next xid");
    return sdk::HorizonState::Pending;
}

}  // namespace tapdiffgen::postgres
