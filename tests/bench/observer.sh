#!/usr/bin/env bash
# What the metrics endpoint costs a backlog replay: the same workload (tests/bench/workload.sh)
# replayed by the tap with metrics off and with metrics on (metrics_port set, the head probe
# running and the endpoint scraped once a second, as a Prometheus server would), and, with
# --baseline, by a tap built from an older commit; rounds taking turns (tests/bench/lib.sh
# rotate_rounds), a warm-up round left out. Prints a Markdown table on stdout: the median wall
# time of each over the rounds (lowest–highest) and each round's ratio to metrics off.
#
#   bash tests/bench/observer.sh [--events N] [--tables T] [--dialect postgres|mysql|all]
#                                [--rounds K] [--tap PATH] [--baseline PATH]
#
# The servers are the test servers (tests/servers/*.sh; started or reused, TDG_TEST_* ports);
# the workload is built once and kept, as run.sh keeps it. The endpoint listens on
# TDG_TEST_METRICS_PORT (default 29464).
# shellcheck source-path=SCRIPTDIR disable=SC2034 # the sourced parts read the settings
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/tests/bench

usage() {
    cat <<'EOF'
usage: bash tests/bench/observer.sh [options]
  --events N        backlog size (default 1000000)
  --tables T        journalled tables (default 4)
  --dialect D       postgres, mysql or all (default postgres)
  --rounds K        counted rounds, each running every tap once (default 5; one more warms up)
  --tap PATH        the tap measured (default build/bin/tap-diffgen)
  --baseline PATH   also a tap built from an older commit (its plugins beside it, as a build
                    tree has them), run with metrics off
  --work DIR        scratch directory (default build/bench-observer)
EOF
}

EVENTS=1000000 TABLES=4 DIALECT=postgres ROUNDS=5 TAP=$ROOT/build/bin/tap-diffgen BASELINE=""
WORK=$ROOT/build/bench-observer FRESH=0 NAMES=() SEED=1
while (($#)); do
    case $1 in
        --events) EVENTS=$2 && shift ;;
        --tables) TABLES=$2 && shift ;;
        --dialect) DIALECT=$2 && shift ;;
        --rounds) ROUNDS=$2 && shift ;;
        --tap) TAP=$2 && shift ;;
        --baseline) BASELINE=$2 && shift ;;
        --work) WORK=$2 && shift ;;
        -h | --help) usage && exit 0 ;;
        *) usage >&2 && exit 2 ;;
    esac
    shift
done
for value in "$EVENTS" "$TABLES" "$ROUNDS"; do
    [[ $value =~ ^[1-9][0-9]*$ ]] || {
        usage >&2
        exit 2
    }
done
case $DIALECT in
    postgres | postgresql) DIALECTS=(pg) ;;
    mysql | mariadb) DIALECTS=(my) ;;
    all) DIALECTS=(pg my) ;;
    *) usage >&2 && exit 2 ;;
esac
PG_PORT=${TDG_TEST_PG_PORT:-55432}
MY_PORT=${TDG_TEST_MYSQL_PORT:-53306}
METRICS_PORT=${TDG_TEST_METRICS_PORT:-29464}
mkdir -p "$WORK"

# shellcheck source=lib.sh
source "$BENCH/lib.sh"
# shellcheck source=workload.sh
source "$BENCH/workload.sh"
# shellcheck source=tap.sh
source "$BENCH/tap.sh"

[[ -x $TAP ]] || die "$TAP is not an executable (build it, or give --tap)"
[[ -z $BASELINE || -x $BASELINE ]] || die "--baseline $BASELINE is not an executable"
command -v curl >/dev/null || die "curl not found: the metrics-on runs are scraped with it"

# metrics_runner DIALECT PREFIX: the tap with metrics_port set, scraped once a second while it
# runs; the runner's exit status is the tap's.
metrics_runner() {
    local dialect=$1 prefix=$2 config runner=$WORK/metrics-$1-$2.sh
    config=$(tap_config "$dialect" "$prefix" "$TABLES")
    sed "s/}\$/,\"metrics_port\":$METRICS_PORT}/" "$config" >"$WORK/metrics-$dialect-$prefix.json"
    cat >"$runner" <<EOF
$(command_line "$TAP" --config "$WORK/metrics-$dialect-$prefix.json") &
tap=\$!
while kill -0 "\$tap" 2>/dev/null; do
    curl -fs -o /dev/null "http://127.0.0.1:$METRICS_PORT/metrics" || true
    sleep 1
done &
wait "\$tap"
EOF
    printf '%s' "$runner"
}

# baseline_runner DIALECT PREFIX: the older tap over the same config, metrics off.
baseline_runner() {
    local runner=$WORK/baseline-$1-$2.sh
    printf 'exec %s\n' "$(command_line "$BASELINE" --config "$(tap_config "$1" "$2" "$TABLES")")" \
        >"$runner"
    printf '%s' "$runner"
}

# The events the runs must all have replayed (their `sync done:` lines), checked per run.
check_runs() {
    local dialect=$1 key=$2 name err events
    for name in "${NAMES[@]}"; do
        for err in "$WORK/$name-${key//:/-}".*.err; do
            events=$(grep -o 'sync done: [0-9]* events' "$err" | grep -o '[0-9]*' | tail -n 1)
            [[ $events == "$EVENTS" ]] ||
                die "$dialect: $name replayed ${events:-no} events in $err, not $EVENTS"
        done
    done
}

ROWS=()
measure_dialect() {
    local dialect=$1 prefix key name
    prefix=$(workload_prefix "$EVENTS" "$TABLES")
    workload_prepare "$dialect" "$EVENTS" "$TABLES"
    "${dialect}_quiesce"
    key=$dialect:observer
    local pairs=("off=$(tap_runner "$dialect" "$prefix" "$TABLES")"
        "on=$(metrics_runner "$dialect" "$prefix")")
    [[ -z $BASELINE ]] || pairs+=("baseline=$(baseline_runner "$dialect" "$prefix")")
    NAMES=()
    for pair in "${pairs[@]}"; do NAMES+=("${pair%%=*}"); done
    log "$dialect: ${NAMES[*]} over $EVENTS events, $TABLES tables: $ROUNDS rounds taking turns"
    TAKE_TURNS_WARM_UP=1 take_turns "$ROUNDS" "$dialect" "$key" "${pairs[@]}"
    check_runs "$dialect" "$key"
    for name in "${NAMES[@]}"; do
        local name_walls=${RESULT[$key:${name}_walls]} ratio
        if [[ $name == off ]]; then ratio="1"; else ratio=$(turn_ratios "$key" "$name" off | spread_cell); fi
        ROWS+=("| $(dialect_name "$dialect") | $(group "$EVENTS") × $TABLES | $(label_of "$name") | $(printf '%s' "$name_walls" | spread_cell) | $ratio |")
    done
}

label_of() {
    case $1 in
        off) printf 'metrics off' ;;
        on) printf 'metrics on (scraped every 1 s)' ;;
        baseline) printf 'baseline %s' "$(basename "$(dirname "$(dirname "$BASELINE")")")" ;;
    esac
}

for dialect in "${DIALECTS[@]}"; do
    [[ $dialect == pg ]] && bash "$ROOT/tests/servers/postgres.sh" start
    [[ $dialect == my ]] && bash "$ROOT/tests/servers/mariadb.sh" start
    measure_dialect "$dialect"
done

printf '| database | events × tables | tap | wall s, median (lowest–highest) | ratio to metrics off, per round: median (lowest–highest) |\n'
printf '|---|---|---|---|---|\n'
printf '%s\n' "${ROWS[@]}"
printf '\n%s rounds taking turns after a warm-up round; %s; load average at the end: %s.\n' \
    "$ROUNDS" "$("$TAP" --version 2>/dev/null | head -n 1 || printf 'tap-diffgen')" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
