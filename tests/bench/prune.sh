#!/usr/bin/env bash
# What the prune record's trigger costs a retention job; see docs/journal-triggers.md, "What the
# prune record costs a retention job".
#
#   bash tests/bench/prune.sh [--rows N] [--rounds K] [--dialect D]
#
# Two copies of the shipped diffgen table (packaging/diffgen/), each filled with N events: one
# with the shipped DELETE (and, on PostgreSQL, TRUNCATE) triggers that keep the prune record,
# one without any trigger. Each round fills both and runs `DELETE FROM <log> WHERE id <= N` on
# each, taking turns in order, and times the statement alone on the server's clock. Prints a
# Markdown table on stdout (the median of the rounds, and the lowest and highest), progress on
# stderr. The servers are the throwaway test servers (tests/servers/*.sh start; running ones
# are reused, never stopped).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ROWS=1000000
ROUNDS=3
DIALECT=all

while [[ $# -gt 0 ]]; do
    case $1 in
        --rows) ROWS=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --dialect) DIALECT=$2; shift 2 ;;
        *) echo "usage: bash tests/bench/prune.sh [--rows N] [--rounds K] [--dialect D]" >&2; exit 2 ;;
    esac
done

note() { echo "prune.sh: $*" >&2; }

# The shipped SQL with the journal's objects renamed to bench_prune_*.
renamed_sql() { sed -E 's/(^|[^A-Za-z0-9_])diffgen/\1bench_prune_diffgen/g' "$ROOT/packaging/diffgen/$1"; }

median_low_high() {
    sort -n | awk 'NF { v[++n] = $1 } END { printf "%.3f|%.3f|%.3f\n", v[int((n + 1) / 2)], v[1], v[n] }'
}

# ---- PostgreSQL --------------------------------------------------------------------------

pg() { $TDG_TEST_PG_ADMIN -At "$@"; }

pg_setup() {
    pg -c "DROP TABLE IF EXISTS bench_prune_diffgen, bench_prune_diffgen_pruned, bench_prune_plain CASCADE" >/dev/null 2>&1
    renamed_sql postgres.sql | pg >/dev/null 2>&1
    pg -c "CREATE TABLE bench_prune_plain (LIKE bench_prune_diffgen INCLUDING ALL)" >/dev/null
}

pg_fill() {
    pg -c "TRUNCATE $1" -c "UPDATE bench_prune_diffgen_pruned SET highest_pruned_id = 0" \
        -c "INSERT INTO $1 (id, tablename, table_id, op)
            SELECT g, 'items', g::text, 'u' FROM generate_series(1, $ROWS) AS g" \
        -c "VACUUM ANALYZE $1" >/dev/null
}

# Seconds the DELETE took, on the server's clock.
pg_delete() {
    pg -c "DO \$\$ DECLARE started timestamptz := clock_timestamp(); BEGIN
             DELETE FROM $1 WHERE id <= $ROWS;
             RAISE NOTICE 'seconds %', extract(epoch FROM clock_timestamp() - started);
           END \$\$" 2>&1 | sed -n 's/.*seconds \([0-9.]*\).*/\1/p' | tail -1
}

pg_record() { pg -c "SELECT highest_pruned_id FROM bench_prune_diffgen_pruned"; }

# ---- MariaDB -----------------------------------------------------------------------------

my() { $TDG_TEST_MYSQL_ADMIN -N -B "$@"; }

my_setup() {
    my -e "DROP TABLE IF EXISTS bench_prune_diffgen, bench_prune_diffgen_pruned, bench_prune_plain"
    renamed_sql mysql.sql | my
    my -e "CREATE TABLE bench_prune_plain LIKE bench_prune_diffgen"
}

my_fill() {
    my -e "TRUNCATE TABLE $1; UPDATE bench_prune_diffgen_pruned SET highest_pruned_id = 0;
           INSERT INTO $1 (id, tablename, table_id, op)
           SELECT seq, 'items', seq, 'u' FROM seq_1_to_$ROWS; ANALYZE TABLE $1" >/dev/null
}

my_delete() {
    my -e "SET @started = NOW(6); DELETE FROM $1 WHERE id <= $ROWS;
           SELECT TIMESTAMPDIFF(MICROSECOND, @started, NOW(6)) / 1e6"
}

my_record() { my -e "SELECT highest_pruned_id FROM bench_prune_diffgen_pruned"; }

# ---- The run -----------------------------------------------------------------------------

measure() {
    local dialect=$1 plain=() recorded=()
    "${dialect}_setup"
    for ((round = 1; round <= ROUNDS; ++round)); do
        "${dialect}_fill" bench_prune_plain
        "${dialect}_fill" bench_prune_diffgen
        # Taking turns: the first statement of a round runs on the colder cache.
        if ((round % 2 == 1)); then
            plain+=("$("${dialect}_delete" bench_prune_plain)")
            recorded+=("$("${dialect}_delete" bench_prune_diffgen)")
        else
            recorded+=("$("${dialect}_delete" bench_prune_diffgen)")
            plain+=("$("${dialect}_delete" bench_prune_plain)")
        fi
        note "$dialect round $round: without ${plain[-1]} s, with the record ${recorded[-1]} s"
    done
    local record
    record=$("${dialect}_record")
    [[ $record == "$ROWS" ]] || { note "$dialect: the record says $record, not $ROWS"; exit 1; }
    IFS='|' read -r p_med p_low p_high < <(printf '%s\n' "${plain[@]}" | median_low_high)
    IFS='|' read -r r_med r_low r_high < <(printf '%s\n' "${recorded[@]}" | median_low_high)
    local ratios=()
    for ((i = 0; i < ROUNDS; ++i)); do
        ratios+=("$(awk -v r="${recorded[i]}" -v p="${plain[i]}" 'BEGIN { printf "%.2f", r / p }')")
    done
    IFS='|' read -r x_med x_low x_high < <(printf '%s\n' "${ratios[@]}" | median_low_high)
    printf '| %s | %s s (%s–%s) | %s s (%s–%s) | %s× (%s–%s) |\n' "$2" "$p_med" "$p_low" "$p_high" \
        "$r_med" "$r_low" "$r_high" "$x_med" "$x_low" "$x_high"
}

for server in postgres mariadb; do
    eval "$(bash "$ROOT/tests/servers/$server.sh" env)"
done
echo "DELETE FROM diffgen WHERE id <= $ROWS on $ROWS events, median of $ROUNDS rounds (lowest–highest); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| database | without the trigger | with the prune record's trigger | with / without |"
echo "|---|---|---|---|"
if [[ $DIALECT == all || $DIALECT == postgres ]]; then
    measure pg "PostgreSQL $(pg -c 'SHOW server_version' | cut -d' ' -f1)"
fi
if [[ $DIALECT == all || $DIALECT == mysql ]]; then
    measure my "MariaDB $(my -e 'SELECT VERSION()' | cut -d- -f1)"
fi
