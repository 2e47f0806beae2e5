#!/usr/bin/env bash
# Throughput of tap-diffgen against the databases' own JSON export; see tests/bench/README.md.
#
#   bash tests/bench/run.sh [--events N] [--tables T] [--dialect postgres|mysql|all] [options]
#
# Builds the tap (Release, in build-bench/), starts the throwaway test servers (or reuses the
# running ones), builds the workloads N × T, N/10 × T, N × 16 and N × 64 in each database and
# one of 500 empty tables with one event, measures (also at 1 ms more round-trip time, through
# a delaying proxy), runs the tap over the three N-event workloads taking turns for the cost per
# event against the number of tables, and prints Markdown tables on stdout. Progress goes to stderr.
# shellcheck source-path=SCRIPTDIR disable=SC2034 # the sourced parts read the settings
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/tests/bench

usage() {
    cat <<'EOF'
usage: bash tests/bench/run.sh [options]
  --events N          backlog size (default 1000000); the scale run uses N/10
  --tables T          journalled tables (default 4)
  --wide-tables W     tables of the width run, same N (default 16)
  --widest-tables X   tables of the second width run, same N (default 64)
  --dialect D         postgres, mysql or all (default all)
  --repeat K          rounds of the tap, the export and the limits taking turns on each
                      workload, and runs of the start-up rows (default 3)
  --width-rounds K    rounds of the tap over N × T, N × W and N × X taking turns (default 15;
                      0: none)
  --quick             --events 100000 --repeat 1 --width-rounds 3 --rtt-rounds 3: a few minutes
  --rtt-ms MS         round-trip time the proxy adds for the latency profile (default 1; 0: none)
  --rtt-rounds K      rounds of the latency profile's six runs taking turns (default 9)
  --startup-tables S  configured tables of the start-up run (default 500; 0: none)
  --seed S            workload seed (default 1)
  --update-keys U     rows per table the updates pick from (default max(20000, N/T)); a
                      small U makes every page's updated keys dense (U = 3000 at 4 tables:
                      each page of 30,000 events updates every one of them)
  --profile           also profile the tap on the N/10 × T workload of each dialect
  --profile-only      only that profile
  --profiler P        auto (perf when it can count instructions, else callgrind), perf, callgrind
  --mariadb-buffer-pool MIB
                      grow MariaDB's buffer pool to MIB for the run, put it back after
                      (default 1024; 0 leaves it as the server has it)
  --postgres-shared-buffers MIB
                      restart PostgreSQL with shared_buffers of MIB for the run, and with
                      its own setting after (default 1024; 0 leaves it as it is)
  --tunnel            also measure the tap through an SSH tunnel (the test bastion,
                      tests/servers/sshd.sh) beside the tap direct
  --fresh             rebuild the workloads even when an identical one exists
  --prepare-only      build the workloads and stop (to measure later on a quiet machine)
  --clean             drop every bench_* table from both databases and exit
  --tap PATH          use this tap-diffgen instead of building build-bench/
  --build-dir DIR     build directory (default build-bench)
EOF
}

EVENTS=1000000 TABLES=4 WIDE_TABLES=16 WIDEST_TABLES=64 DIALECT=all REPEAT=3 WIDTH_ROUNDS=15 SEED=1 PROFILE=0 PROFILE_ONLY=0
UPDATE_KEYS="" RTT_MS=1 RTT_ROUNDS=9 STARTUP_MAX_TABLES=500 PROFILER=auto MY_BUFFER_POOL_MIB=1024 PG_SHARED_BUFFERS_MIB=1024 TUNNEL=0 FRESH=0 PREPARE_ONLY=0 CLEAN=0 TAP="" BUILD_DIR=$ROOT/build-bench
while (($#)); do
    case $1 in
        --events) EVENTS=$2 && shift ;;
        --tables) TABLES=$2 && shift ;;
        --wide-tables) WIDE_TABLES=$2 && shift ;;
        --widest-tables) WIDEST_TABLES=$2 && shift ;;
        --dialect) DIALECT=$2 && shift ;;
        --repeat) REPEAT=$2 && shift ;;
        --width-rounds) WIDTH_ROUNDS=$2 && shift ;;
        --quick) EVENTS=100000 REPEAT=1 WIDTH_ROUNDS=3 RTT_ROUNDS=3 ;;
        --rtt-ms) RTT_MS=$2 && shift ;;
        --rtt-rounds) RTT_ROUNDS=$2 && shift ;;
        --startup-tables) STARTUP_MAX_TABLES=$2 && shift ;;
        --seed) SEED=$2 && shift ;;
        --update-keys) UPDATE_KEYS=$2 && shift ;;
        --profile) PROFILE=1 ;;
        --profile-only) PROFILE=1 PROFILE_ONLY=1 ;;
        --profiler) PROFILER=$2 && shift ;;
        --mariadb-buffer-pool) MY_BUFFER_POOL_MIB=$2 && shift ;;
        --postgres-shared-buffers) PG_SHARED_BUFFERS_MIB=$2 && shift ;;
        --tunnel) TUNNEL=1 ;;
        --fresh) FRESH=1 ;;
        --prepare-only) PREPARE_ONLY=1 ;;
        --clean) CLEAN=1 ;;
        --tap) TAP=$2 && shift ;;
        --build-dir) BUILD_DIR=$2 && shift ;;
        -h | --help) usage && exit 0 ;;
        *) usage >&2 && exit 2 ;;
    esac
    shift
done
[[ $MY_BUFFER_POOL_MIB =~ ^[0-9]+$ && $PG_SHARED_BUFFERS_MIB =~ ^[0-9]+$ && $RTT_MS =~ ^[0-9]+$ && $WIDTH_ROUNDS =~ ^[0-9]+$ && $STARTUP_MAX_TABLES =~ ^[0-9]+$ ]] || {
    usage >&2
    exit 2
}
for value in "$EVENTS" "$TABLES" "$WIDE_TABLES" "$WIDEST_TABLES" "$REPEAT" "$RTT_ROUNDS" "$SEED" ${UPDATE_KEYS:+"$UPDATE_KEYS"}; do
    [[ $value =~ ^[1-9][0-9]*$ ]] || {
        printf 'run.sh: expected a positive number, got %s\n' "$value" >&2
        exit 2
    }
done
case $PROFILER in auto | perf | callgrind) ;; *) usage >&2 && exit 2 ;; esac
SMALL_EVENTS=$((EVENTS / 10 > 0 ? EVENTS / 10 : 1))
# The start-up rows: the main run's table count and the many-tables case.
STARTUP_TABLES="$TABLES $STARTUP_MAX_TABLES"
PG_PORT=${TDG_TEST_PG_PORT:-55432}
MY_PORT=${TDG_TEST_MYSQL_PORT:-53306}
SSH_PORT=${TDG_TEST_SSH_PORT:-52222}
SSH_DIR=${TDG_TEST_DIR:-/tmp/tap-diffgen-test}/sshd
WORK=$BUILD_DIR/bench

# shellcheck source=lib.sh
source "$BENCH/lib.sh"
bench_dialects "$DIALECT" || {
    usage >&2
    exit 2
}
# shellcheck source=workload.sh
source "$BENCH/workload.sh"
# shellcheck source=tap.sh
source "$BENCH/tap.sh"
# shellcheck source=reference.sh
source "$BENCH/reference.sh"
# shellcheck source=limit.sh
source "$BENCH/limit.sh"
# shellcheck source=tunnel.sh
source "$BENCH/tunnel.sh"
# shellcheck source=rtt.sh
source "$BENCH/rtt.sh"
# shellcheck source=width.sh
source "$BENCH/width.sh"
# shellcheck source=startup.sh
source "$BENCH/startup.sh"
# shellcheck source=profile.sh
source "$BENCH/profile.sh"
# shellcheck source=report.sh
source "$BENCH/report.sh"

build_tap() {
    local targets=(bench_proxy)
    if [[ -n $TAP ]]; then
        [[ -x $TAP ]] || die "--tap $TAP is not an executable"
    else
        targets+=(tap-diffgen tap-diffgen-dialect-postgres tap-diffgen-dialect-mysql)
    fi
    if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
        log "configuring $BUILD_DIR (Release)"
        cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log" 2>&1 ||
            die "cmake failed; see $WORK/cmake.log"
    fi
    log "building ${targets[*]}"
    cmake --build "$BUILD_DIR" -j2 --target "${targets[@]}" >"$WORK/build.log" 2>&1 ||
        die "build failed; see $WORK/build.log"
    TAP=${TAP:-$BUILD_DIR/bin/tap-diffgen}
    PROXY=$BUILD_DIR/bin/bench_proxy
}

start_servers() {
    if [[ " ${DIALECTS[*]} " == *" pg "* ]]; then
        bash "$ROOT/tests/servers/postgres.sh" start
    fi
    if [[ " ${DIALECTS[*]} " == *" my "* ]]; then
        bash "$ROOT/tests/servers/mariadb.sh" start
    fi
    if ((TUNNEL)); then
        bash "$ROOT/tests/servers/sshd.sh" start
    fi
}

clean() {
    local dialect
    for dialect in "${DIALECTS[@]}"; do
        log "$dialect: dropping every bench_* table"
        "${dialect}_workload_drop" bench
    done
}

# Both databases build their workloads at the same time: each build keeps one server process
# busy, and there are two cores. Nothing is measured before both are done.
prepare_workloads() {
    local dialect config pids=()
    for dialect in "$@"; do
        (
            for config in "${CONFIGS[@]}"; do
                # shellcheck disable=SC2086 # two words on purpose
                workload_prepare "$dialect" $config
            done
            if ((STARTUP_MAX_TABLES)); then startup_prepare "$dialect"; fi
        ) &
        pids+=("$!")
    done
    wait_all "building the workloads" "${pids[@]}"
}

# measure_workload DIALECT N T
measure_workload() {
    local dialect=$1 n=$2 tables=$3 prefix
    prefix=$(workload_prefix "$n" "$tables")
    "${dialect}_quiesce"
    log "$dialect: measuring $prefix"
    local key=$dialect:$prefix tap limit=$WORK/limit-$dialect-$prefix rss_mib
    tap=$(tap_runner "$dialect" "$prefix" "$tables")
    # One run first, not counted: the server's cache then holds what the tap and the limit
    # read, whichever workload ran before (the caches hold one 1M-event workload, not three).
    # Its summary gives the record count the export needs.
    measure "$dialect" "warm-$dialect-$prefix" bash "$tap"
    tap_summary "$key" "$WORK/warm-$dialect-$prefix.err"
    limit_prepare "$dialect" "$prefix" "$tables"
    take_turns "$REPEAT" "$dialect" "$key" tap="$tap" \
        reference="$(reference_runner "$dialect" "$prefix" "$tables")" \
        limit_all="$limit-all.sh" limit_tap="$limit-tap.sh"
    tap_summary "$key" "$WORK/tap-$dialect-$prefix.err"
    rss_mib=$((${RESULT[$key:tap_rss]} / 1024))
    log "  tap: ${RESULT[$key:summary]}; best $(fmt %.2f "${RESULT[$key:tap_wall]}") s wall," \
        "$(fmt %.2f "${RESULT[$key:tap_cpu]}") s tap CPU, $(fmt %.2f "${RESULT[$key:tap_server_cpu]}") s" \
        "server CPU, peak RSS $rss_mib MiB"
    log "  best: JSON export $(fmt %.2f "${RESULT[$key:reference_wall]}") s, limit" \
        "$(fmt %.2f "${RESULT[$key:limit_all_wall]}") s, the tap's statements" \
        "$(fmt %.2f "${RESULT[$key:limit_tap_wall]}") s"
    limit_parts_measure "$dialect" "$prefix"
    if ((RTT_MS)) && [[ $n == "$SMALL_EVENTS" && $tables == "$TABLES" ]]; then
        rtt_measure "$dialect" "$prefix" "$tables"
    fi
    if ((TUNNEL)); then tunnel_measure "$dialect" "$prefix" "$tables"; fi
}

main() {
    local started dialect config
    started=$(tdg_now)
    mkdir -p "$WORK"
    start_servers
    if ((CLEAN)); then
        clean
        return 0
    fi
    build_tap
    grow_buffer_pool
    grow_shared_buffers
    if ((!PROFILE_ONLY)); then
        CONFIGS=("$EVENTS $TABLES" "$SMALL_EVENTS $TABLES")
        # The wide workloads serve the width rounds alone: without them they are left out.
        if ((WIDTH_ROUNDS)); then CONFIGS+=("$EVENTS $WIDE_TABLES" "$EVENTS $WIDEST_TABLES"); fi
        prepare_workloads "${DIALECTS[@]}"
        # Built just now; the profile below must not build its workload again.
        FRESH=0
        ((!PREPARE_ONLY)) || return 0
        check_quiet
        for dialect in "${DIALECTS[@]}"; do
            for config in "${CONFIGS[@]}"; do
                # shellcheck disable=SC2086 # two words on purpose
                measure_workload "$dialect" $config
            done
            if ((WIDTH_ROUNDS)); then width_measure "$dialect"; fi
            if ((STARTUP_MAX_TABLES)); then startup_measure "$dialect"; fi
        done
        report_print "${DIALECTS[@]}"
        if ((WIDTH_ROUNDS)); then width_report "${DIALECTS[@]}"; fi
        if ((STARTUP_MAX_TABLES)); then startup_report "${DIALECTS[@]}"; fi
        if ((RTT_MS)); then rtt_report "${DIALECTS[@]}"; fi
        if ((TUNNEL)); then tunnel_report "${DIALECTS[@]}"; fi
    fi
    if ((PROFILE)); then
        CONFIGS=("$SMALL_EVENTS $TABLES")
        prepare_workloads "${DIALECTS[@]}"
        for dialect in "${DIALECTS[@]}"; do
            "${dialect}_quiesce"
            profile_run "$dialect" "$(workload_prefix "$SMALL_EVENTS" "$TABLES")" "$TABLES"
        done
    fi
    log "done in $(tdg_elapsed "$started") s"
}

main
