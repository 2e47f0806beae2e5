# shellcheck shell=bash disable=SC2016,SC2153 # Markdown backticks; settings come from run.sh
# The tap and the limit at a given round-trip time. The kernel here has no netem, so a small
# forwarder (proxy/bench_proxy.cpp) on loopback holds every chunk for half the added round
# trip in each direction; chunks queue rather than wait for each other, so only waiting for an
# answer costs time, as on a long line. The tap and the limit run direct, through a forwarder
# that holds nothing (what forwarding itself costs on this machine) and through one that
# holds, taking turns: $RTT_ROUNDS rounds of one run of each of the six, the order rotating
# every round, after one round left out. A best of a few taken minutes apart moves with the
# machine by more than the difference in question; each round's own tap ÷ limit does not.

# proxy_start DIALECT HOLD_US COUNTS_FILE [STATEMENTS_FILE]: starts a forwarder in front of
# the dialect's server; sets PROXY_PID and PROXY_PORT. Several may run at once.
proxy_start() {
    local dialect=$1 hold=$2 counts=$3 statements=${4:-} target protocol port_file
    local deadline=$((SECONDS + 10))
    if [[ $dialect == pg ]]; then target=$PG_PORT protocol=postgres; else target=$MY_PORT protocol=mysql; fi
    port_file=$counts.port
    rm -f "$counts" "$port_file"
    "$PROXY" --to "$target" --delay-us "$hold" --protocol "$protocol" --counts "$counts" \
        ${statements:+--statements "$statements"} >"$port_file" &
    PROXY_PID=$!
    until [[ -s $port_file ]] && read -r PROXY_PORT <"$port_file" && [[ -n $PROXY_PORT ]]; do
        if ((SECONDS >= deadline)) || ! kill -0 "$PROXY_PID" 2>/dev/null; then
            die "the benchmark proxy did not start"
        fi
        sleep 0.02
    done
}

# proxy_stop [PID]: stops that forwarder (default: the one started last).
proxy_stop() {
    local pid=${1:-$PROXY_PID}
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# proxy_count COUNTS_FILE NAME -> that total once no connection is open any more (a client's
# connection closes when it exits; the forwarder sees it a moment later).
proxy_count() {
    local deadline=$((SECONDS + 10))
    until [[ -f $1 ]] && grep -qx 'open 0' "$1"; do
        ((SECONDS < deadline)) || die "the benchmark proxy still has connections open"
        sleep 0.05
    done
    awk -v name="$2" '$1 == name { print $2 }' "$1"
}

# The six runs of a round, in their column order: the tap then the limit, direct, through the
# forwarder without a hold, and with it.
readonly RTT_RUNS=(tap-direct limit-direct tap-0 limit-0 tap-hold limit-hold)

# rtt_count DIALECT PREFIX T: one run each of the tap and the limit through a counting
# forwarder; stores key:rtt_{tap,limit}_{round_trips,connections}.
rtt_count() {
    local dialect=$1 prefix=$2 tables=$3 key=$1:$2 counts who
    for who in tap limit; do
        counts=$WORK/rtt-$dialect-$prefix-count-$who.counts
        proxy_start "$dialect" 0 "$counts"
        if [[ $who == tap ]]; then
            measure "$dialect" "rtt-count-$who-$dialect-$prefix" "$TAP" --config \
                "$(tap_config "$dialect" "$prefix" "$tables" "$PROXY_PORT")"
        else
            measure "$dialect" "rtt-count-$who-$dialect-$prefix" bash "$(rtt_limit_runner "$dialect" "$prefix" "$PROXY_PORT")"
        fi
        put "$key:rtt_${who}_round_trips" "$(proxy_count "$counts" round_trips)"
        put "$key:rtt_${who}_connections" "$(proxy_count "$counts" connections)"
        proxy_stop
    done
}

# rtt_limit_runner DIALECT PREFIX [PORT] -> a runner of the limit's client form sent to PORT
# (default: the server), each port with its own script.
rtt_limit_runner() {
    local dialect=$1 prefix=$2 port=${3:-} base=$WORK/limit-$1-$2 script
    script=$WORK/rtt-limit-$dialect-$prefix-${port:-direct}.sql
    cp "$base-all.sql" "$script"
    CLIENT_PORT=$port limit_runner "$dialect" "$script"
}

# rtt_measure DIALECT PREFIX T: the counted runs, then the rounds; stores key:rtt_walls (one
# line per round, the walls in RTT_RUNS order).
rtt_measure() {
    local dialect=$1 prefix=$2 tables=$3 key=$1:$2
    local commands=() zero_pid hold_pid zero_port hold_port
    rtt_count "$dialect" "$prefix" "$tables"
    proxy_start "$dialect" 0 "$WORK/rtt-$dialect-$prefix-0.counts"
    zero_pid=$PROXY_PID zero_port=$PROXY_PORT
    proxy_start "$dialect" "$(calc "$RTT_MS * 500")" "$WORK/rtt-$dialect-$prefix-hold.counts"
    hold_pid=$PROXY_PID hold_port=$PROXY_PORT
    commands=(
        "$TAP --config $(tap_config "$dialect" "$prefix" "$tables")"
        "bash $(rtt_limit_runner "$dialect" "$prefix")"
        "$TAP --config $(tap_config "$dialect" "$prefix" "$tables" "$zero_port")"
        "bash $(rtt_limit_runner "$dialect" "$prefix" "$zero_port")"
        "$TAP --config $(tap_config "$dialect" "$prefix" "$tables" "$hold_port")"
        "bash $(rtt_limit_runner "$dialect" "$prefix" "$hold_port")"
    )
    "${dialect}_quiesce"
    log "$dialect: latency profile, ${#RTT_RUNS[@]} runs taking turns, $RTT_ROUNDS rounds (+$RTT_MS ms: port $hold_port)"
    rotate_rounds 0 "$RTT_ROUNDS" "${#RTT_RUNS[@]}" rtt_turn rtt_shown
    proxy_stop "$zero_pid"
    proxy_stop "$hold_pid"
    put "$key:rtt_walls" "$ROUND_WALLS"
}

# rtt_turn SLOT ROUND: rtt_measure's run SLOT (RTT_RUNS order).
rtt_turn() {
    # shellcheck disable=SC2086 # each command is its words; no path here has spaces
    measure "$dialect" "rtt-$dialect-$prefix-${RTT_RUNS[$1]}" ${commands[$1]}
}

# rtt_shown WALLS -> "tap/limit" seconds per pair, for the log.
rtt_shown() {
    awk '{ printf "direct %.2f/%.2f s, +0 %.2f/%.2f s, hold %.2f/%.2f s", $1, $2, $3, $4, $5, $6 }' <<<"$1"
}

# rtt_ratios KEY PAIR -> each round's tap ÷ limit in records/s (limit wall ÷ tap wall), one a
# line, for pair 0 (direct), 1 (+0 ms) or 2 (held).
rtt_ratios() {
    printf '%s' "${RESULT[$1:rtt_walls]}" | awk -v p="$2" '{ print $(2 * p + 2) / $(2 * p + 1) }'
}

# rtt_median_rate KEY COLUMN RECORDS -> records/s of that run's median wall.
rtt_median_rate() {
    calc "$3 / $(printf '%s' "${RESULT[$1:rtt_walls]}" | awk -v c="$2" '{ print $c }' | median)"
}

# rtt_ratio_cell KEY PAIR -> "median (lowest–highest)".
rtt_ratio_cell() { rtt_ratios "$1" "$2" | spread_cell; }

# rtt_row DIALECT N T
rtt_row() {
    local dialect=$1 key records
    key=$dialect:$(workload_prefix "$2" "$3")
    records=${RESULT[$key:records]}
    printf '| %s | %s × %s | %s | %s | %s | %s | %s | %s | %s / %s |\n' "$(dialect_name "$dialect")" \
        "$(group "$2")" "$3" "$(rtt_ratio_cell "$key" 0)" "$(rtt_ratio_cell "$key" 1)" \
        "$(rtt_ratio_cell "$key" 2)" "$(group "$(rtt_median_rate "$key" 1 "$records")")" \
        "$(group "$(rtt_median_rate "$key" 5 "$records")")" \
        "$(group "$(rtt_median_rate "$key" 6 "$records")")" \
        "${RESULT[$key:rtt_tap_round_trips]}" "${RESULT[$key:rtt_limit_round_trips]}"
}

rtt_report() {
    printf '\n| database | events × tables | tap ÷ limit, direct | through the forwarder, +0 ms |'
    printf ' +%s ms RTT | tap records/s direct | tap at +%s ms | limit at +%s ms |' "$RTT_MS" "$RTT_MS" "$RTT_MS"
    printf ' round trips, tap / limit |\n'
    printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
    local dialect
    for dialect in "$@"; do rtt_row "$dialect" "$SMALL_EVENTS" "$TABLES"; done
    printf '\n*Taking turns*: %s rounds of one run each of the tap and the limit direct, through ' "$RTT_ROUNDS"
    printf '`proxy/bench_proxy.cpp` on loopback passing chunks on at once (+0 ms), and through one '
    printf 'holding each chunk %s ms in each direction, the order rotating, after one round left ' "$(calc "$RTT_MS / 2")"
    printf 'out; *tap ÷ limit* is the median (lowest–highest) of each round'"'"'s records/s ratio, '
    printf 'records/s the median run. *Round trips*: times the client sent after the server had '
    printf 'answered, counted on a separate run.\n'
}
