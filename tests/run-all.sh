#!/usr/bin/env bash
# The project's test command (.ci/run runs exactly this). From a clean clone on Debian 12:
#
#   1. installs the missing build and test packages (as root; `apt-get update` only when
#      something is missing; no database service is left started by the install)
#   2. builds build/ (RelWithDebInfo) and build-asan/ (-DTAP_DIFFGEN_SANITIZE=ON: ASan+UBSan)
#   3. runs the format check (tests/format-check.sh) and the fuzzers of the config, state and
#      catalog parsers for a bounded time (tests/fuzz/run-fuzzers.sh, clang's libFuzzer)
#   4. runs ctest in build/, then in build-asan/ (all but the few tests that are long by design,
#      see SANITIZER_RUN_LEAVES_OUT); both share one pair of throwaway database servers
#      (TDG_TEST_KEEP_SERVERS=1), which are stopped at the end, also on failure
#   5. prints `tests: N passed, N failed, N skipped` summed over both ctest runs as the last line
#
# Exits non-zero when anything fails. Progress and phase timings go to stderr.
# Settings: TDG_JOBS (parallel jobs, default 2), TDG_CTEST_TIMEOUT (per-test default, seconds,
# for tests without their own TIMEOUT; default 900), and the server settings described in
# tests/servers/CMakeLists.txt (TDG_TEST_PG_PORT, TDG_TEST_MYSQL_PORT, TDG_TEST_SSH_PORT,
# TDG_TEST_PROMETHEUS_PORT, TDG_TEST_METRICS_PORT, TDG_TEST_DIR).
#
# Most functions below are run through phase() or the EXIT trap, which shellcheck cannot see.
# shellcheck disable=SC2317
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

JOBS=${TDG_JOBS:-2}
CTEST_TIMEOUT=${TDG_CTEST_TIMEOUT:-900}
PACKAGES=(build-essential cmake pkg-config libpoco-dev doctest-dev libpq-dev libmariadb-dev
    postgresql mariadb-server clang-format-14 libsqlite3-dev sqlite3 clang libclang-rt-14-dev
    lintian dpkg-dev file git openssl libssh-dev openssh-server openssh-client
    prometheus-cpp-dev prometheus)

log() {
    printf 'run-all: %s\n' "$*" >&2
}

die() {
    log "error: $*"
    exit 1
}

# Microseconds since the epoch (bash 5).
now() {
    printf '%s' "${EPOCHREALTIME/[.,]/}"
}

# elapsed START -> seconds since START (a now value), with one decimal.
elapsed() {
    local tenths=$((($(now) - $1) / 100000))
    printf '%d.%d' $((tenths / 10)) $((tenths % 10))
}

PHASES=()
# phase NAME COMMAND...: run COMMAND, record and print how long it took; returns its status.
phase() {
    local name=$1 started status=0 took note=""
    shift
    started=$(now)
    log "== $name"
    "$@" || status=$?
    took=$(elapsed "$started")
    ((status == 0)) || note=", failed with exit status $status"
    PHASES+=("$(printf '%-14s %7ss%s' "$name" "$took" "$note")")
    log "== $name: ${took}s$note"
    return "$status"
}

print_timings() {
    local line
    log "phase timings:"
    for line in "${PHASES[@]}"; do
        printf '    %s\n' "$line" >&2
    done
}

# ---------------------------------------------------------------------------------------------
# Packages

port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A package's postinst may still have started a server on a default port: stop it again.
stop_system_databases() {
    local pg_was_open=$1 my_was_open=$2 version cluster rest pid
    if ((!pg_was_open)) && port_open 5432; then
        log "a system PostgreSQL was started by the install; stopping it"
        if command -v pg_lsclusters >/dev/null 2>&1; then
            while read -r version cluster rest; do
                [[ $rest == *online* ]] || continue
                pg_ctlcluster "$version" "$cluster" stop >&2 || true
            done < <(pg_lsclusters -h 2>/dev/null || true)
        fi
    fi
    if ((!my_was_open)) && port_open 3306; then
        log "a system MariaDB was started by the install; stopping it"
        pid=$(cat /run/mysqld/mysqld.pid 2>/dev/null || true)
        if [[ $pid =~ ^[0-9]+$ ]]; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 300); do
                [[ -d /proc/$pid && $(cat "/proc/$pid/stat" 2>/dev/null) != *") Z "* ]] || break
                sleep 0.1
            done
        fi
    fi
    if { ((!pg_was_open)) && port_open 5432; } || { ((!my_was_open)) && port_open 3306; }; then
        log "warning: a database server installed by apt is still listening on a default port"
    fi
    return 0
}

install_packages() {
    local pg_was_open=0 my_was_open=0
    port_open 5432 && pg_was_open=1
    port_open 3306 && my_was_open=1
    bash packaging/install-build-deps.sh "${PACKAGES[@]}" || return
    stop_system_databases "$pg_was_open" "$my_was_open"
}

# ---------------------------------------------------------------------------------------------
# Build

# Both trees are unity builds (CMAKE_UNITY_BUILD): each target's sources compiled in batches
# of 16 (cmake/UnityBatches.cmake), so the Poco, doctest and standard headers are parsed once a
# batch, not once a file. Full builds take less than half the time on two cores; the sources
# keep no two file-local names alike in one target, which is what a batch needs.
build_tree() {
    local dir=$1
    shift
    # Called in a `||` context, where `set -e` does not apply: check each step.
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
        "$@" || return
    cmake --build "$dir" -j"$JOBS" || return
}

# ---------------------------------------------------------------------------------------------
# Tests

SERVERS_STOPPED=1
TOTAL_PASSED=0
TOTAL_FAILED=0
TOTAL_SKIPPED=0

stop_servers() {
    local status=0
    TDG_TEST_KEEP_SERVERS=0 bash tests/servers/postgres.sh stop || status=1
    TDG_TEST_KEEP_SERVERS=0 bash tests/servers/mariadb.sh stop || status=1
    TDG_TEST_KEEP_SERVERS=0 TDG_TEST_MYSQL_VARIANT=east bash tests/servers/mariadb.sh stop ||
        status=1
    TDG_TEST_KEEP_SERVERS=0 bash tests/servers/sshd.sh stop || status=1
    TDG_TEST_KEEP_SERVERS=0 bash tests/servers/prometheus.sh stop || status=1
    SERVERS_STOPPED=1
    return "$status"
}

# run_ctest DIR [VAR=VALUE...] [-- CTEST-ARGUMENT...]: ctest in DIR; adds its counts to the
# totals.
run_ctest() {
    local dir=$1 output status=0 summary total failed skipped variables=() arguments=()
    shift
    while (($# > 0)) && [[ $1 != -- ]]; do
        variables+=("$1")
        shift
    done
    (($# == 0)) || shift
    arguments=("$@")
    output="$dir/run-all-ctest.log"
    SERVERS_STOPPED=0
    env "${variables[@]}" ctest --test-dir "$dir" --output-on-failure -j"$JOBS" --no-tests=error \
        --timeout "$CTEST_TIMEOUT" "${arguments[@]}" 2>&1 | tee "$output" || status=$?

    summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$output" |
        tail -n 1 || true)
    if [[ $summary =~ ([0-9]+)\ tests?\ failed\ out\ of\ ([0-9]+) ]]; then
        failed=${BASH_REMATCH[1]}
        total=${BASH_REMATCH[2]}
        # ctest counts a skipped test as passed and lists it under "did not run".
        skipped=$(grep -cE '^[[:space:]]+[0-9]+ - .* \(Skipped\)$' "$output" || true)
        TOTAL_PASSED=$((TOTAL_PASSED + total - failed - skipped))
        TOTAL_FAILED=$((TOTAL_FAILED + failed))
        TOTAL_SKIPPED=$((TOTAL_SKIPPED + skipped))
        ((total > 0)) || status=1
    else
        log "no ctest summary in $output"
        TOTAL_FAILED=$((TOTAL_FAILED + 1))
        ((status != 0)) || status=1
    fi
    return "$status"
}

cleanup() {
    local status=$?
    if ((!SERVERS_STOPPED)); then
        stop_servers || true
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started_all=$(now)
log "repository $ROOT, $JOBS parallel jobs${CI:+, CI=$CI}"

phase packages install_packages || die "installing packages failed"
# Compile time is most of CI's budget on two cores: the plain tree is optimised but carries no
# debug information, and the sanitizer tree is unoptimised with line tables only (enough for
# the sanitizers' stack traces).
phase build build_tree build "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" ||
    die "the build in build/ failed"
phase build-asan build_tree build-asan -DTAP_DIFFGEN_SANITIZE=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O0 -g1" ||
    die "the sanitizer build in build-asan/ failed"

failures=()
phase format-check bash tests/format-check.sh || failures+=("format check")
phase fuzz bash tests/fuzz/run-fuzzers.sh "$ROOT/build-fuzz" || failures+=("fuzzing")

eval "$(bash tests/servers/postgres.sh env)"
eval "$(bash tests/servers/mariadb.sh env)"
eval "$(TDG_TEST_MYSQL_VARIANT=east bash tests/servers/mariadb.sh env)"
# Both ctest runs share the servers; they are stopped below (or by the EXIT trap).
export TDG_TEST_KEEP_SERVERS=1

# The sanitizer run leaves out the tests that are long by design because their subject is the
# wall clock under kills and faults: the soak tests, the loops that kill a run again and again
# (snapshots, SSH sessions) and the fault-injection plugin's cases. The plain run has just run
# them; the code they drive (reconnects, resumes, the tunnel's teardown) runs under the
# sanitizers in the engine's fake-driver tests and the shorter end-to-end tests. The kit's
# mutation test, which builds plugins of its own, is not even registered there.
SANITIZER_RUN_LEAVES_OUT='soak |again and again|killed SSH session|conformance[.]faulty|conformance[.]mutation'
phase ctest run_ctest build || failures+=("ctest in build/")
phase ctest-asan run_ctest build-asan \
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    -- -E "$SANITIZER_RUN_LEAVES_OUT" || failures+=("ctest in build-asan/")
phase stop-servers stop_servers || failures+=("stopping the test servers")

print_timings
log "total: $(elapsed "$started_all")s"
if ((${#failures[@]} > 0)); then
    for failure in "${failures[@]}"; do
        log "FAILED: $failure"
    done
    status=1
else
    status=0
fi
printf 'tests: %d passed, %d failed, %d skipped\n' "$TOTAL_PASSED" "$TOTAL_FAILED" "$TOTAL_SKIPPED"
exit "$status"
