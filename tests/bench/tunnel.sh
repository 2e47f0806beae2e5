# shellcheck shell=bash
# The tap through an SSH tunnel against the same tap direct, on the same workload: what the
# tunnel costs. The bastion is the test sshd (tests/servers/sshd.sh) on this machine, so its
# encryption and forwarding share the CPUs with the tap and the server, as the tap's own side
# of the tunnel does.

# tunnel_config DIALECT PREFIX -> a config to give after the tap's own: the same database
# through the bastion, host key pinned.
tunnel_config() {
    local file=$WORK/$2-$1-tunnel.json key
    # JSON text of the key: its lines joined with \n (base64, dashes and spaces only).
    key=$(awk '{ printf "%s\\n", $0 }' "$SSH_DIR/client_key")
    cat >"$file" <<JSON
{"ssh_tunnel":{"enable":true,"host":"127.0.0.1","port":$SSH_PORT,"username":"$(id -un)",
 "private_key":"$key","known_hosts":"$SSH_DIR/known_hosts"}}
JSON
    printf '%s' "$file"
}

# tunnel_measure DIALECT PREFIX T: direct and tunnelled runs in turn, $REPEAT each, so that
# both see the same machine; the fastest of each is kept as key:tunnel_direct_wall and
# key:tunnel_wall, and the median of the pairs' ratios as key:tunnel_pair_ratio (on a shared
# machine the fastest runs of each side rarely come from the same quiet moment; a pair does).
tunnel_measure() {
    local dialect=$1 prefix=$2 tables=$3 direct tunnel i best_direct="" best_tunnel="" pair_direct
    local ratios=()
    direct=$(tap_config "$dialect" "$prefix" "$tables")
    tunnel=$(tunnel_config "$dialect" "$prefix")
    for ((i = 1; i <= REPEAT; i++)); do
        measure "$dialect" "tunnel-direct-$dialect-$prefix.$i" "$TAP" --config "$direct"
        pair_direct=$M_WALL
        [[ -n $best_direct ]] && (($(calc "$M_WALL >= $best_direct"))) || best_direct=$M_WALL
        measure "$dialect" "tunnel-$dialect-$prefix.$i" "$TAP" --config "$direct" \
            --config "$tunnel"
        grep -q 'SSH tunnel through bastion' "$WORK/tunnel-$dialect-$prefix.$i.err" ||
            die "the tunnelled run did not go through the bastion"
        [[ -n $best_tunnel ]] && (($(calc "$M_WALL >= $best_tunnel"))) || best_tunnel=$M_WALL
        ratios+=("$(calc "$pair_direct / $M_WALL")")
    done
    put "$dialect:$prefix:tunnel_direct_wall" "$best_direct"
    put "$dialect:$prefix:tunnel_wall" "$best_tunnel"
    put "$dialect:$prefix:tunnel_pair_ratio" "$(median "${ratios[@]}")"
    log "  tunnel: direct $(fmt %.2f "$best_direct") s, through the tunnel $(fmt %.2f "$best_tunnel") s," \
        "pairs' median ratio $(fmt %.2f "${RESULT[$dialect:$prefix:tunnel_pair_ratio]}")"
}

# tunnel_row DIALECT N T: records/s direct and through the tunnel, from the same run.
tunnel_row() {
    local dialect=$1 n=$2 tables=$3 key records direct tunnel
    key=$dialect:$(workload_prefix "$n" "$tables")
    records=${RESULT[$key:records]}
    direct=$(calc "$records / ${RESULT[$key:tunnel_direct_wall]}")
    tunnel=$(calc "$records / ${RESULT[$key:tunnel_wall]}")
    printf '| %s | %s × %s | %s | %s | %s | %s |\n' "$(dialect_name "$dialect")" "$(group "$n")" \
        "$tables" "$(group "$direct")" "$(group "$tunnel")" "$(fmt %.2f "$(calc "$tunnel / $direct")")" \
        "$(fmt %.2f "${RESULT[$key:tunnel_pair_ratio]}")"
}

tunnel_report() {
    printf '\n| database | events × tables | direct records/s | through the SSH tunnel records/s |'
    printf ' tunnel ÷ direct | median of the pairs |\n'
    printf '|---|---|---:|---:|---:|---:|\n'
    rows_per_run tunnel_row "$@"
    printf '\n*SSH tunnel*: the same tap and workload through the test bastion '
    printf '(OpenSSH on this machine, libssh in the tap), runs alternating with direct ones. '
    printf '*tunnel ÷ direct* compares the fastest run of each; *median of the pairs*, each '
    printf 'direct run with the tunnelled run right after it.\n'
}
