#!/usr/bin/env bash
# Follow-mode latency, commit to RECORD line, for every dialect: PostgreSQL with and without
# notify_channel, MariaDB and SQLite polled. Each dialect runs: one writer at a steady rate;
# several writers with Poisson arrivals at the same mean rate, each write a transaction open for
# an exponentially distributed time (so ids commit out of order and pages show gaps); bursts
# after idle pauses; the several writers again with a transaction held open mid-run. Prints a Markdown table of every run and one of the medians
# over the rounds on stdout (progress on stderr). See README.md beside this file, "Follow
# latency".
#
#   bash tests/bench/latency.sh               # short: 8 s per run, a 3 s held transaction, 3 rounds
#   bash tests/bench/latency.sh --full        # 60 s per run, a 20 s held transaction
#   bash tests/bench/latency.sh --tap build/bin/tap-diffgen --before /tmp/old/tap-diffgen
#
# Options: --seconds S, --hold S, --rates "100", --writers N (4), --transaction-ms MS (10, the
# mean time each write's transaction stays open after its INSERT), --burst ROWS (50),
# --burst-gap S (3), --rounds K (3), --dialect postgres|mysql|sqlite|all, --poll-interval S (1),
# --build-dir DIR (build-bench/), --tap PATH (the build's), --before PATH (another tap binary,
# run in turn with --tap in every round: same minutes of the machine for both). Servers:
# tests/servers/*.sh start, with TDG_TEST_PG_PORT, TDG_TEST_MYSQL_PORT, TDG_TEST_DIR as for the
# tests; running ones are reused and never stopped.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SECONDS_PER_RUN=8
WARMUP=2
HOLD=3
RATES="100"
WRITERS=4
TXN_MS=10
BURST=50
BURST_GAP=3
ROUNDS=3
DIALECT=all
POLL=1
BUILD_DIR=$ROOT/build-bench
TAP=
BEFORE=

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
    --writers) WRITERS=$2 && shift ;;
    --transaction-ms) TXN_MS=$2 && shift ;;
    --burst) BURST=$2 && shift ;;
    --burst-gap) BURST_GAP=$2 && shift ;;
    --rounds) ROUNDS=$2 && shift ;;
    --dialect) DIALECT=$2 && shift ;;
    --poll-interval) POLL=$2 && shift ;;
    --build-dir) BUILD_DIR=$2 && shift ;;
    --tap) TAP=$2 && shift ;;
    --before) BEFORE=$2 && shift ;;
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
wants() { [[ $DIALECT == all || $DIALECT == "$1" ]]; }
targets=(tap-diffgen latency_bench)
wants postgres && targets+=(tap-diffgen-dialect-postgres)
wants mysql && targets+=(tap-diffgen-dialect-mysql)
wants sqlite && targets+=(tap-diffgen-dialect-sqlite-external)
log "building ${targets[*]}"
cmake --build "$BUILD_DIR" -j2 --target "${targets[@]}" >"$WORK/latency-build.log" 2>&1 ||
    die "build failed; see $WORK/latency-build.log"
TAP=${TAP:-$BUILD_DIR/bin/tap-diffgen}
TAPS=("$TAP")
[[ -z $BEFORE ]] || TAPS=("$BEFORE" "$TAP")
for tap in "${TAPS[@]}"; do [[ -x $tap ]] || die "no tap binary at $tap"; done

if wants postgres; then
    bash "$ROOT/tests/servers/postgres.sh" start >&2
    eval "$(bash "$ROOT/tests/servers/postgres.sh" env)"
fi
if wants mysql; then
    bash "$ROOT/tests/servers/mariadb.sh" start >&2
    eval "$(bash "$ROOT/tests/servers/mariadb.sh" env)"
fi

ROWS=$WORK/latency-rows.md
: >"$ROWS"
echo "Follow latency, commit to RECORD line: ${SECONDS_PER_RUN} s measured per run after" \
    "${WARMUP} s of writes (bursts: no warm-up), poll_interval_seconds $POLL, $ROUNDS rounds," \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
header="| tap | dialect | wake | writes | writers | achieved /s | held s | poll s | changes |"
header+=" missing | p50 ms | p99 ms | max ms | held row ms | duplicates | idle queries/s |"
header+=" idle CPU % | CPU % | RSS MiB | exit |"
echo "$header"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
failed=0
measure() {
    local tap=$1 && shift
    local log_file=$WORK/latency-tap-$RANDOM.log
    log "$tap $*"
    local row
    row=$("$BUILD_DIR/bin/latency_bench" --tap "$tap" --poll-interval "$POLL" \
        --tap-log "$log_file" "$@" 2>>"$WORK/latency-bench.log") || failed=1
    [[ -z $row ]] || echo "| $(basename "$tap") $row" | tee -a "$ROWS"
}
# Every run of a round with each tap in turn, the taps' order alternating between rounds.
run_matrix() {
    local wake_args=$1
    for rate in $RATES; do
        measure "$tap" $wake_args --rate "$rate" --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP"
        if [[ $wake_args != *sqlite* ]]; then
            measure "$tap" $wake_args --rate "$rate" --poisson --writers "$WRITERS" \
                --transaction-ms "$TXN_MS" \
                --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP"
            measure "$tap" $wake_args --rate "$rate" --poisson --writers "$WRITERS" \
                --transaction-ms "$TXN_MS" \
                --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" --hold "$HOLD"
        fi
    done
    measure "$tap" $wake_args --burst "$BURST" --burst-gap "$BURST_GAP" --transaction-ms "$TXN_MS" \
        --writers "$([[ $wake_args == *sqlite* ]] && echo 1 || echo "$WRITERS")" \
        --seconds "$SECONDS_PER_RUN"
}
for ((round = 0; round < ROUNDS; round++)); do
    order=("${TAPS[@]}")
    ((round % 2 == 0)) || order=($(printf '%s\n' "${TAPS[@]}" | tac))
    for tap in "${order[@]}"; do
        if wants postgres; then
            run_matrix "--dialect postgres --notify"
            run_matrix "--dialect postgres"
        fi
        if wants mysql; then run_matrix "--dialect mysql"; fi
        if wants sqlite; then run_matrix "--dialect sqlite"; fi
    done
done

echo
echo "Medians over the rounds (max: the highest of any round):"
echo
python3 - "$ROWS" <<'PY'
import statistics, sys
groups = {}
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    key = tuple(cells[0:5] + [cells[6]])
    groups.setdefault(key, []).append(cells)
print("| tap | dialect | wake | writes | writers | held s | runs | p50 ms | p99 ms | max ms |"
      " held row ms | idle queries/s | idle CPU % |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
def med(rows, i):
    values = [float(r[i]) for r in rows if r[i] not in ("-", "missing", "nan")]
    return "%.1f" % statistics.median(values) if values else "-"
for key, rows in groups.items():
    top = max((float(r[12]) for r in rows if r[12] != "nan"), default=float("nan"))
    print("| " + " | ".join(key) + " | %d | %s | %s | %.1f | %s | %s | %s |" % (
        len(rows), med(rows, 10), med(rows, 11), top, med(rows, 13), med(rows, 15),
        med(rows, 16)))
PY
((failed == 0)) || die "a run lost changes or failed; see $WORK/latency-bench.log"
