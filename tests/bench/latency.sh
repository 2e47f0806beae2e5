#!/usr/bin/env bash
# Follow-mode latency, commit to RECORD line, for every dialect: PostgreSQL with and without
# notify_channel, MariaDB and SQLite polled; at each rate, with and without a transaction held
# open mid-run. Prints a Markdown table on stdout (progress on stderr). See README.md beside this
# file, "Follow latency".
#
#   bash tests/bench/latency.sh               # short: 5 s per run, a 3 s held transaction
#   bash tests/bench/latency.sh --full        # 60 s per run, a 20 s held transaction
#
# Options: --seconds S, --hold S, --rates "200 2000", --dialect postgres|mysql|sqlite|all,
# --poll-interval S (1), --build-dir DIR (build-bench/). Servers: tests/servers/*.sh start,
# with TDG_TEST_PG_PORT, TDG_TEST_MYSQL_PORT, TDG_TEST_DIR as for the tests; running ones are
# reused and never stopped.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SECONDS_PER_RUN=5
HOLD=3
RATES="200 2000"
DIALECT=all
POLL=1
BUILD_DIR=$ROOT/build-bench

log() { printf 'latency: %s\n' "$*" >&2; }
die() {
    log "error: $*"
    exit 1
}

while (($#)); do
    case $1 in
    --full) SECONDS_PER_RUN=60 HOLD=20 ;;
    --seconds) SECONDS_PER_RUN=$2 && shift ;;
    --hold) HOLD=$2 && shift ;;
    --rates) RATES=$2 && shift ;;
    --dialect) DIALECT=$2 && shift ;;
    --poll-interval) POLL=$2 && shift ;;
    --build-dir) BUILD_DIR=$2 && shift ;;
    *) die "unknown option $1 (see the head of $0)" ;;
    esac
    shift
done
case $DIALECT in
all | postgres | mysql | sqlite) ;;
*) die "--dialect must be postgres, mysql, sqlite or all" ;;
esac

WORK=$BUILD_DIR/bench
mkdir -p "$WORK"
if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
    log "configuring $BUILD_DIR (Release)"
    cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log" 2>&1 ||
        die "cmake failed; see $WORK/cmake.log"
fi
log "building tap-diffgen, its drivers and latency_bench"
cmake --build "$BUILD_DIR" -j2 --target tap-diffgen tap-diffgen-dialect-postgres \
    tap-diffgen-dialect-mysql tap-diffgen-dialect-sqlite-external latency_bench \
    >"$WORK/latency-build.log" 2>&1 || die "build failed; see $WORK/latency-build.log"

wants() { [[ $DIALECT == all || $DIALECT == "$1" ]]; }
if wants postgres; then
    bash "$ROOT/tests/servers/postgres.sh" start >&2
    eval "$(bash "$ROOT/tests/servers/postgres.sh" env)"
fi
if wants mysql; then
    bash "$ROOT/tests/servers/mariadb.sh" start >&2
    eval "$(bash "$ROOT/tests/servers/mariadb.sh" env)"
fi

echo "Follow latency, commit to RECORD line: ${SECONDS_PER_RUN} s per run, poll_interval_seconds" \
    "$POLL, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| dialect | wake | rate /s | achieved /s | held s | poll s | changes | missing | p50 ms |" \
    "p99 ms | max ms | held row ms | duplicates | idle CPU % | CPU % | RSS MiB | exit |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
failed=0
measure() {
    local log_file=$WORK/latency-tap-$RANDOM.log
    log "$*"
    "$BUILD_DIR/bin/latency_bench" --tap "$BUILD_DIR/bin/tap-diffgen" --seconds "$SECONDS_PER_RUN" \
        --poll-interval "$POLL" --tap-log "$log_file" "$@" 2>>"$WORK/latency-bench.log" ||
        failed=1
}
for rate in $RATES; do
    for hold in 0 "$HOLD"; do
        if wants postgres; then
            measure --dialect postgres --notify --rate "$rate" --hold "$hold"
            measure --dialect postgres --rate "$rate" --hold "$hold"
        fi
        if wants mysql; then measure --dialect mysql --rate "$rate" --hold "$hold"; fi
    done
    if wants sqlite; then measure --dialect sqlite --rate "$rate"; fi
done
((failed == 0)) || die "a run lost changes or failed; see $WORK/latency-bench.log"
