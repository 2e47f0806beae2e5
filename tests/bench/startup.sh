# shellcheck shell=bash disable=SC2016,SC2153 # Markdown backticks; settings come from run.sh
# Start-up: a whole run of the tap with many configured tables and one new event, where the
# time is connecting, introspection and the first page rather than rows. The workload
# bench_startup<S> has S empty journalled tables of the usual 10 columns and one event (an
# insert into the first). The tap runs with the first T of them configured, for each T of
# $STARTUP_TABLES; one more run of each goes through the counting forwarder (rtt.sh) to count
# connections, round trips and statements, whose texts are grouped by shape for the largest T.

startup_prefix() { printf 'bench_startup%s' "$STARTUP_MAX_TABLES"; }

startup_setup_sql() {
    local dialect=$1 p=$2 t table
    workload_diffgen_sql "$dialect" "$p"
    for ((t = 1; t <= STARTUP_MAX_TABLES; t++)); do
        printf -v table '%s_t%02d' "$p" "$t"
        "${dialect}_table_create_sql" "$table"
        "${dialect}_table_trigger_sql" "$p" "$table"
    done
}

startup_first_row_sql() {
    local dialect=$1 p=$2 values=()
    mapfile -t values < <("${dialect}_row_values" 1 0)
    printf 'INSERT INTO %s_t01 (%s) VALUES (1, %s);\n' "$p" \
        "$(join_by ', ' "${WORKLOAD_COLUMNS[@]}")" "$(join_by ', ' "${values[@]}")"
}

# startup_prepare DIALECT: builds the workload unless an identical one is there.
startup_prepare() {
    local dialect=$1 p fingerprint started
    p=$(startup_prefix)
    fingerprint=$({
        startup_setup_sql "$dialect" "$p"
        startup_first_row_sql "$dialect" "$p"
    } | md5sum | cut -c1-32)
    if ((!FRESH)) && [[ $("${dialect}_workload_fingerprint" "$p") == "$fingerprint" ]]; then
        log "$dialect: workload $p is ready"
        return 0
    fi
    started=$(tdg_now)
    log "$dialect: building workload $p ($STARTUP_MAX_TABLES empty tables, one event)"
    "${dialect}_workload_drop" "$p"
    {
        startup_setup_sql "$dialect" "$p"
        startup_first_row_sql "$dialect" "$p"
        printf 'CREATE TABLE %s_meta (fingerprint VARCHAR(64) NOT NULL);\n' "$p"
        printf "INSERT INTO %s_meta VALUES ('%s');\n" "$p" "$fingerprint"
    } | "${dialect}_sql" >/dev/null
    log "$dialect: workload $p built in $(tdg_elapsed "$started") s"
}

# startup_measure DIALECT: for each T, the whole run (best of $REPEAT), then one run through
# the counting forwarder and one with $RTT_MS ms added to every round trip.
startup_measure() {
    local dialect=$1 p tables key counts statements
    p=$(startup_prefix)
    for tables in $STARTUP_TABLES; do
        key=$dialect:$p:$tables
        best_of "$REPEAT" "$dialect" "startup-$dialect-$tables" "$TAP" --config \
            "$(tap_config "$dialect" "$p" "$tables")"
        grep -q 'sync done: 1 events, 1 records' "$WORK/startup-$dialect-$tables.err" ||
            die "the start-up run did not read its one event (see $WORK/startup-$dialect-$tables.err)"
        put "$key:wall" "$M_WALL"
        put "$key:rss" "$M_RSS"
        counts=$WORK/startup-$dialect-$tables.counts
        statements=$WORK/startup-$dialect-$tables.statements
        proxy_start "$dialect" 0 "$counts" "$statements"
        measure "$dialect" "startup-counted-$dialect-$tables" "$TAP" --config \
            "$(tap_config "$dialect" "$p" "$tables" "$PROXY_PORT")"
        put "$key:connections" "$(proxy_count "$counts" connections)"
        put "$key:round_trips" "$(proxy_count "$counts" round_trips)"
        put "$key:statements" "$(proxy_count "$counts" statements)"
        proxy_stop
        proxy_start "$dialect" "$(calc "$RTT_MS * 500")" "$counts"
        measure "$dialect" "startup-rtt-$dialect-$tables" "$TAP" --config \
            "$(tap_config "$dialect" "$p" "$tables" "$PROXY_PORT")"
        put "$key:rtt_wall" "$M_WALL"
        proxy_stop
        log "  start-up with $tables tables: $(fmt %.3f "${RESULT[$key:wall]}") s," \
            "${RESULT[$key:round_trips]} round trips, ${RESULT[$key:statements]} statements;" \
            "$(fmt %.3f "${RESULT[$key:rtt_wall]}") s at +$RTT_MS ms"
    done
}

# startup_shapes FILE -> the statement texts with names, literals and numbers blanked, counted,
# most frequent first.
startup_shapes() {
    cut -f2- "$1" | sed -E "s/'[^']*'/'…'/g; s/\"[^\"]*\"/\"…\"/g; s/\`[^\`]*\`/\`…\`/g;
        s/[0-9]+/N/g; s/  +/ /g" | cut -c1-110 | sort | uniq -c | sort -rn
}

startup_report() {
    local dialect tables key largest=${STARTUP_TABLES##* }
    printf '\n| database | configured tables | whole run | peak RSS | connections | round trips |'
    printf ' statements | whole run at +%s ms RTT |\n' "$RTT_MS"
    printf '|---|---:|---:|---:|---:|---:|---:|---:|\n'
    for dialect in "$@"; do
        for tables in $STARTUP_TABLES; do
            key=$dialect:$(startup_prefix):$tables
            printf '| %s | %s | %s s | %s MiB | %s | %s | %s | %s s |\n' "$(dialect_name "$dialect")" \
                "$tables" "$(fmt %.3f "${RESULT[$key:wall]}")" \
                "$(fmt %.1f "$(calc "${RESULT[$key:rss]} / 1024")")" \
                "${RESULT[$key:connections]}" "${RESULT[$key:round_trips]}" \
                "${RESULT[$key:statements]}" "$(fmt %.3f "${RESULT[$key:rtt_wall]}")"
        done
    done
    printf '\n*start-up*: one new event, the given number of configured (empty) tables; counted '
    printf 'by the forwarder (`proxy/bench_proxy.cpp`) on a separate run.\n'
    for dialect in "$@"; do
        printf '\nStatements sent at start-up with %s tables, %s, by shape (count, text with names, ' \
            "$largest" "$(dialect_name "$dialect")"
        printf 'literals and numbers blanked; one line per execution):\n\n```\n'
        startup_shapes "$WORK/startup-$dialect-$largest.statements" | sed -n 1,12p
        printf '```\n'
    done
}
