#!/usr/bin/env bash
# The conformance runner's two override names chosen apart, shown on the types case: the SQLite
# plugin, set up with SQLite's SQL (setup.sqlite.sql), reports the column types PostgreSQL's
# expectations name (numeric(12,4), boolean) but not MySQL's (decimal(12,4)); and
# --dialect-overrides still sets both, so PostgreSQL's setup SQL (its GRANT) fails in SQLite.
#
#   conformance_overrides_test.sh <run_conformance.sh> <runner> <plugin.so> <shared-cases-dir>
#                                 <override-dir> <sqlite3>
set -euo pipefail

(($# == 6)) || {
    printf 'usage: %s <run_conformance.sh> <runner> <plugin.so> <shared-cases> <overrides> <sqlite3>\n' \
        "$0" >&2
    exit 2
}
script=$1
shift

failures=0
# expect <exit status> <line the report must hold> <runner options...>
expect() {
    local want_status=$1 want_line=$2 output status=0
    shift 2
    output=$(bash "$script" "$@" 2>/dev/null) || status=$?
    if [[ $status != "$want_status" || $output != *"$want_line"* ]]; then
        printf 'FAIL with %s: exit %s (expected %s), report:\n%s\n(expected a line with: %s)\n' \
            "${*:6}" "$status" "$want_status" "$output" "$want_line" >&2
        failures=$((failures + 1))
    fi
}

runner_args=("$@")
expect 0 "ok live/types" "${runner_args[@]}" --case types \
    --setup-overrides sqlite --expected-overrides postgres
expect 1 "FAIL live/types: column 2 ('amount') has sql type 'numeric(12,4)'" "${runner_args[@]}" \
    --case types --setup-overrides sqlite --expected-overrides mysql
expect 1 "FAIL live/types: setup SQL failed" "${runner_args[@]}" --case types \
    --dialect-overrides postgres
((failures == 0)) || exit 1
printf 'setup and expected overrides are chosen apart\n'
