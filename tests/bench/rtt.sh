# shellcheck shell=bash disable=SC2016,SC2153 # Markdown backticks; settings come from run.sh
# The tap and the limit at a given round-trip time. The kernel here has no netem, so a small
# forwarder (proxy/bench_proxy.cpp) on loopback holds every chunk for half the added round
# trip in each direction; chunks queue rather than wait for each other, so only waiting for an
# answer costs time, as on a long line. Both the tap and the limit go through the same
# forwarder, once without a hold (what forwarding itself costs on this machine) and once with
# it, so that the ratio at the added latency is measured beside the ratio without.

# proxy_start DIALECT HOLD_US COUNTS_FILE [STATEMENTS_FILE]: starts the forwarder in front of
# the dialect's server; sets PROXY_PID and PROXY_PORT.
proxy_start() {
    local dialect=$1 hold=$2 counts=$3 statements=${4:-} target protocol
    if [[ $dialect == pg ]]; then target=$PG_PORT protocol=postgres; else target=$MY_PORT protocol=mysql; fi
    rm -f "$counts"
    coproc BENCH_PROXY { exec "$PROXY" --to "$target" --delay-us "$hold" --protocol "$protocol" \
        --counts "$counts" ${statements:+--statements "$statements"}; }
    PROXY_PID=$BENCH_PROXY_PID
    read -r -t 10 PROXY_PORT <&"${BENCH_PROXY[0]}" || die "the benchmark proxy did not start"
}

proxy_stop() {
    kill "$PROXY_PID" 2>/dev/null || true
    wait "$PROXY_PID" 2>/dev/null || true
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

# rtt_measure DIALECT PREFIX T: for each hold (0 and $RTT_MS/2), the tap and the limit's client
# form through the forwarder, best of $REPEAT each; key:rtt_<ms>_{tap,limit}_wall and the
# tap's round trips per run.
rtt_measure() {
    local dialect=$1 prefix=$2 tables=$3 key=$1:$2 ms hold counts base=$WORK/limit-$1-$2 runs
    for ms in 0 "$RTT_MS"; do
        hold=$(calc "$ms * 500")
        counts=$WORK/rtt-$dialect-$prefix-$ms.counts
        proxy_start "$dialect" "$hold" "$counts"
        best_of "$REPEAT" "$dialect" "rtt-$ms-tap-$dialect-$prefix" "$TAP" --config \
            "$(tap_config "$dialect" "$prefix" "$tables" "$PROXY_PORT")"
        put "$key:rtt_${ms}_tap_wall" "$M_WALL"
        runs=$(proxy_count "$counts" connections)
        ((runs >= REPEAT)) || die "the tap did not connect through the benchmark proxy"
        put "$key:rtt_${ms}_tap_round_trips" "$(($(proxy_count "$counts" round_trips) / REPEAT))"
        best_of "$REPEAT" "$dialect" "rtt-$ms-limit-$dialect-$prefix" bash \
            "$(CLIENT_PORT=$PROXY_PORT limit_runner "$dialect" "$base-all.sql")"
        put "$key:rtt_${ms}_limit_wall" "$M_WALL"
        proxy_stop
        log "  through the proxy, $ms ms added round trip: tap $(fmt %.2f "${RESULT[$key:rtt_${ms}_tap_wall]}") s" \
            "(${RESULT[$key:rtt_${ms}_tap_round_trips]} round trips), limit $(fmt %.2f "$M_WALL") s"
    done
}

# rtt_row DIALECT N T: records/s and tap ÷ limit direct, through the forwarder, and with the
# added round trip.
rtt_row() {
    local dialect=$1 n=$2 tables=$3 key records direct_tap direct_limit row ms tap limit
    key=$dialect:$(workload_prefix "$n" "$tables")
    records=${RESULT[$key:records]}
    direct_tap=$(calc "$records / ${RESULT[$key:tap_wall]}")
    direct_limit=$(calc "$records / ${RESULT[$key:limit_all_wall]}")
    row="| $(dialect_name "$dialect") | $(group "$n") × $tables | $(group "$direct_tap") | $(group "$direct_limit") | $(fmt %.2f "$(calc "$direct_tap / $direct_limit")")"
    for ms in 0 "$RTT_MS"; do
        tap=$(calc "$records / ${RESULT[$key:rtt_${ms}_tap_wall]}")
        limit=$(calc "$records / ${RESULT[$key:rtt_${ms}_limit_wall]}")
        row+=" | $(group "$tap") | $(group "$limit") | $(fmt %.2f "$(calc "$tap / $limit")")"
    done
    printf '%s | %s |\n' "$row" "${RESULT[$key:rtt_${RTT_MS}_tap_round_trips]}"
}

rtt_report() {
    printf '\n| database | events × tables | direct: tap records/s | limit | tap ÷ limit |'
    printf ' proxy, +0 ms: tap | limit | tap ÷ limit | proxy, +%s ms RTT: tap | limit | tap ÷ limit |' "$RTT_MS"
    printf ' tap round trips |\n'
    printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
    local dialect
    for dialect in "$@"; do rtt_row "$dialect" "$SMALL_EVENTS" "$TABLES"; done
    printf '\n*proxy*: `proxy/bench_proxy.cpp` on loopback between the client and the server, holding '
    printf 'each chunk %s ms in each direction (+0 ms: forwarding only); the tap and the limit ' "$(calc "$RTT_MS / 2")"
    printf 'both go through it. *tap round trips*: times the tap sent after the server had answered.\n'
}
