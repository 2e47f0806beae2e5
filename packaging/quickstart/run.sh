#!/usr/bin/env bash
# The quickstart: tap-diffgen replaying a SQLite database's changes, deletes included.
#
#   sudo packaging/quickstart/run.sh
#
# From a clean clone on Debian 12 it installs the missing build packages, builds the tap and
# its SQLite plugin in build/, creates build/quickstart/demo.db (recreated on every run) with
# two tables journalled by the diffgen triggers the pattern's view writes for them, makes some
# changes, runs the tap, makes three more changes and runs the tap again from the first run's
# state, which sends only those three.
#
# stdout carries nothing but the tap's Singer messages of both runs; the step banners, the
# build and the tap's log go to stderr. The last state is kept in build/quickstart/state.json.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

QUICKSTART=packaging/quickstart
WORK=build/quickstart
TAP=build/bin/tap-diffgen
PACKAGES=(build-essential cmake pkg-config libpoco-dev doctest-dev libpq-dev libmariadb-dev
    libsqlite3-dev sqlite3 libssh-dev prometheus-cpp-dev)

banner() {
    printf '\n==> %s\n' "$*" >&2
}

# apply FILE: runs a SQL script on the demo database; .read in it resolves from the root.
apply() {
    sqlite3 "$WORK/demo.db" <"$1"
}

# run_tap OUTPUT ARGS...: the tap's messages to stdout and to OUTPUT.
run_tap() {
    local output=$1
    shift
    "$TAP" --config "$QUICKSTART/config.json" "$@" | tee "$output"
}

# save_state RUN_OUTPUT: the value of the run's last STATE message, for the next --state.
save_state() {
    local line
    line=$(grep '^{"type":"STATE",' "$1" | tail -n 1)
    [[ -n $line ]] || {
        printf 'run.sh: the tap wrote no STATE message\n' >&2
        exit 1
    }
    line=${line#'{"type":"STATE","value":'}
    printf '%s\n' "${line%'}'}" >"$WORK/state.json"
}

started=$SECONDS

banner "1/6 build packages"
bash packaging/install-build-deps.sh "${PACKAGES[@]}"

banner "2/6 building tap-diffgen and its SQLite plugin in build/"
cmake -S . -B build >&2
cmake --build build -j2 --target tap-diffgen tap-diffgen-dialect-sqlite-external >&2

banner "3/6 demo database $WORK/demo.db: customers, invoices and diffgen"
rm -rf "$WORK"
mkdir -p "$WORK"
apply "$QUICKSTART/demo.sql"
banner "    journalling both tables: the CREATE TRIGGER statements diffgen_triggers writes, run"
sqlite3 "$WORK/demo.db" "SELECT trigger_sql FROM diffgen_triggers
                         WHERE table_name IN ('customers', 'invoices')" | sqlite3 "$WORK/demo.db"
banner "    changes-1.sql: the first rows; an update, a new customer and invoice, an invoice paid, one deleted"
apply "$QUICKSTART/changes-1.sql"

banner "4/6 first run: every journalled row once, the deleted invoice as a tombstone"
run_tap "$WORK/run-1.jsonl"
save_state "$WORK/run-1.jsonl"
banner "    state saved to $WORK/state.json: $(cat "$WORK/state.json")"

banner "5/6 changes-2.sql: customer 2 renamed, invoice 105 added, invoice 102 deleted"
apply "$QUICKSTART/changes-2.sql"

banner "6/6 second run with --state: only those three changes"
run_tap "$WORK/run-2.jsonl" --state "$WORK/state.json"
save_state "$WORK/run-2.jsonl"

banner "done in $((SECONDS - started))s; outputs and state in $WORK/"
