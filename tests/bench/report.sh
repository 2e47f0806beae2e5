# shellcheck shell=bash disable=SC2016,SC2153 # Markdown backticks; settings come from run.sh
# The results as Markdown tables, ready to paste into docs/performance.md. Rates are taken over the
# process's whole wall time (start, connect, discovery included), as a user sees them.


# report_row DIALECT N T: one line of the main table.
report_row() {
    local dialect=$1 n=$2 tables=$3 key
    key=$dialect:$(workload_prefix "$n" "$tables")
    local wall=${RESULT[$key:tap_wall]} events=${RESULT[$key:events]}
    local records=${RESULT[$key:records]}
    local tap_rate reference_rate limit_rate tap_limit_rate
    tap_rate=$(calc "$records / $wall")
    reference_rate=$(calc "$records / ${RESULT[$key:reference_wall]}")
    limit_rate=$(calc "$records / ${RESULT[$key:limit_all_wall]}")
    tap_limit_rate=$(calc "$records / ${RESULT[$key:limit_tap_wall]}")
    printf '| %s | %s × %s | %s | %s | %s MiB | %s / %s | %s | %s | %s | %s | %s | %s | %s |\n' \
        "$(dialect_name "$dialect")" "$(group "$events")" "$tables" \
        "$(group "$(calc "$events / $wall")")" "$(group "$tap_rate")" \
        "$(fmt %.1f "$(calc "${RESULT[$key:tap_rss]} / 1024")")" \
        "${RESULT[$key:diffgen_queries]}" "${RESULT[$key:repull_queries]}" \
        "$(group "$reference_rate")" "$(fmt %.2f "$(calc "$tap_rate / $reference_rate")")" \
        "$(group "$limit_rate")" "$(fmt %.2f "$(calc "$tap_rate / $limit_rate")")" \
        "$(group "$tap_limit_rate")" "$(fmt %.2f "$(calc "$tap_rate / $tap_limit_rate")")" \
        "$(fmt %.2f "$(calc "$wall / $events * 1000000")")"
}

# time_row DIALECT N T: where the tap's wall time goes, beside the limit's parts.
time_row() {
    local dialect=$1 n=$2 tables=$3 key wall
    key=$dialect:$(workload_prefix "$n" "$tables")
    wall=${RESULT[$key:tap_wall]}
    printf '| %s | %s × %s | %s s | %s s (%s%%) | %s s (%s%%) | %s s | %s s | %s s | %s s | %s s |\n' \
        "$(dialect_name "$dialect")" "$(group "$n")" "$tables" "$(fmt %.2f "$wall")" \
        "$(fmt %.2f "${RESULT[$key:tap_cpu]}")" \
        "$(fmt %.0f "$(calc "100 * ${RESULT[$key:tap_cpu]} / $wall")")" \
        "$(fmt %.2f "${RESULT[$key:tap_server_cpu]}")" \
        "$(fmt %.0f "$(calc "100 * ${RESULT[$key:tap_server_cpu]} / $wall")")" \
        "$(fmt %.2f "${RESULT[$key:sync_seconds]}")" \
        "$(fmt %.2f "${RESULT[$key:limit_all_wall]}")" \
        "$(fmt %.2f "${RESULT[$key:limit_all_server_cpu]}")" \
        "$(fmt %.2f "${RESULT[$key:limit_pages_wall]}")" \
        "$(fmt %.2f "${RESULT[$key:limit_fetches_wall]}")"
}

# ratio_cell KEY OTHER -> "median (lowest–highest)" over the rounds of OTHER's wall divided by
# the tap's: the tap's rate over OTHER's, as both handle the same records.
ratio_cell() { turn_ratios "$1" "$2" tap | spread_cell; }

# rounds_row DIALECT N T: the ratios of the main table, round by round.
rounds_row() {
    local key
    key=$1:$(workload_prefix "$2" "$3")
    printf '| %s | %s × %s | %s | %s | %s |\n' "$(dialect_name "$1")" "$(group "$2")" "$3" \
        "$(ratio_cell "$key" reference)" "$(ratio_cell "$key" limit_all)" \
        "$(ratio_cell "$key" limit_tap)"
}

# micros DIALECT N T -> the tap's µs per event for that workload.
micros() {
    local key
    key=$1:$(workload_prefix "$2" "$3")
    calc "${RESULT[$key:tap_wall]} / ${RESULT[$key:events]} * 1000000"
}

# report_print DIALECT...: the three tables for the dialects measured.
# rows_per_run ROW DIALECT...: ROW DIALECT N T for every measured workload of each dialect.
rows_per_run() {
    local row=$1 dialect config
    shift
    for dialect in "$@"; do
        for config in "${CONFIGS[@]}"; do
            # shellcheck disable=SC2086 # two words on purpose
            "$row" "$dialect" $config
        done
    done
}

report_print() {
    local dialect big small wide
    printf '\n## tap-diffgen throughput (%s)\n\n' "$(date -u +%Y-%m-%d)"
    printf '%s cores (%s), CPUs %s%% busy before measuring; the tap, the export, the limit and' \
        "$(nproc)" "$(uname -r)" "$CPU_BUSY_BEFORE"
    printf ' the limit in the tap'"'"'s statements run in %s rounds taking turns; best of the %s' \
        "$REPEAT" "$REPEAT"
    printf ' runs each.'
    if [[ " $* " == *" my "* ]]; then
        printf " MariaDB's InnoDB buffer pool: %s MiB." \
            "$(($(my_admin -e "SELECT @@innodb_buffer_pool_size") / 1048576))"
    fi
    if [[ " $* " == *" pg "* ]]; then
        printf " PostgreSQL's shared_buffers: %s." "$(pg_admin -At -c 'SHOW shared_buffers')"
    fi
    printf '\n\n'
    printf '| database | events × tables | tap events/s | tap records/s | tap peak RSS |'
    printf ' diffgen / re-pull queries | JSON export rows/s | tap ÷ export |'
    printf ' limit records/s | tap ÷ limit | limit, tap'"'"'s statements, records/s | tap ÷ that |'
    printf ' µs/event |\n'
    printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
    rows_per_run report_row "$@"
    printf '\n*JSON export*: the database'"'"'s own JSON of as many rows from the same tables '
    printf '(`COPY (SELECT row_to_json(t) …)` with psql, `SELECT JSON_OBJECT(…)` with `mariadb --quick`).\n'
    printf '*limit*: the same page reads and key fetches in the fastest form of the database'"'"'s '
    printf 'own client: `COPY (SELECT … WHERE id = ANY ('"'"'{…}'"'"')) TO STDOUT` via psql, '
    printf '`mariadb --quick` text queries (the plain page read, one fetch per table and page, '
    printf 'a page'"'"'s fetches as one multi-statement query), '
    printf 'rows to /dev/null. *limit, tap'"'"'s statements*: the statements the tap sends, as '
    printf 'the drivers batch them, sent by the same clients (the limit of earlier runs).\n\n'

    printf '| database | events × tables | tap ÷ export, by round | tap ÷ limit, by round |'
    printf ' tap ÷ limit in the tap'"'"'s statements, by round |\n'
    printf '|---|---|---:|---:|---:|\n'
    rows_per_run rounds_row "$@"
    printf '\n*by round*: each round'"'"'s ratio, median (lowest–highest) over the %s rounds.\n\n' \
        "$REPEAT"

    printf '| database | events × tables | tap wall | tap CPU | server CPU during the tap |'
    printf ' tap sync time | limit: all | server CPU during the limit | limit: page reads alone |'
    printf ' limit: key fetches alone |\n'
    printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
    rows_per_run time_row "$@"

    if ((WIDTH_ROUNDS)); then
        printf '\n| database | µs/event, %s × %s | µs/event, %s × %s | ratio |' \
            "$(group "$EVENTS")" "$TABLES" "$(group "$SMALL_EVENTS")" "$TABLES"
        printf ' µs/event, %s × %s | ratio to %s tables | µs/event, %s × %s | ratio to %s tables |\n' \
            "$(group "$EVENTS")" "$WIDE_TABLES" "$TABLES" "$(group "$EVENTS")" "$WIDEST_TABLES" "$TABLES"
        printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
        local widest
        for dialect in "$@"; do
            big=$(micros "$dialect" "$EVENTS" "$TABLES")
            small=$(micros "$dialect" "$SMALL_EVENTS" "$TABLES")
            wide=$(micros "$dialect" "$EVENTS" "$WIDE_TABLES")
            widest=$(micros "$dialect" "$EVENTS" "$WIDEST_TABLES")
            printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(dialect_name "$dialect")" \
                "$(fmt %.2f "$big")" "$(fmt %.2f "$small")" "$(fmt %.2f "$(calc "$big / $small")")" \
                "$(fmt %.2f "$wide")" "$(fmt %.2f "$(calc "$wide / $big")")" \
                "$(fmt %.2f "$widest")" "$(fmt %.2f "$(calc "$widest / $big")")"
        done
    fi
    printf '\n| database | peak RSS, %s events × %s | peak RSS, %s events × %s | ratio |\n' \
        "$(group "$SMALL_EVENTS")" "$TABLES" "$(group "$EVENTS")" "$TABLES"
    printf '|---|---:|---:|---:|\n'
    local small_rss big_rss
    for dialect in "$@"; do
        small_rss=${RESULT[$dialect:$(workload_prefix "$SMALL_EVENTS" "$TABLES"):tap_rss]}
        big_rss=${RESULT[$dialect:$(workload_prefix "$EVENTS" "$TABLES"):tap_rss]}
        printf '| %s | %s MiB | %s MiB | %s |\n' "$(dialect_name "$dialect")" \
            "$(fmt %.1f "$(calc "$small_rss / 1024")")" "$(fmt %.1f "$(calc "$big_rss / 1024")")" \
            "$(fmt %.2f "$(calc "$big_rss / $small_rss")")"
    done
}
