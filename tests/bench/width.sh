# shellcheck shell=bash disable=SC2016,SC2153 # Markdown backticks; settings come from run.sh
# Cost per event against the number of tables, the same N events over T, W and X tables. Each
# workload's best of $REPEAT is taken minutes after the other's, and on a shared machine that
# alone moves a ratio between them by more than the difference being measured. So the tap also
# runs on the three workloads taking turns (rotate_rounds in lib.sh): one run of each per round,
# $WIDTH_ROUNDS rounds, the order rotating every round, after one round left out. Each round's
# W- and X-table runs are divided by its T-table run; the report gives the median of those
# ratios with their range, and the ratio of the best runs.

# width_tables -> the three table counts, in round order.
width_tables() { printf '%s\n' "$TABLES" "$WIDE_TABLES" "$WIDEST_TABLES"; }

# width_run DIALECT T LABEL: one run of the tap over N × T; sets M_WALL.
width_run() {
    local dialect=$1 tables=$2 prefix
    prefix=$(workload_prefix "$EVENTS" "$tables")
    measure "$dialect" "$3" "$TAP" --config "$(tap_config "$dialect" "$prefix" "$tables")"
}

# width_measure DIALECT: the rounds; stores key:width_walls (one line per round, T W X walls)
# under DIALECT:width.
width_measure() {
    local dialect=$1 tables=()
    mapfile -t tables < <(width_tables)
    "${dialect}_quiesce"
    log "$dialect: cost per event against tables, ${tables[*]} tables taking turns, $WIDTH_ROUNDS rounds"
    rotate_rounds 0 "$WIDTH_ROUNDS" "${#tables[@]}" width_turn
    put "$dialect:width:walls" "$ROUND_WALLS"
}

# width_turn SLOT ROUND: width_measure's run over its SLOTth table count.
width_turn() {
    width_run "$dialect" "${tables[$1]}" "width-$dialect-${tables[$1]}"
}

# width_walls DIALECT -> the rounds' walls, one line per round (T W X).
width_walls() { printf '%s' "${RESULT[$1:width:walls]}"; }

# width_ratios DIALECT COLUMN -> each round's wall of that column divided by its first
# column's, one a line.
width_ratios() { width_walls "$1" | awk -v c="$2" '{ print $c / $1 }'; }

# width_best_ratio DIALECT COLUMN -> that column's fastest wall divided by the first column's.
width_best_ratio() {
    width_walls "$1" | awk -v c="$2" '
        NR == 1 || $1 < b1 { b1 = $1 } NR == 1 || $c < bc { bc = $c } END { print bc / b1 }'
}

# width_median_micros DIALECT COLUMN -> the median of that column's wall, in µs per event.
width_median_micros() {
    fmt %.2f "$(calc "$(width_walls "$1" | awk -v c="$2" '{ print $c }' | median) / $EVENTS * 1000000")"
}

# width_cell DIALECT COLUMN -> "median (lowest–highest) | best ÷ best" of that column against T.
width_cell() {
    printf '%s | %s | %s' "$(width_median_micros "$1" "$2")" \
        "$(width_ratios "$1" "$2" | spread_cell)" "$(fmt %.2f "$(width_best_ratio "$1" "$2")")"
}

width_report() {
    local dialect
    printf '\n| database | µs/event, %s × %s | µs/event, × %s | %s ÷ %s tables | best ÷ best |' \
        "$(group "$EVENTS")" "$TABLES" "$WIDE_TABLES" "$WIDE_TABLES" "$TABLES"
    printf ' µs/event, × %s | %s ÷ %s tables | best ÷ best |\n' \
        "$WIDEST_TABLES" "$WIDEST_TABLES" "$TABLES"
    printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
    for dialect in "$@"; do
        printf '| %s | %s | %s | %s |\n' "$(dialect_name "$dialect")" \
            "$(width_median_micros "$dialect" 1)" "$(width_cell "$dialect" 2)" "$(width_cell "$dialect" 3)"
    done
    printf '\n*Taking turns*: %s rounds of one run over each of %s, %s and %s tables, the order ' \
        "$WIDTH_ROUNDS" "$TABLES" "$WIDE_TABLES" "$WIDEST_TABLES"
    printf 'rotating, after one round left out; µs/event is the median run, the ratio the median '
    printf '(lowest–highest) of each round'"'"'s run divided by its %s-table run, *best ÷ best* ' "$TABLES"
    printf 'the fastest runs'"'"' ratio.\n'
}
