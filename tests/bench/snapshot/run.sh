#!/usr/bin/env bash
# Snapshots (docs/snapshots.md), side by side with the database's own client:
#   1. throughput: a ROWS-row table of 10 mixed columns snapshotted by the tap (start_from
#      snapshot, an empty log) against the same table exported as JSON by the database's client
#      (psql COPY of row_to_json, mariadb --quick of JSON_OBJECT), REPEAT rounds taking turns;
#      the fastest run of each, and the median of each round's ratio;
#   2. peak RSS on wide rows: WIDE rows of about 1 MiB in each of two tables, the tap snapshotting
#      one, and then replaying a log whose pages span both (every row re-pulled); goal
#      64 MiB + 4 x the row.
#
#   bash tests/bench/snapshot/run.sh [BUILD_DIR] [ROWS] [REPEAT] [WIDE]   (build, 200000, 3, 48)
#
# It uses the test servers of tests/servers/*.sh (started when not running; TDG_TEST_PG_PORT,
# TDG_TEST_MYSQL_PORT, TDG_TEST_DIR) and leaves tables snap_bench_* in their databases. Tables
# are kept between runs of the same ROWS and WIDE. Markdown on stdout, progress on stderr.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
ROWS=${2:-200000}
REPEAT=${3:-3}
WIDE=${4:-48}
PG_PORT=${TDG_TEST_PG_PORT:-55432}
MY_PORT=${TDG_TEST_MYSQL_PORT:-53306}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source-path=SCRIPTDIR source=../lib.sh
source "$ROOT/tests/bench/lib.sh"
TAP=$BUILD/bin/tap-diffgen
PLUGINS=$BUILD/lib/tap-diffgen/plugins
[[ -x $TAP ]] || die "build tap-diffgen and its PostgreSQL and MySQL drivers in $BUILD first"
bash "$ROOT/tests/servers/postgres.sh" start >&2
bash "$ROOT/tests/servers/mariadb.sh" start >&2

readonly ROW_BYTES=1048576
TABLE=snap_bench_r$ROWS
LOG=snap_bench_diffgen

# ---- tables -----------------------------------------------------------------------------------

# log_sql DIALECT NAME -> the CREATE TABLE of a diffgen log (empty: nothing journals here).
log_sql() {
    if [[ $1 == pg ]]; then
        printf 'CREATE TABLE IF NOT EXISTS %s (id bigserial PRIMARY KEY, tablename text NOT NULL, table_id text NOT NULL, op char(1) NOT NULL, ts_created timestamptz NOT NULL DEFAULT now());\n' "$2"
    else
        printf 'CREATE TABLE IF NOT EXISTS %s (id bigint AUTO_INCREMENT PRIMARY KEY, tablename varchar(64) NOT NULL, table_id varchar(255) NOT NULL, op char(1) NOT NULL, ts_created timestamp(6) NOT NULL DEFAULT current_timestamp(6));\n' "$2"
    fi
}

pg_tables() {
    pg_sql <<SQL
$(log_sql pg "$LOG")
CREATE TABLE IF NOT EXISTS $TABLE (
    id bigint PRIMARY KEY, customer_id bigint, amount numeric(12,2), email text, name text,
    country text, note text, created_at timestamptz, paid boolean, doc jsonb);
SQL
    [[ $(pg_value "SELECT count(*) FROM $TABLE") == "$ROWS" ]] && return
    log "postgres: filling $TABLE with $ROWS rows"
    pg_sql <<SQL
TRUNCATE $TABLE;
INSERT INTO $TABLE
SELECT g, g % 300, (g % 997) + 0.25, 'user' || g || '@example.com', 'Customer ' || g,
       (ARRAY['DE','GB','FR','US'])[g % 4 + 1], CASE WHEN g % 3 = 0 THEN 'express' END,
       '2024-05-01 09:30:00+00'::timestamptz + g * interval '1 second', g % 2 = 0,
       jsonb_build_object('source', 'web', 'items', g % 7)
FROM generate_series(1, $ROWS) g;
VACUUM ANALYZE $TABLE;
SQL
}

my_tables() {
    my_sql <<SQL
$(log_sql my "$LOG")
CREATE TABLE IF NOT EXISTS $TABLE (
    id bigint PRIMARY KEY, customer_id bigint, amount decimal(12,2), email text, name text,
    country varchar(2), note text, created_at datetime(6), paid boolean,
    doc longtext CHECK (json_valid(doc)));
SQL
    [[ $(my_value "SELECT count(*) FROM $TABLE") == "$ROWS" ]] && return
    log "mariadb: filling $TABLE with $ROWS rows"
    my_sql <<SQL
TRUNCATE $TABLE;
INSERT INTO $TABLE
SELECT seq, seq % 300, (seq % 997) + 0.25, CONCAT('user', seq, '@example.com'),
       CONCAT('Customer ', seq), ELT(seq % 4 + 1, 'DE', 'GB', 'FR', 'US'),
       IF(seq % 3 = 0, 'express', NULL),
       TIMESTAMP '2024-05-01 09:30:00' + INTERVAL seq SECOND, seq % 2 = 0,
       JSON_OBJECT('source', 'web', 'items', seq % 7)
FROM seq_1_to_$ROWS;
ANALYZE TABLE $TABLE;
SQL
} >&2

# wide_table_sql DIALECT T -> the SQL that makes table snap_bench_wide_T of WIDE rows of about
# 1 MiB each (distinct text, so that nothing is shared or compressed away).
wide_table_sql() {
    local table=snap_bench_wide_$2
    if [[ $1 == pg ]]; then
        printf 'DROP TABLE IF EXISTS %s; CREATE TABLE %s (id bigint PRIMARY KEY, body text);\n' "$table" "$table"
        printf 'ALTER TABLE %s ALTER body SET STORAGE EXTERNAL;\n' "$table"
        printf "INSERT INTO %s SELECT g, left(repeat(md5(g || '%s'), %d), %d) FROM generate_series(1, %d) g;\n" \
            "$table" "$2" $((ROW_BYTES / 32 + 1)) "$ROW_BYTES" "$WIDE"
    else
        printf 'DROP TABLE IF EXISTS %s; CREATE TABLE %s (id bigint PRIMARY KEY, body longtext);\n' "$table" "$table"
        printf "INSERT INTO %s SELECT seq, LEFT(REPEAT(MD5(CONCAT(seq, '%s')), %d), %d) FROM seq_1_to_%d;\n" \
            "$table" "$2" $((ROW_BYTES / 32 + 1)) "$ROW_BYTES" "$WIDE"
    fi
}

# wide_log_sql DIALECT -> the SQL that journals an update of every row of both tables, their
# rows alternating: each page of the log spans both tables.
wide_log_sql() {
    local table="CASE WHEN n % 2 = 0 THEN 'snap_bench_wide_a' ELSE 'snap_bench_wide_b' END"
    local numbers="SELECT g AS n FROM generate_series(0, $((2 * WIDE - 1))) g" key="(n / 2 + 1)::text"
    if [[ $1 == my ]]; then
        numbers="SELECT seq AS n FROM seq_0_to_$((2 * WIDE - 1))" key="n DIV 2 + 1"
    fi
    printf "INSERT INTO snap_bench_wide_diffgen (tablename, table_id, op) SELECT %s, %s, 'u' FROM (%s) numbers;\n" \
        "$table" "$key" "$numbers"
}

# The two wide tables and their log, made once for WIDE.
wide_tables() {
    local dialect=$1 t
    [[ $("${dialect}_value" "SELECT count(*) FROM snap_bench_wide_b" 2>/dev/null || true) == "$WIDE" ]] && return
    log "$(dialect_name "$dialect"): filling two tables with $WIDE rows of 1 MiB"
    {
        log_sql "$dialect" snap_bench_wide_diffgen
        echo "TRUNCATE snap_bench_wide_diffgen;"
        for t in a b; do wide_table_sql "$dialect" "$t"; done
        wide_log_sql "$dialect"
    } | "${dialect}_sql" >&2
}

# ---- runners ----------------------------------------------------------------------------------

connection() {
    if [[ $1 == pg ]]; then
        printf '"sql_dialect":"postgres","host":"127.0.0.1","port":%s,"ssl_mode":"disable"' "$PG_PORT"
    else
        printf '"sql_dialect":"mysql","host":"127.0.0.1","port":%s,"ssl_mode":"disable"' "$MY_PORT"
    fi
    printf ',"user":"%s","password":"%s","database":"%s"' "$DB_USER" "$DB_PASSWORD" "$DB_NAME"
}

# tap_runner DIALECT NAME CONFIG_BODY -> a runner script of the tap with that config.
tap_runner() {
    printf '{%s,%s}\n' "$(connection "$1")" "$3" >"$WORK/$1-$2.json"
    command_line "$TAP" --config "$WORK/$1-$2.json" --plugin-dir "$PLUGINS" >"$WORK/$1-$2.sh"
    printf '%s' "$WORK/$1-$2.sh"
}

export_runner() {
    local words=()
    mapfile -t words < <("${1}_client_words")
    if [[ $1 == pg ]]; then
        command_line "${words[@]}" -c "COPY (SELECT row_to_json(t) FROM $TABLE t) TO STDOUT"
    else
        command_line "${words[@]}" -e "SELECT JSON_OBJECT('id', id, 'customer_id', customer_id, 'amount', amount, 'email', email, 'name', name, 'country', country, 'note', note, 'created_at', created_at, 'paid', paid, 'doc', JSON_EXTRACT(doc, '$')) FROM $TABLE"
    fi >"$WORK/$1-export.sh"
    printf '%s' "$WORK/$1-export.sh"
}

# ---- measuring --------------------------------------------------------------------------------

RATES=()
throughput() {
    local dialect=$1 tap dump key=$1:throughput ratios
    "${dialect}_tables"
    tap=$(tap_runner "$dialect" snapshot "\"diffgen_table\":\"$LOG\",\"tables\":[{\"table_name\":\"$TABLE\",\"pk_column\":\"id\",\"start_from\":\"snapshot\"}]")
    dump=$(export_runner "$dialect")
    log "$(dialect_name "$dialect"): snapshot of $ROWS rows against the JSON export, $REPEAT rounds"
    take_turns "$REPEAT" "$dialect" "$key" tap="$tap" export="$dump"
    ratios=$(turn_ratios "$key" export tap)
    RATES+=("$(printf '| %s | %.0f | %.0f | %.2f | %.2f (%.2f–%.2f) | %.1f |' "$(dialect_name "$dialect")" \
        "$(calc "$ROWS / ${RESULT[$key:tap_wall]}")" "$(calc "$ROWS / ${RESULT[$key:export_wall]}")" \
        "$(calc "${RESULT[$key:export_wall]} / ${RESULT[$key:tap_wall]}")" "$(median <<<"$ratios")" \
        "$(sort -g <<<"$ratios" | head -1)" "$(sort -g <<<"$ratios" | tail -1)" \
        "$(calc "${RESULT[$key:tap_rss]} / 1024")")")
    grep -E "snapshot of|done" "$WORK/tap-${key//:/-}.err" | head -4 >&2 || true
}

MEMORY=()
wide_memory() {
    local dialect=$1 runner name limit
    wide_tables "$dialect"
    limit=$(calc "64 + 4 * $ROW_BYTES / 1048576")
    for name in snapshot replay; do
        if [[ $name == snapshot ]]; then
            runner=$(tap_runner "$dialect" wide-$name '"diffgen_table":"snap_bench_wide_diffgen","tables":[{"table_name":"snap_bench_wide_a","pk_column":"id","start_from":"snapshot"}]')
        else
            runner=$(tap_runner "$dialect" wide-$name '"diffgen_table":"snap_bench_wide_diffgen","tables":[{"table_name":"snap_bench_wide_a","pk_column":"id"},{"table_name":"snap_bench_wide_b","pk_column":"id"}]')
        fi
        measure "$dialect" "$dialect-wide-$name" bash "$runner"
        log "$(dialect_name "$dialect"): $name of 1 MiB rows: peak RSS $(calc "$M_RSS / 1024") MiB in $(fmt %.2f "$M_WALL") s"
        MEMORY+=("$(printf '| %s | %s | %d | %.1f | %d | %s |' "$(dialect_name "$dialect")" "$name" \
            "$([[ $name == snapshot ]] && echo "$WIDE" || echo $((2 * WIDE)))" \
            "$(calc "$M_RSS / 1024")" "$limit" "$( (($(calc "$M_RSS / 1024 <= $limit"))) && echo yes || echo NO)")")
    done
}

log "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
for dialect in pg my; do
    throughput "$dialect"
    wide_memory "$dialect"
done

echo
echo "Snapshot of $ROWS rows (10 columns) against the database's JSON export of the same table,"
echo "$REPEAT rounds taking turns; load average $(cut -d' ' -f1-3 /proc/loadavg) at the end:"
echo
echo "| database | tap rows/s | export rows/s | tap ÷ export, fastest runs | per round: median (lowest–highest) | tap peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "${RATES[@]}"
echo
echo "Peak RSS with rows of 1 MiB (the snapshot of one table of $WIDE rows; the replay of a log of"
echo "$((2 * WIDE)) updates whose pages span two such tables, every row re-pulled):"
echo
echo "| database | run | rows out | peak RSS MiB | goal MiB (64 + 4 × row) | within |"
echo "|---|---|---:|---:|---:|---|"
printf '%s\n' "${MEMORY[@]}"
