#!/usr/bin/env bash
# A range of the primary key against a list of keys, at several densities, on both test
# servers: the measurement behind kMinRunDensity and kMinKeyRun (sdk/key_run.hpp).
#
#   bash tests/bench/key_ranges.sh [KEYS] [REPEAT] [DENSITY...]
#
# One table of the workload's 10 mixed columns and 400,000 rows per database
# (bench_key_ranges, kept). For each density d, KEYS keys (2,000 by default) spread evenly over
# KEYS / d consecutive integers are read REPEAT times (20) by one client session in three ways
# taking turns: as the key list (`COPY (… id = ANY ('{…}')) TO STDOUT` with psql, `id IN (…)` with mariadb), as
# the one range `id BETWEEN first AND last` (every row of it returned: the client throws the
# unasked ones away, as the SDK does), and as that range with the unasked rows filtered by the
# server (what the range costs the server alone). The rows go to /dev/null. Prints one
# Markdown table per database: milliseconds per read, the best of three such sessions.
# shellcheck source-path=SCRIPTDIR disable=SC2034
set -euo pipefail

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH/../.." && pwd)
KEYS=${1:-2000}
REPEAT=${2:-20}
PG_PORT=${TDG_TEST_PG_PORT:-55432}
MY_PORT=${TDG_TEST_MYSQL_PORT:-53306}
ROWS=400000
TABLE=bench_key_ranges
DENSITIES=("${@:3}")
((${#DENSITIES[@]})) || DENSITIES=(1 0.75 0.5 0.35 0.25 0.15 0.1)

# shellcheck source=lib.sh
source "$BENCH/lib.sh"
# shellcheck source=workload.sh
source "$BENCH/workload.sh"

prepare() {
    if [[ $(pg_value "SELECT count(*) FROM pg_tables WHERE tablename = '$TABLE'") == 0 ]]; then
        {
            workload_filled_table_sql pg "$TABLE" "$ROWS"
            printf 'VACUUM ANALYZE %s;\n' "$TABLE"
        } | pg_sql >/dev/null
    fi
    if [[ $(my_value "SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = '$TABLE'") == 0 ]]; then
        {
            workload_filled_table_sql my "$TABLE" "$ROWS"
            printf 'ANALYZE TABLE %s;\n' "$TABLE"
        } | my_sql >/dev/null
    fi
}

# keys DENSITY -> KEYS keys, comma-separated, spread evenly over KEYS / DENSITY integers from
# the middle of the table.
keys() {
    awk -v n="$KEYS" -v d="$1" -v base=$((ROWS / 4)) 'BEGIN {
        for (i = 0; i < n; i++) printf "%s%d", (i ? "," : ""), base + int(i / d) }'
}

# statement DIALECT FORM KEYS -> one read.
statement() {
    local dialect=$1 form=$2 list=$3 first last cols
    first=${list%%,*} last=${list##*,}
    cols=$(join_by ', ' "${WORKLOAD_COLUMNS[@]}")
    case $dialect:$form in
        pg:list) printf "COPY (SELECT %s FROM %s WHERE id = ANY ('{%s}'::int[])) TO STDOUT;\n" "$cols" "$TABLE" "$list" ;;
        pg:range) printf 'COPY (SELECT %s FROM %s WHERE id BETWEEN %s AND %s) TO STDOUT;\n' "$cols" "$TABLE" "$first" "$last" ;;
        pg:both) printf "COPY (SELECT %s FROM %s WHERE id BETWEEN %s AND %s AND id = ANY ('{%s}'::int[])) TO STDOUT;\n" "$cols" "$TABLE" "$first" "$last" "$list" ;;
        my:list) printf 'SELECT %s FROM %s WHERE id IN (%s);\n' "$cols" "$TABLE" "$list" ;;
        my:range) printf 'SELECT %s FROM %s WHERE id BETWEEN %s AND %s;\n' "$cols" "$TABLE" "$first" "$last" ;;
        my:both) printf 'SELECT %s FROM %s WHERE id BETWEEN %s AND %s AND id IN (%s);\n' "$cols" "$TABLE" "$first" "$last" "$list" ;;
    esac
}

# session DIALECT FILE -> milliseconds the client took for the file's statements.
session() {
    local started
    started=$(tdg_now)
    if [[ $1 == pg ]]; then pg_sql -o /dev/null -f "$2"; else my_sql --quick <"$2" >/dev/null; fi
    calc "($(tdg_now) - $started) / 1000"
}

measure() {
    local dialect=$1 d form list file r best ms
    local -A fastest=()
    printf '\n%s, %s keys, ms per read (best of 3 sessions of %s reads):\n\n' \
        "$(dialect_name "$dialect")" "$KEYS" "$REPEAT"
    printf '| density | span | key list | range, all rows | range ÷ list | range filtered by the server |\n'
    printf '|---:|---:|---:|---:|---:|---:|\n'
    for d in "${DENSITIES[@]}"; do
        list=$(keys "$d")
        fastest=()
        for round in 1 2 3; do
            for form in list range both; do
                file=$(mktemp)
                for ((r = 0; r < REPEAT; r++)); do statement "$dialect" "$form" "$list" >>"$file"; done
                ms=$(session "$dialect" "$file")
                rm -f "$file"
                best=${fastest[$form]:-}
                if [[ -z $best ]] || (($(calc "$ms < $best"))); then fastest[$form]=$ms; fi
            done
        done
        printf '| %s | %s | %s | %s | %s | %s |\n' "$d" "$(awk -v n="$KEYS" -v d="$d" 'BEGIN { printf "%d", n / d }')" \
            "$(fmt %.2f "$(calc "${fastest[list]} / $REPEAT")")" \
            "$(fmt %.2f "$(calc "${fastest[range]} / $REPEAT")")" \
            "$(fmt %.2f "$(calc "${fastest[range]} / ${fastest[list]}")")" \
            "$(fmt %.2f "$(calc "${fastest[both]} / $REPEAT")")"
    done
}

prepare
pg_sql -o /dev/null -c "SELECT count(*) FROM $TABLE" && my_value "SELECT count(*) FROM $TABLE" >/dev/null
measure pg
measure my
