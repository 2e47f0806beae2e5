#!/usr/bin/env bash
# Runs tap-diffgen-conformance against the SQLite plugin the way a third party runs it against
# theirs: the shared cases, with this plugin's dialect overrides kept apart in conformance/
# (--overrides), on a scratch database file that the sqlite3 shell fills as the setup command.
# The overrides give the setup SQL in SQLite's spelling, and turn the wrong-password case into
# a missing-file one, since a database file has no password to get wrong.
#
#   run_conformance.sh <runner> <plugin.so> <shared-cases-dir> <override-dir> <sqlite3> [runner options]
set -euo pipefail

(($# >= 5)) || {
    printf 'usage: %s <runner> <plugin.so> <shared-cases-dir> <override-dir> <sqlite3> [runner options]\n' \
        "$0" >&2
    exit 2
}
runner=$1 plugin=$2 shared=$3 overrides=$4 sqlite3=$5
shift 5

work=$(mktemp -d "${TMPDIR:-/tmp}/tdg-sqlite-conformance.XXXXXX")
trap 'rm -rf "$work"' EXIT
# An empty file is a valid, empty SQLite database.
: >"$work/conformance.db"

status=0
TDG_CONFORMANCE_OPTIONS="{\"database\":\"$work/conformance.db\"}" \
    "$runner" --plugin "$plugin" --cases "$shared" --overrides "$overrides" \
    --setup-command "$(printf '%q -bail %q' "$sqlite3" "$work/conformance.db")" "$@" || status=$?
exit "$status"
