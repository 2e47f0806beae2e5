/*
 * tap-diffgen dialect driver ABI, revisions 1 to 6.
 *
 * This header is the specification of the boundary between the tap-diffgen engine (the host)
 * and a dialect driver (a shared library, the plugin). It is plain C on purpose: no C++ type,
 * no exception and no allocator crosses it, so a plugin may be built with another compiler,
 * another standard library, or bundle its own database client.
 *
 * Loading
 *   The host dlopen()s the plugin with RTLD_NOW | RTLD_LOCAL and never unloads it. It reads
 *   tdg_plugin_info() first, before anything is initialised, to learn the ABI versions the
 *   plugin speaks; it then calls tdg_driver_init() with the newest version both sides know.
 *
 * Versioning
 *   TdgDriver is append-only. A member added later is documented with the ABI version that
 *   introduced it ("since 2"). A plugin built for version N, asked for version N, fills members
 *   up to and including those of N and nothing else. A host that asks for an older version reads
 *   only that prefix. Optional members may be NULL; the host then uses the documented fallback.
 *
 * Ownership (the same rule everywhere)
 *   - Inputs are borrowed: the plugin must not keep a pointer it was given past the call.
 *   - Every output structure that owns memory carries its own release() callback; the consumer
 *     calls it exactly once when done (release may be NULL when there is nothing to free).
 *     After release the structure is zeroed by the producer.
 *   - Row batches are lent to a sink callback for the duration of that callback only.
 *   - Strings are UTF-8. Where a length is given the string need not be NUL-terminated and may
 *     contain NUL bytes; elsewhere it is NUL-terminated.
 *
 * Errors
 *   Every fallible function returns a TdgStatus and fills the TdgError it was handed. The host
 *   passes a zeroed TdgError; on failure the plugin sets message (and release). Plugins never
 *   let an exception, a longjmp or a signal escape a call.
 *   The host adds two parts of what the user reads, so the message says neither: a failed
 *   connect() is shown as "cannot connect: <message>" (unless the message already starts with
 *   "cannot connect"), and when sqlstate is set " [SQLSTATE xxxxx]" follows the message. A
 *   message of "cannot connect to MyDB at db1:5000 as user 'tap': password refused" with
 *   sqlstate 28000 reads "cannot connect to MyDB at db1:5000 as user 'tap': password refused
 *   [SQLSTATE 28000]"; one of "odbc: cannot connect: ... (SQLSTATE 08001)" reads
 *   "cannot connect: odbc: cannot connect: ... (SQLSTATE 08001) [SQLSTATE 08001]".
 *
 * Threads
 *   A connection is used by one thread at a time, except TdgDriver.cancel, which may be called
 *   from any thread while another call on the same connection runs. The host opens several
 *   connections of one driver and uses them from different threads at the same time (a run
 *   reads the next diffgen page and re-pulls shares of a page's rows on sessions of their own),
 *   so whatever a driver shares between its connections must be safe to use concurrently.
 */
#ifndef TAP_DIFFGEN_DIALECT_ABI_H
#define TAP_DIFFGEN_DIALECT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * ABI revisions. Each revision only appends: members at the end of TdgDriver and fields at the
 * end of request structures, every one documented "since N". For each structure that grew, a
 * TDG_<STRUCT>_SIZE_<N> macro names its size in revision N; a producer sets struct_size to the
 * size it filled, and a consumer reads a field only when struct_size covers it.
 *   1  the first revision.
 *   2  composite keys and column kinds in fetch and scan requests; fetch_rows_many.
 *   3  wait_for_change (a following run woken by the database instead of polling).
 *   4  settings declared by the plugin, in its info block (TdgPluginInfo.settings);
 *      describe_tables (every configured table described in a bounded number of round trips).
 *   5  journal_bounds and inspect_journal: what the log still holds and how the catalog feeds
 *      it, so that the engine notices a pruned or reset journal, a cached id sequence,
 *      partitions and foreign-key actions that bypass triggers, instead of losing changes;
 *      scan_chunk and estimate_rows (with TdgScanRequest's after_key and max_rows): a snapshot
 *      reads its table one bounded chunk at a time between pages of the log, resumes after
 *      the last chunk it wrote, and reports its progress against the table's size;
 *      TDG_TABLE_CHANGED, a row read's way to say the table changed under its request.
 *   6  one canonical key text per value kind (see "Key texts" below), for what a trigger
 *      journals and what the host sends to fetch; TdgColumn.key_support (which columns can be
 *      a key) and TdgColumn.scale of TIME, TIMESTAMP and TIMESTAMPTZ (fractional digits);
 *      TdgJournalBounds' prune record (has_prune_record, highest_pruned_id): the highest id a
 *      retention job deleted, so that ids rolled back after a prune are no longer taken for
 *      pruned events; TdgJournalTrigger's key_columns: the columns a trigger journals into
 *      table_id, which the engine compares with the configured key.
 */
#define TDG_ABI_VERSION_1 1
#define TDG_ABI_VERSION_2 2
#define TDG_ABI_VERSION_3 3
#define TDG_ABI_VERSION_4 4
#define TDG_ABI_VERSION_5 5
#define TDG_ABI_VERSION_6 6
/** The newest ABI version this header describes. */
#define TDG_ABI_VERSION TDG_ABI_VERSION_6

/** Names of the two symbols every plugin exports. */
#define TDG_PLUGIN_INFO_SYMBOL "tdg_plugin_info"
#define TDG_DRIVER_INIT_SYMBOL "tdg_driver_init"

/* ------------------------------------------------------------------------------------------ */
/* Status codes and errors                                                                     */
/* ------------------------------------------------------------------------------------------ */

/** Result of every fallible call. Fixed-width so the ABI never depends on enum size. */
typedef int32_t TdgStatus;

#define TDG_OK 0
/** Anything not covered below. */
#define TDG_UNKNOWN 1
/** The function, option or value kind is not supported by this plugin. */
#define TDG_NOT_IMPLEMENTED 2
/** A table, column, schema or database does not exist. */
#define TDG_NOT_FOUND 3
/** A caller error: a NULL where a value is required, a bad option value, a bad identifier. */
#define TDG_INVALID_ARGUMENT 4
/** Called in the wrong state, e.g. on a closed connection. */
#define TDG_INVALID_STATE 5
/** Network or server failure: connection refused, lost, timed out. Usually retryable. */
#define TDG_IO 6
/** Authentication failed (wrong user or password, SSL certificate refused). */
#define TDG_UNAUTHENTICATED 7
/** The user lacks a privilege. */
#define TDG_UNAUTHORIZED 8
/** Stopped by TdgDriver.cancel or by a sink that asked to stop. */
#define TDG_CANCELLED 9
/** A value could not be represented (e.g. an unparsable key). */
#define TDG_INVALID_DATA 10
/** A bug inside the plugin. */
#define TDG_INTERNAL 11
/**
 * Since 5: a row read (fetch_rows, fetch_rows_many, scan_table) found that the table no longer
 * matches its request: a requested column is gone, or its values no longer arrive as the kind
 * the request's column_kinds give (a column dropped, renamed or retyped since describe_table).
 * No row read after the change reaches a sink: the rows delivered before it (of this request or
 * of those before it in fetch_rows_many) were read before it and fit the request. The message
 * names the table and the column. Not retryable: the host describes the table again and reads
 * the rows it still needs with the table's new columns. A plugin that was asked for an older
 * revision returns TDG_NOT_FOUND instead.
 */
#define TDG_TABLE_CHANGED 12

/** A failure's description. Produced by the plugin, released by the host. */
typedef struct TdgError {
    /** One line, UTF-8, NUL-terminated; never contains a password. NULL when no error. */
    char* message;
    /** Five-character SQLSTATE plus NUL, or all zero when unknown. */
    char sqlstate[6];
    /** Non-zero when the same call may succeed if tried again after reconnecting. */
    uint8_t retryable;
    uint8_t reserved_[1];
    /** The database client's own error number, or 0. */
    int32_t vendor_code;
    /** Frees message and private_data; NULL when nothing is owned. */
    void (*release)(struct TdgError* error);
    void* private_data;
} TdgError;

/* ------------------------------------------------------------------------------------------ */
/* The info block                                                                              */
/* ------------------------------------------------------------------------------------------ */

/** The type of a declared setting's value, as JSON Schema names it. Since 4. */
typedef int32_t TdgSettingType;
#define TDG_SETTING_STRING 1
#define TDG_SETTING_INTEGER 2
#define TDG_SETTING_NUMBER 3
#define TDG_SETTING_BOOLEAN 4

/**
 * One setting of the tap's configuration that belongs to this plugin (ssl_mode, a channel, an
 * ODBC driver name). Since 4. The host validates a declared setting against its declaration
 * before it connects (with an error naming the setting), lists it in --about, the man page and
 * the Meltano definition, reads it from the environment under --config ENV, and passes it to
 * connect() as an option when it is given. Settings nobody declared draw an "unknown setting"
 * warning and do not reach the plugin (before revision 4 every unknown scalar setting did).
 * Every pointer is static data of the plugin, valid while it is loaded (it is never unloaded).
 */
typedef struct TdgSettingDeclaration {
    /** [out] sizeof(TdgSettingDeclaration) as the plugin was compiled; fields beyond it are
     *  absent. TDG_SETTING_DECLARATION_SIZE_4. Since 4. */
    uint32_t struct_size;
    /** [out] TDG_SETTING_*. Since 4. */
    TdgSettingType type;
    /** [out] The name in the configuration: a lower-case letter, then lower-case letters,
     *  digits and '_'. Never one of the tap's own settings ("host", "tables"): the host then
     *  refuses to load the plugin. Two plugins may declare the same name. Since 4. */
    const char* name;
    /** [out] One sentence for --about and the man page. Since 4. */
    const char* description;
    /** [out] JSON text of the value the plugin uses when the setting is not given ("\"prefer\"",
     *  "5", "true"), or NULL when there is none. Documentation only: the host does not pass a
     *  default to connect(). Since 4. */
    const char* default_json;
    /** [out] For a string setting, the only values accepted, as a NULL-terminated list;
     *  NULL when any string is. Matched exactly (case matters). Since 4. */
    const char* const* allowed;
    /** [out] Inclusive bounds of an integer or number setting, each read only when its has_
     *  flag is non-zero. Since 4. */
    int64_t minimum;
    int64_t maximum;
    uint8_t has_minimum;
    uint8_t has_maximum;
    /** [out] Non-zero for a password or key: never logged, never echoed in an error, marked
     *  secret in --about and in the Meltano definition. Since 4. */
    uint8_t secret;
    uint8_t reserved_[5];
} TdgSettingDeclaration;

#define TDG_SETTING_DECLARATION_SIZE_4 sizeof(TdgSettingDeclaration)

/** Static description of a plugin, readable before anything is initialised. */
typedef struct TdgPluginInfo {
    /** sizeof(TdgPluginInfo) as the plugin was compiled; fields beyond it are absent. */
    uint32_t struct_size;
    /** Oldest and newest ABI version the plugin can fill (inclusive). */
    int32_t abi_version_min;
    int32_t abi_version_max;
    /** Canonical dialect name, lower case: the value of sql_dialect that selects it. */
    const char* dialect_name;
    /** Other accepted names, NULL-terminated list (may be NULL). */
    const char* const* aliases;
    /** The plugin's own version, and the SDK version it was built with ("1.2.3"). */
    const char* plugin_version;
    const char* sdk_version;
    /** One line for humans, e.g. "PostgreSQL 12+ via libpq". */
    const char* description;
    /** [out] The settings this plugin adds to the configuration (see TdgSettingDeclaration), a
     *  NULL-terminated list of pointers; NULL, or an empty list, when it adds none. Each entry
     *  is read only as far as its own struct_size covers. Since 4: absent when struct_size is
     *  TDG_PLUGIN_INFO_SIZE_1. */
    const TdgSettingDeclaration* const* settings;
} TdgPluginInfo;

/** The info block's size in revisions 1 to 3, and since 4. */
#define TDG_PLUGIN_INFO_SIZE_1 offsetof(TdgPluginInfo, settings)
#define TDG_PLUGIN_INFO_SIZE_4 sizeof(TdgPluginInfo)

/* ------------------------------------------------------------------------------------------ */
/* Values                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/**
 * The kind of a value, and of a column. Text forms are what the engine writes to JSON, so the
 * plugin normalises them:
 *  NULL         no value.
 *  BOOL         i64 is 0 or 1.
 *  INT64        i64 holds the value.
 *  DECIMAL      data/size: a valid JSON number literal with the exact digits ("1234567890.12",
 *               "18446744073709551615", "-0.5", "1e-7"); used for numerics, unsigned 64-bit
 *               integers and floating point (shortest round-trip form of the value's own
 *               precision: a single-precision float's 0.1 is "0.1", not its double's
 *               "0.10000000149011612"). Never NaN or Infinity: those are sent as NULL.
 *  TEXT         data/size: UTF-8 text (invalid sequences are replaced by the engine).
 *  BYTES        data/size: raw bytes; the engine writes lowercase hex.
 *  JSON         data/size: one JSON document as text, embedded as JSON by the engine; the
 *               document a JSON column holds, never a string that holds its text.
 *  DATE         data/size: "YYYY-MM-DD".
 *  TIME         data/size: "HH:MM:SS[.ffffff][+HH:MM]" (hours may exceed 24 for MySQL TIME).
 *  TIMESTAMP    data/size: "YYYY-MM-DDTHH:MM:SS[.ffffff]" with no offset, meaning UTC; the
 *               engine appends "+00:00".
 *  TIMESTAMPTZ  data/size: "YYYY-MM-DDTHH:MM:SS[.ffffff]+HH:MM", the instant with its offset.
 * Dates are of the years 0000 to 9999, four digits, and real: a day the month has, hours below
 * 24 (TIME: below 24 with an offset, a duration without one), minutes and seconds below 60, an
 * offset under a day. A value its kind has no such text for is sent as NULL, never as another
 * value: ±infinity, a date before year 1 (BC) or after 9999, a zero date, NaN. A column's kind
 * and schema follow from its type the same way for every value: a uuid is TEXT with the schema
 * {"type":"string","format":"uuid"} and its canonical lower-case text; an array is JSON with an
 * "items" schema; a type the ABI has no kind for (money, interval, inet, enum, set) is TEXT
 * with the server's own text. value-kinds.md, beside the SDK's README, lists what the
 * first-party plugins send for each type they map; the conformance cases types, value-kinds,
 * uuid, json, edge-values and dialect-types check it.
 */
typedef int32_t TdgValueKind;
#define TDG_KIND_NULL 0
#define TDG_KIND_BOOL 1
#define TDG_KIND_INT64 2
#define TDG_KIND_DECIMAL 3
#define TDG_KIND_TEXT 4
#define TDG_KIND_BYTES 5
#define TDG_KIND_JSON 6
#define TDG_KIND_DATE 7
#define TDG_KIND_TIME 8
#define TDG_KIND_TIMESTAMP 9
#define TDG_KIND_TIMESTAMPTZ 10

/**
 * Key texts (since 6). A key value crosses the boundary as text twice: the journal's triggers
 * write it into diffgen.table_id (TdgEvent.table_id), and the host sends it back to fetch the
 * row (TdgFetchRequest.keys). Both use one canonical text per kind of the key column:
 *  INT64        decimal digits, '-' for a negative value, no leading zeros: "-42".
 *  DECIMAL      "[-]digits[.digits]" with exactly the column's declared scale ("-1.500" for
 *               numeric(12,3), "7" for scale 0); for a column without a declared scale, no
 *               trailing fraction zeros ("2.5", "10"); unsigned 64-bit integers and MySQL's
 *               BIT(64) as their digits. Zero has no sign. No exponent.
 *  BOOL         "true" or "false".
 *  TEXT         the value exactly (char(n) as the trigger's column gives it); a uuid in lower
 *               case. A column the host compares case-insensitively (uuid) is matched folded.
 *  BYTES        lowercase hex of the bytes, no prefix: "00ff10".
 *  DATE         "YYYY-MM-DD".
 *  TIME         "HH:MM:SS.ffffff": always six fraction digits; a MySQL duration "[-]HHH:..."
 *               with as many hour digits as it needs (at least two).
 *  TIMESTAMP    "YYYY-MM-DDTHH:MM:SS.ffffff": always six fraction digits, no offset.
 *  TIMESTAMPTZ  the UTC instant, "YYYY-MM-DDTHH:MM:SS.ffffff+00:00".
 *  JSON         cannot be a key.
 * A composite key (more than one key column) is the JSON array of its columns' texts in key
 * order, INT64, DECIMAL and BOOL bare, every other kind a JSON string: [1001, "A-7", true].
 * The host reads leniently what older triggers journalled (a space for the T, fewer fraction
 * digits, an offset, "\x"-prefixed hex, "t"/"f"), but a value the column cannot hold (a digit
 * past the scale, a fraction finer than the column's fractional digits, an offset on a
 * TIMESTAMP) or a text of no value of the kind stops that table's stream with an error naming
 * the diffgen id, the column, its type and the text: never a tombstone. A plugin binds a key
 * text typed, as its column's type reads it (a bytea from hex, a datetime from its fields).
 */

/** One value. 32 bytes on every 64-bit platform. */
typedef struct TdgCell {
    TdgValueKind kind;
    int32_t reserved_;
    /** BOOL and INT64. */
    int64_t i64;
    /** Every text-carrying kind: borrowed from the producer, valid as long as its owner. */
    const char* data;
    uint64_t size;
} TdgCell;

/** A block of rows, row-major: cell (r, c) is cells[r * num_columns + c]. */
typedef struct TdgRowBatch {
    int64_t num_rows;
    int32_t num_columns;
    int32_t reserved_;
    const TdgCell* cells;
} TdgRowBatch;

/**
 * Receives row batches. The batch and everything it points to are lent for the duration of the
 * call only. Return 0 to continue; any other value stops the read, and the plugin then returns
 * TDG_CANCELLED from the call that was streaming (after leaving its connection usable).
 */
typedef int32_t (*TdgBatchSink)(void* sink_context, const TdgRowBatch* batch);

/* ------------------------------------------------------------------------------------------ */
/* Connections                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/** A setting as key and text value. Numbers and booleans are given in their JSON text form. */
typedef struct TdgOption {
    const char* key;
    const char* value;
} TdgOption;

/** Log levels for TdgConnectParams.log. */
#define TDG_LOG_DEBUG 10
#define TDG_LOG_INFO 20
#define TDG_LOG_WARNING 30
#define TDG_LOG_ERROR 40

/**
 * Everything connect() receives. Options carry the tap's settings: at least sql_dialect, host,
 * port (absent = dialect default), user, password, database, connect_timeout (seconds), and
 * every dialect-specific setting the user gave (ssl_mode, ssl_root_cert, ssl_cert, ssl_key, ...).
 * A plugin ignores keys it does not know.
 *
 * SSH tunnels
 *   When the user configures ssh_tunnel, the host opens the tunnel itself (a plugin needs no SSH
 *   code) and adds two options:
 *     connect_host  numeric address of the tunnel's local end, always 127.0.0.1
 *     connect_port  its port
 *   The plugin then opens its TCP connection to connect_host:connect_port instead of host:port,
 *   and keeps host as the database's name: TLS verification (verify-full) checks the server's
 *   certificate against host, never against connect_host. A plugin that cannot separate the two
 *   must refuse verify-full with TDG_INVALID_ARGUMENT rather than check the wrong name. A
 *   plugin that does not connect over TCP must refuse connect_host with TDG_INVALID_ARGUMENT.
 *   Every connect() (a reconnect too) gets a tunnel of its own; the host closes it after
 *   close(). A tunnel that fails mid-run closes the plugin's socket, which the plugin reports
 *   like any lost connection (TDG_IO, retryable). Only the host sets these two keys.
 */
typedef struct TdgConnectParams {
    uint32_t struct_size;
    int32_t num_options;
    const TdgOption* options;
    /** Host's logger, callable from any thread during any call; may be NULL. */
    void (*log)(void* log_context, int32_t level, const char* message);
    void* log_context;
} TdgConnectParams;

/** A plugin's connection; opaque to the host. */
typedef struct TdgConnection TdgConnection;

/** A table name as the user wrote it, split. schema is NULL for the session's default. */
typedef struct TdgTableRef {
    const char* schema;
    const char* name;
} TdgTableRef;

/* ------------------------------------------------------------------------------------------ */
/* Introspection                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** One column of a table, as the database reports it. */
typedef struct TdgColumn {
    /** Exact name (case preserved). */
    const char* name;
    /** 1-based position in the table. */
    int32_t ordinal;
    /** How values of this column arrive in row batches (TDG_KIND_*, never TDG_KIND_NULL). */
    TdgValueKind value_kind;
    /** The full SQL type as the database spells it: "numeric(12,4)", "tinyint(1)". */
    const char* sql_type;
    /** Numeric precision and scale; -1 when not applicable or unbounded. Since 6 also, for a
     *  TIME, TIMESTAMP or TIMESTAMPTZ column, its fractional-second digits (0 to 6; -1 when
     *  not declared): a key text with a finer fraction is one the column cannot hold. A host
     *  ignores the scale of those kinds from a plugin of an older revision. */
    int32_t precision;
    int32_t scale;
    uint8_t nullable;
    uint8_t primary_key;
    /** [out] TDG_KEY_SUPPORT_*: whether a key (pk_column) may name this column: whether the
     *  plugin can fetch rows by its canonical key text and the shipped triggers journal it so.
     *  The host refuses a key column of TDG_KEY_SUPPORT_NO at start-up, before any output,
     *  naming the table, the column and its type. Since 6; a host reads it only from a plugin
     *  that speaks revision 6, and judges an older plugin's columns by their kind (JSON
     *  cannot be a key). */
    uint8_t key_support;
    uint8_t reserved_[5];
    /**
     * The column's JSON Schema as a JSON object text, without nullability (the engine adds
     * "null" to the type of every non-key column), e.g. {"type":"number","multipleOf":0.0001}.
     */
    const char* json_schema;
} TdgColumn;

/** Values of TdgColumn.key_support. Since 6. */
#define TDG_KEY_SUPPORT_UNSTATED 0
#define TDG_KEY_SUPPORT_YES 1
#define TDG_KEY_SUPPORT_NO 2

/** The columns of one table, in ordinal order. */
typedef struct TdgColumnList {
    int32_t num_columns;
    int32_t reserved_;
    const TdgColumn* columns;
    void (*release)(struct TdgColumnList* list);
    void* private_data;
} TdgColumnList;

/* ------------------------------------------------------------------------------------------ */
/* The diffgen log                                                                             */
/* ------------------------------------------------------------------------------------------ */

/** op values of TdgEvent. Anything else is passed through as read, for the engine to judge. */
#define TDG_OP_INSERT 'i'
#define TDG_OP_UPDATE 'u'
#define TDG_OP_DELETE 'd'

/** One diffgen row. */
typedef struct TdgEvent {
    int64_t id;
    /** diffgen.op's first character; 0 when op is NULL or empty. */
    char op;
    /** Non-zero when diffgen.table_id is NULL (table_id is then NULL too). */
    uint8_t table_id_is_null;
    uint8_t reserved_[6];
    /** diffgen.tablename exactly as stored. */
    const char* table_name;
    /** diffgen.table_id as text: the key's canonical text (see "Key texts"; an integer key is
     *  its decimal digits), or what an older trigger journalled. */
    const char* table_id;
    uint64_t table_id_size;
    /** diffgen.ts_created as TIMESTAMPTZ text ("...+00:00"); NULL when NULL. */
    const char* ts_created;
} TdgEvent;

/**
 * Opaque proof of what may still be in flight, taken in the same snapshot as a page read.
 * Meaning is private to the plugin; the host only stores it, compares nothing, and hands it back
 * to check_horizon. All zero means "no mark" (the plugin cannot tell).
 *
 * A diffgen id can become visible below ids already read when the transaction that took it
 * commits later. A mark must cover every transaction that may still commit an id into the
 * page's range: every transaction running when the page's snapshot was taken, including one
 * that began after the last commit. How the first-party plugins build theirs:
 *  - PostgreSQL: the first transaction id not yet assigned when the page is read, in the same
 *    statement (xmax of the current snapshot plus age() of it as a 32-bit xid, which reads it
 *    without assigning one). Final once the oldest running xid (the current snapshot's xmin)
 *    has reached it; then, since a transaction that took its diffgen id from a sequence before
 *    it had an xid got one later, pending once more with a successor mark of the then next xid,
 *    final when the oldest running xid reaches that. The snapshot's xmax itself is NOT a mark:
 *    it is the newest completed xid plus one, so a transaction that began after the last
 *    commit is above it and is missed.
 *  - MySQL/MariaDB (InnoDB): the server's clock when the page's statement starts, read in that
 *    statement. Final once information_schema.INNODB_TRX lists no other transaction that
 *    started before it (plus a second, as trx_started has whole seconds); a check first opens
 *    a transaction of its own and trusts the list only when it shows that one, as the table
 *    is a cache InnoDB refills only after 100 ms unread.
 *  - A database with one writer at a time (SQLite): every mark is final at once, no id can
 *    appear below those committed.
 *  - Anything else: a server-side list of running transactions with their start (pg_stat_
 *    activity, sys.dm_tran_active_transactions, v$transaction, ...) read in the page's snapshot
 *    or after it, final when none of them runs any more. Without such a list, leave
 *    check_horizon NULL rather than guess: the host then waits horizon_settle_seconds for every
 *    page whose id range has a gap (see check_horizon).
 * The conformance cases paging and horizon check marks, the latter beside a writer that began
 * after the last commit.
 */
typedef struct TdgHorizonMark {
    int64_t words[4];
} TdgHorizonMark;

/** What read_diffgen_page reads. */
typedef struct TdgPageRequest {
    uint32_t struct_size;
    int32_t num_table_names;
    /** The diffgen table itself. */
    TdgTableRef diffgen;
    /** Events with after_id < id <= up_to_id (use INT64_MAX for "no upper bound"). */
    int64_t after_id;
    int64_t up_to_id;
    /** At most this many events, the lowest ids first. */
    int64_t limit;
    /** Only events whose tablename equals one of these (exact, case-sensitive). */
    const char* const* table_names;
} TdgPageRequest;

/**
 * One page of events, ascending id. Produced by the plugin ([out] of read_diffgen_page), released
 * by the host through release.
 *
 * The page contract, which the engine's bookmarks rest on:
 *  - Snapshot. The events, range_row_count and mark describe one view of the log: the events
 *    are every row of the requested tables that this view shows in the range, lowest ids first.
 *    A client with no multi-statement snapshot reads events and count in ONE statement (MySQL:
 *    one SELECT). The mark may be taken later than that view but never earlier: it must cover
 *    every transaction that was running when the events were read.
 *  - Short pages. A page with fewer than limit events says that the view held no other event
 *    of the requested tables in (after_id, up_to_id]; the engine moves its cursor to up_to_id.
 *    A plugin that stops early for any other reason (a size cap) must still fill limit or fail.
 *  - Empty pages. range_row_count of an empty page is not read (the plugin may leave it 0 or
 *    -1); its mark is, as for any page: an empty page up to a bounded up_to_id can be pending.
 */
typedef struct TdgEventPage {
    int64_t num_events;
    const TdgEvent* events;
    /**
     * The number of diffgen rows of ANY table with after_id < id <= (last event's id), counted in
     * the same snapshot as the events; -1 when the plugin cannot tell. When it equals
     * (last id - after_id) the range has no gap, and nothing can appear in it later.
     */
    int64_t range_row_count;
    /** Taken in the same snapshot as the events or later, never earlier (see check_horizon). */
    TdgHorizonMark mark;
    void (*release)(struct TdgEventPage* page);
    void* private_data;
} TdgEventPage;

/** Results of check_horizon. */
#define TDG_HORIZON_PENDING 0
#define TDG_HORIZON_FINAL 1

/* ------------------------------------------------------------------------------------------ */
/* The journal's health (since 5)                                                              */
/* ------------------------------------------------------------------------------------------ */

/**
 * What the diffgen log holds now, all read in one view of it. [out] of journal_bounds; owns
 * nothing. Since 5.
 *
 * The engine compares these with each stream's bookmark B (every id <= B was read):
 *   - next_id <= B, or (next_id unknown) newest_id < B: the journal was reset or restored from
 *     an older backup (its ids start again below B);
 *   - with a prune record (since 6), highest_pruned_id > B: events after B were deleted before
 *     they were read (the journal was pruned past B);
 *   - without one, oldest_id > B + 1: the ids between are taken for pruned events, though ids
 *     rolled back right after a prune of everything read look the same.
 * So the bounds must be those of the whole log, every table's events included. docs/journal.md
 * lists every situation and what the engine does in each.
 */
typedef struct TdgJournalBounds {
    /** [in,out] The host sets the size it allocated (TDG_JOURNAL_BOUNDS_SIZE_5 or _6); the
     *  plugin fills no field beyond it and sets it to the size it filled. Since 5. */
    uint32_t struct_size;
    /** [out] Non-zero when the log holds no row; oldest_id and newest_id are then not read.
     *  Since 5. */
    uint8_t is_empty;
    /** [out] Non-zero when next_id is known. Since 5. */
    uint8_t has_next_id;
    uint8_t reserved_[2];
    /** [out] min(id) and max(id) over every row of the log. Since 5. */
    int64_t oldest_id;
    int64_t newest_id;
    /** [out] The id the log's id source (sequence, identity, AUTO_INCREMENT counter) hands out
     *  next, as far as this session may see it: it tells a reset apart from an emptied log
     *  whose ids go on. Only read when has_next_id is non-zero. Since 5. */
    int64_t next_id;
    /** [out] Non-zero when the log has a prune record this session may read: the one-row table
     *  <diffgen>_pruned (column highest_pruned_id) in the diffgen table's schema, which the
     *  shipped SQL (packaging/diffgen/) keeps from a trigger on the log's DELETE (and, where
     *  the database has them, TRUNCATE triggers). Since 6. */
    uint8_t has_prune_record;
    uint8_t reserved6_[7];
    /** [out] The highest id ever deleted from the log (0 when none), read in the same view as
     *  the bounds. Only read when has_prune_record is non-zero. Since 6. */
    int64_t highest_pruned_id;
} TdgJournalBounds;

#define TDG_JOURNAL_BOUNDS_SIZE_5 offsetof(TdgJournalBounds, has_prune_record)
#define TDG_JOURNAL_BOUNDS_SIZE_6 sizeof(TdgJournalBounds)

/** What inspect_journal looks at. Borrowed for the call ([in]). Since 5. */
typedef struct TdgJournalRequest {
    /** [in] The size the host filled: TDG_JOURNAL_REQUEST_SIZE_5. Since 5. */
    uint32_t struct_size;
    /** [in] Entries of tables (>= 0). Since 5. */
    int32_t num_tables;
    /** [in] The diffgen table. Since 5. */
    TdgTableRef diffgen;
    /** [in] The configured tables, as describe_table takes them. Since 5. */
    const TdgTableRef* tables;
    /** [in] Non-zero to list each table's journal triggers too (TdgTableJournal.triggers). The
     *  journal check command asks for them, and since 6 a sync does too (their key columns).
     *  Since 5. */
    uint8_t include_triggers;
    uint8_t reserved_[7];
} TdgJournalRequest;

#define TDG_JOURNAL_REQUEST_SIZE_5 sizeof(TdgJournalRequest)

/**
 * A foreign key whose action (ON DELETE / ON UPDATE CASCADE, SET NULL, SET DEFAULT) changes a
 * configured table's rows without firing that table's triggers (MySQL and MariaDB run such
 * actions inside the storage engine), so the journal never hears of those changes. A database
 * whose actions fire triggers (PostgreSQL, SQLite) reports none. Since 5.
 */
typedef struct TdgBypassingForeignKey {
    /** [out] TDG_BYPASSING_FOREIGN_KEY_SIZE_5. Since 5. */
    uint32_t struct_size;
    uint32_t reserved_;
    /** [out] The constraint's name. Since 5. */
    const char* constraint_name;
    /** [out] The parent table it references. Since 5. */
    TdgTableRef parent;
    /** [out] The actions that bypass the triggers, as SQL spells them: "ON DELETE CASCADE",
     *  "ON DELETE SET NULL, ON UPDATE CASCADE". Since 5. */
    const char* actions;
} TdgBypassingForeignKey;

#define TDG_BYPASSING_FOREIGN_KEY_SIZE_5 sizeof(TdgBypassingForeignKey)

/** A row trigger of a configured table that writes into the diffgen table. Since 5. */
typedef struct TdgJournalTrigger {
    /** [out] TDG_JOURNAL_TRIGGER_SIZE_5. Since 5. */
    uint32_t struct_size;
    uint32_t reserved_;
    /** [out] The trigger's name. Since 5. */
    const char* name;
    /** [out] The statements it fires on, as SQL spells them: "INSERT, UPDATE, DELETE". */
    const char* events;
    /** [out] What it writes into diffgen.tablename for this table's rows, or NULL when the
     *  plugin cannot tell from the catalog. Since 5. */
    const char* journal_name;
    /** [out] Entries of key_columns; 0 when the plugin cannot tell. Since 6. */
    int32_t num_key_columns;
    uint32_t reserved6_;
    /** [out] The columns whose values the trigger journals into diffgen.table_id, in the order
     *  it writes them, as the catalog names them; NULL when the plugin cannot tell from the
     *  trigger's definition. Owned by the inspection, like every pointer in it. Since 6. */
    const char* const* key_columns;
} TdgJournalTrigger;

#define TDG_JOURNAL_TRIGGER_SIZE_5 offsetof(TdgJournalTrigger, num_key_columns)
#define TDG_JOURNAL_TRIGGER_SIZE_6 sizeof(TdgJournalTrigger)

/** What the catalog says of one configured table's journalling. Since 5. */
typedef struct TdgTableJournal {
    /** [out] TDG_TABLE_JOURNAL_SIZE_5. Since 5. */
    uint32_t struct_size;
    int32_t num_partitions;
    /** [out] The table's partitions, at every level below it, schema-qualified; none for a
     *  table that is not partitioned. A trigger that journals a partition's own name instead of
     *  the configured table's is how a partitioned table's changes get lost. Since 5. */
    const TdgTableRef* partitions;
    int32_t num_bypassing_foreign_keys;
    int32_t num_triggers;
    /** [out] See TdgBypassingForeignKey. A NULL-free array of pointers, each entry read only
     *  as far as its own struct_size covers. Since 5. */
    const TdgBypassingForeignKey* const* bypassing_foreign_keys;
    /** [out] Only when the request asked for them (include_triggers); like the above. Since 5. */
    const TdgJournalTrigger* const* triggers;
} TdgTableJournal;

#define TDG_TABLE_JOURNAL_SIZE_5 sizeof(TdgTableJournal)

/**
 * What inspect_journal found. [out]: the host passes it zeroed; the plugin fills it and owns
 * every pointer in it until the host calls release. Since 5.
 */
typedef struct TdgJournalInspection {
    /** [out] TDG_JOURNAL_INSPECTION_SIZE_5. Since 5. */
    uint32_t struct_size;
    /** [out] Entries of tables: the request's num_tables, tables[i] for request table i. */
    int32_t num_tables;
    /** [out] The object that hands out diffgen.id ("public.diffgen_id_seq"), or NULL when the
     *  plugin cannot tell. Since 5. */
    const char* id_source;
    /**
     * [out] How many ids one session takes from id_source at a time: PostgreSQL's sequence
     * CACHE. Above 1, a session can hold ids between transactions and commit one long after
     * later ids committed, with no transaction open meanwhile: no horizon can see it, so the
     * engine refuses to run unless the user accepts the risk. 1 when every id is taken when a
     * row is inserted (AUTO_INCREMENT, SQLite); 0 when unknown. Since 5.
     */
    int64_t id_cache;
    /** [out] Why this session cannot prove id ranges final (check_horizon), e.g. a missing
     *  privilege, as one line naming the fix; NULL when it can. Since 5. */
    const char* horizon_problem;
    /** [out] See TdgTableJournal; an array of num_tables pointers. Since 5. */
    const TdgTableJournal* const* tables;
    void (*release)(struct TdgJournalInspection* inspection);
    void* private_data;
} TdgJournalInspection;

#define TDG_JOURNAL_INSPECTION_SIZE_5 sizeof(TdgJournalInspection)

/* ------------------------------------------------------------------------------------------ */
/* Row reads                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/**
 * Fetch the current rows of a table for a set of keys. Rows come back in any order; keys with
 * no row are simply absent. Every key column is one of the columns requested. Borrowed for the
 * call ([in]); set by the host, read by the plugin. The plugin reads every key, in as many
 * statements (chunks) of its own size as it likes.
 *
 * Row order: the order is not part of the contract, but it reaches the output. The host writes
 * a page's re-pulled rows in the order the plugin delivers them, so two correct plugins for one
 * database may write the same RECORD lines in another order, and that is intended: a row's
 * latest event decides its record, not its place among other rows. A test compares each
 * stream's records sorted by key (the records of one key kept in their order), not line by
 * line.
 */
typedef struct TdgFetchRequest {
    /** [in] The size the host filled: TDG_FETCH_REQUEST_SIZE_1 or _2. Since 1. */
    uint32_t struct_size;
    /** [in] Number of entries of columns. Since 1. */
    int32_t num_columns;
    /** [in] Since 1. */
    TdgTableRef table;
    /** [in] Columns to return, in this order (exact names, as describe_table reported). */
    const char* const* columns;
    /** [in] The first key column (exact name); for a one-column key, the key. Since 1. */
    const char* key_column;
    /**
     * [in] The keys, each column's value its canonical key text (see "Key texts": decimal
     * digits for integer keys, lowercase hex for bytes); the plugin binds them typed.
     * num_keys keys; with num_key_columns k > 1 each key is k texts in key column order, so
     * keys and key_sizes hold num_keys * k entries, key i's column c at i * k + c. Since 1.
     */
    int64_t num_keys;
    const char* const* keys;
    const uint64_t* key_sizes;
    /** [in] Preferred rows per batch handed to the sink (0 = plugin's choice). Since 1. */
    int64_t batch_rows;
    /**
     * [in] Since 2: the key's columns in key order (exact names), num_key_columns >= 1, and
     * key_columns[0] equals key_column. A host sends a key of more than one column only to a
     * plugin that speaks revision 2.
     */
    int32_t num_key_columns;
    int32_t reserved_;
    const char* const* key_columns;
    /** [in] Since 2: the kind describe_table reported for each of columns (num_columns). */
    const TdgValueKind* column_kinds;
} TdgFetchRequest;

#define TDG_FETCH_REQUEST_SIZE_1 offsetof(TdgFetchRequest, num_key_columns)
#define TDG_FETCH_REQUEST_SIZE_2 sizeof(TdgFetchRequest)

/**
 * Read every current row of a table in bounded batches, ordered by key when possible (keyset
 * pages in key column order); since 5 also one chunk of it (scan_chunk). Borrowed for the call
 * ([in]). A page of the plugin's own size
 * continues after the last row's whole key, all key columns compared in key order (row value
 * comparison or its spelled-out form, sdk::keysetAfter), in the database's own comparison:
 * continuing after the first key column alone skips the rest of its run.
 */
typedef struct TdgScanRequest {
    /** [in] The size the host filled: TDG_SCAN_REQUEST_SIZE_1, _2 or _5. Since 1. */
    uint32_t struct_size;
    /** [in] Since 1. */
    int32_t num_columns;
    TdgTableRef table;
    const char* const* columns;
    /** [in] The first key column; for a one-column key, the key. Since 1. */
    const char* key_column;
    /** [in] Preferred rows per batch (0 = plugin's choice). Since 1. */
    int64_t batch_rows;
    /** [in] Since 2: as in TdgFetchRequest. */
    int32_t num_key_columns;
    int32_t reserved_;
    const char* const* key_columns;
    const TdgValueKind* column_kinds;
    /**
     * [in] Since 5, read by scan_chunk only (scan_table ignores it): where the chunk starts.
     * NULL: at the table's first row. Otherwise num_key_columns cells, in key order, each the
     * value of a key column exactly as this plugin's row batches carried it (kind, i64, data
     * and size): the chunk holds only the rows whose key comes after this one in the order
     * the scan reads them (the key columns in key order, compared as the database compares
     * them). The host takes it from the last row of the chunk before, which may have been read
     * by an earlier run of this plugin (a STATE keeps it).
     */
    const TdgCell* after_key;
    /** [in] Since 5, read by scan_chunk only: at most this many rows; >= 1. */
    int64_t max_rows;
} TdgScanRequest;

#define TDG_SCAN_REQUEST_SIZE_1 offsetof(TdgScanRequest, num_key_columns)
#define TDG_SCAN_REQUEST_SIZE_2 offsetof(TdgScanRequest, after_key)
#define TDG_SCAN_REQUEST_SIZE_5 sizeof(TdgScanRequest)

/* ------------------------------------------------------------------------------------------ */
/* The function table                                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct TdgDriver {
    /** Set by the host: sizeof(TdgDriver) as the host was compiled. */
    uint32_t struct_size;
    /** Set by the plugin: the ABI version it filled. */
    int32_t abi_version;

    /* ---- since 1 ---------------------------------------------------------------------- */

    /**
     * Open a connection. Sessions are read-only and autocommit (no read transaction is ever
     * left open), in UTC, UTF-8 (MySQL: utf8mb4). On failure *out is left NULL.
     */
    TdgStatus (*connect)(const TdgConnectParams* params, TdgConnection** out, TdgError* error);

    /** Close and free a connection. NULL is allowed. Never fails. */
    void (*close)(TdgConnection* connection);

    /** Write the server's version ("PostgreSQL 15.18") into buffer, truncated, NUL-terminated. */
    TdgStatus (*server_version)(TdgConnection* connection, char* buffer, size_t buffer_size,
                                TdgError* error);

    /** Columns of a table, ordinal order; TDG_NOT_FOUND naming the table when it is missing. */
    TdgStatus (*describe_table)(TdgConnection* connection, const TdgTableRef* table,
                                TdgColumnList* out, TdgError* error);

    /** Read one page of the diffgen log (see TdgPageRequest, TdgEventPage). */
    TdgStatus (*read_diffgen_page)(TdgConnection* connection, const TdgPageRequest* request,
                                   TdgEventPage* out, TdgError* error);

    /**
     * The highest diffgen id (any table), or *is_empty = 1 when the log is empty. Used to
     * start a snapshot and to report lag.
     */
    TdgStatus (*max_diffgen_id)(TdgConnection* connection, const TdgTableRef* diffgen,
                                int64_t* out_max_id, int32_t* out_is_empty, TdgError* error);

    /** Current rows for a batch of keys, streamed to sink. */
    TdgStatus (*fetch_rows)(TdgConnection* connection, const TdgFetchRequest* request,
                            TdgBatchSink sink, void* sink_context, TdgError* error);

    /** Every current row of a table, streamed to sink in bounded memory. */
    TdgStatus (*scan_table)(TdgConnection* connection, const TdgScanRequest* request,
                            TdgBatchSink sink, void* sink_context, TdgError* error);

    /**
     * Optional (NULL = not supported; the engine then treats an id range as final only when it
     * has no gap, and otherwise waits for the settle time the user configured). Optional in
     * the ABI, not in use: without it every page whose id range has a gap holds the run's
     * bookmark for horizon_settle_seconds (10 s by default), which a run that reads such a
     * page waits out at its end, each run. See TdgHorizonMark for how to build a mark.
     *
     * Is everything that was in flight when `mark` was taken now finished (committed or rolled
     * back), so that ids missing from that page's range can never appear? Sets *out_state to
     * TDG_HORIZON_FINAL or TDG_HORIZON_PENDING. When pending, the plugin may replace *next with
     * a successor mark that the host must use for the following checks (two-phase protocols);
     * otherwise it copies mark into next.
     */
    TdgStatus (*check_horizon)(TdgConnection* connection, const TdgHorizonMark* mark,
                               int32_t* out_state, TdgHorizonMark* next, TdgError* error);

    /**
     * Ask the running call on this connection to stop soon (any thread). Best effort, but it
     * must interrupt a statement already running on the server (PQcancel, KILL QUERY,
     * sqlite3_interrupt, SQLCancel), not only stop the row stream between batches, which the
     * SDK's DriverBase does by itself: a cancel that waits for the statement's first rows waits
     * as long as the statement runs. The host may call it several times for one call.
     */
    TdgStatus (*cancel)(TdgConnection* connection, TdgError* error);

    /* ---- since 2, optional: NULL, or beyond the host's struct_size, means absent -------- */

    /**
     * fetch_rows for num_requests requests at once. Since 2 (plugins built with SDK 0.1 fill it
     * under revision 1 already; a host accepts it there too). Request i's rows go to sinks[i]
     * with sink_contexts[i]; every batch of request i is delivered before any of request i+1.
     * A plugin may send every request before it reads the first answer (pipelining), so the
     * server goes from one to the next without waiting for the host to consume rows. On a
     * failure the call stops: rows of the requests before it may have been delivered, as with
     * a fetch_rows that fails midway. The host falls back to fetch_rows when this is absent.
     *   [in] requests: num_requests requests laid out requests->struct_size bytes apart (the
     *        size of the revision the plugin filled the table for; a plugin finds request i at
     *        (const char*)requests + i * requests->struct_size, never by its own sizeof)
     *   [in] sinks, sink_contexts: num_requests entries each
     */
    TdgStatus (*fetch_rows_many)(TdgConnection* connection, const TdgFetchRequest* requests,
                                 int64_t num_requests, const TdgBatchSink* sinks,
                                 void* const* sink_contexts, TdgError* error);

    /* ---- since 3, optional: NULL, or beyond the host's struct_size, means absent -------- */

    /**
     * Optional, since 3: wait until a change may have been committed to the
     * diffgen log, or until timeout_ms milliseconds have passed, whichever is first. A
     * following run calls it instead of sleeping between two reads at the log's head, so that
     * it reads again as soon as the database signals a commit (PostgreSQL: a LISTEN on the
     * configured notify_channel).
     *   [in]  timeout_ms: at most this long, >= 0 (0: only look at what already arrived)
     *   [out] out_changed: 1 when a signal arrived (possibly also for an earlier change already
     *         read: the host simply reads again), 0 on time-out; also 0 when a signal
     *         interrupted the wait (EINTR), so that the host can look at its stop flag
     * Nothing is allocated; on failure (the connection was lost) *error is set as for any
     * call and the host reconnects as usual. Returns TDG_NOT_IMPLEMENTED when this connection
     * has nothing to wait on (no channel configured): the host then polls, sleeping between
     * reads, as it does when the member is NULL or beyond the host's struct_size.
     */
    TdgStatus (*wait_for_change)(TdgConnection* connection, int64_t timeout_ms,
                                 int32_t* out_changed, TdgError* error);

    /* ---- since 4, optional: NULL, or beyond the host's struct_size, means absent -------- */

    /**
     * Optional, since 4: describe_table for num_tables tables at once, in a number of round
     * trips that does not grow with num_tables, so that a run with hundreds of configured
     * tables starts as fast as one with a few. The host falls back to one describe_table per
     * table when this is absent.
     *   [in]  tables: num_tables table references (num_tables >= 0)
     *   [out] out: num_tables zeroed column lists; out[i] receives tables[i]'s columns, as
     *         describe_table gives them, and the host releases each one
     * When a table does not exist, returns TDG_NOT_FOUND naming the first such table in the
     * order given, with the message describe_table would give, and leaves every out[i] zeroed.
     */
    TdgStatus (*describe_tables)(TdgConnection* connection, const TdgTableRef* tables,
                                 int64_t num_tables, TdgColumnList* out, TdgError* error);

    /* ---- since 5, optional: NULL, or beyond the host's struct_size, means absent -------- */

    /**
     * Optional, since 5: the log's bounds (see TdgJournalBounds), in one statement that costs
     * a few index reads whatever the log's size. The engine calls it before a run's first page
     * and again when a page shows a gap right after a stream's bookmark (a prune while the tap
     * runs) or, following, now and then at the log's head (a reset). Without it, or when it
     * returns TDG_NOT_IMPLEMENTED, a pruned or reset journal goes unnoticed (the engine says
     * so once).
     *   [in]     diffgen: the diffgen table
     *   [in,out] out: struct_size set by the host (see TdgJournalBounds), the rest zeroed
     */
    TdgStatus (*journal_bounds)(TdgConnection* connection, const TdgTableRef* diffgen,
                                TdgJournalBounds* out, TdgError* error);

    /**
     * Optional, since 5: what the catalog says of how the configured tables reach the journal
     * (see TdgJournalInspection): the id source's cache, partitions, foreign-key actions that
     * bypass triggers and, when asked, the journal triggers. Called once before a run's first
     * output, so it should cost a bounded number of statements whatever num_tables is. A table
     * that does not exist is left to describe_table to report: its entry is simply empty.
     * Without it, or on TDG_NOT_IMPLEMENTED, the engine skips these checks (and says so once).
     *   [in]  request: see TdgJournalRequest
     *   [out] out: zeroed by the host; released by the host through out->release
     */
    TdgStatus (*inspect_journal)(TdgConnection* connection, const TdgJournalRequest* request,
                                 TdgJournalInspection* out, TdgError* error);

    /**
     * Optional, since 5: one chunk of a table in key order: the rows whose key comes after
     * request->after_key (from the first row when it is NULL), at most request->max_rows of
     * them, streamed to sink as scan_table streams them. Each call is statements of its own
     * that keep no read view or lock past the call, and its memory does not grow with the
     * rows' number or size beyond a batch (a client that buffers whole results streams them
     * row by row instead). Fewer than max_rows rows say that the read found no row after the
     * last one delivered. Rows with a NULL key column are left out, as scan_table leaves them.
     * The engine snapshots a table one chunk at a time, between pages of the log, and resumes
     * after the last chunk it wrote when a run is interrupted. Without it (NULL, beyond the
     * host's struct_size, or TDG_NOT_IMPLEMENTED), a snapshot is one scan_table call, which
     * starts again from the first row after an interruption.
     *   [in] request: struct_size >= TDG_SCAN_REQUEST_SIZE_5; see after_key and max_rows
     */
    TdgStatus (*scan_chunk)(TdgConnection* connection, const TdgScanRequest* request,
                            TdgBatchSink sink, void* sink_context, TdgError* error);

    /**
     * Optional, since 5: how many rows `table` holds, as the database estimates it without
     * reading the table (PostgreSQL's pg_class.reltuples, MySQL's information_schema.TABLES
     * TABLE_ROWS), for a snapshot's progress and time left. Sets *out_rows to -1 when there
     * is no estimate (a table never analysed). Without it, or on TDG_NOT_IMPLEMENTED, the
     * progress shows the rows done and the rate only.
     *   [in]  table: the table, as describe_table takes it
     *   [out] out_rows: the estimate (>= 0), or -1
     */
    TdgStatus (*estimate_rows)(TdgConnection* connection, const TdgTableRef* table,
                               int64_t* out_rows, TdgError* error);
} TdgDriver;

#define TDG_DRIVER_SIZE_1 offsetof(TdgDriver, fetch_rows_many)
#define TDG_DRIVER_SIZE_2 offsetof(TdgDriver, wait_for_change)
#define TDG_DRIVER_SIZE_3 offsetof(TdgDriver, describe_tables)
#define TDG_DRIVER_SIZE_4 offsetof(TdgDriver, journal_bounds)
#define TDG_DRIVER_SIZE_5 sizeof(TdgDriver)

/* ------------------------------------------------------------------------------------------ */
/* Entry points (exported by the plugin with C linkage and default visibility)                 */
/* ------------------------------------------------------------------------------------------ */

/** Returns the plugin's static info block. Never NULL, never fails, does no work. */
typedef const TdgPluginInfo* (*TdgPluginInfoFn)(void);

/**
 * Fill `driver` for ABI `version`. driver->struct_size is set by the host beforehand; the plugin
 * fills no member that lies beyond it. Returns TDG_NOT_IMPLEMENTED when it cannot speak
 * `version`, leaving the table untouched.
 */
typedef TdgStatus (*TdgDriverInitFn)(int32_t version, TdgDriver* driver, TdgError* error);

#ifdef __cplusplus
}
#endif

#endif /* TAP_DIFFGEN_DIALECT_ABI_H */
