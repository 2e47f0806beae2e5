#!/usr/bin/env bash
# Each conformance case that exists to catch a bug, run against tap-diffgen-dialect-faulty with
# that bug put into a first-party plugin (faulty_plugin.cpp): the case must fail, with the
# message below. The same plugin without a fault passes them all, and some older cases that
# such a bug slipped through are shown still passing, which is why the new ones exist.
#
#   faulty_cases_test.sh postgres|mysql <run_live.sh> <runner> <faulty.so> <inner plugin.so> <cases>
set -euo pipefail

(($# == 6)) || {
    printf 'usage: %s postgres|mysql <run_live.sh> <runner> <faulty.so> <inner.so> <cases>\n' "$0" >&2
    exit 2
}
dialect=$1 run_live=$2 runner=$3 faulty=$4 inner=$5 cases=$6

failures=0
# expect FAULT STATUS LINE CASE...: the runner's report on CASE... with FAULT put in exits
# STATUS and holds LINE (the load line counts as passed).
expect() {
    local fault=$1 want_status=$2 want_line=$3 output status=0 arguments=()
    shift 3
    for name in "$@"; do arguments+=(--case "$name"); done
    output=$(TDG_FAULTY_INNER=$inner TDG_FAULTY_FAULT=$fault bash "$run_live" "$dialect" \
        "$runner" "$faulty" "$cases" --dialect-overrides "$dialect" "${arguments[@]}" \
        2>/dev/null) || status=$?
    if [[ $status != "$want_status" || $output != *"$want_line"* ]]; then
        printf 'FAIL: fault %s on %s: exit %s (expected %s), report:\n%s\n(expected a line with: %s)\n' \
            "$fault" "$*" "$status" "$want_status" "$output" "$want_line" >&2
        failures=$((failures + 1))
        return
    fi
    printf '%-24s %s\n' "$fault" "$(grep -F -- "$want_line" <<<"$output" | head -n 1)"
}

case $dialect in
    postgres)
        expect none 0 "conformance: 8 passed, 0 failed" \
            uuid json edge-values dialect-types keyset cancel-statement horizon
        expect uuid-upper-case 1 "FAIL live/uuid: scan_table: expected row" uuid
        expect json-as-text 1 "FAIL live/json: column 2 ('doc') is text, expected json" json
        expect infinity-as-date 1 \
            'FAIL live/edge-values: scan_table: expected row [1, "infinity", null, null, null' \
            edge-values
        # The strict validator refuses the record before the values are compared.
        expect time-without-offset 1 \
            "FAIL live/dialect-types: column 'clock': \"13:14:15.500000\" is not a time" \
            dialect-types
        # Paging and chunking of their own size passed the composite-key case's five rows.
        expect scan-pages-on-first-key 0 "ok live/composite-key" composite-key
        expect scan-pages-on-first-key 1 \
            "FAIL live/keyset: scan_table in the plugin's own batches: expected 20000 rows, got 15327 (first missing: [11, \"o'00970\", 19531]" \
            keyset
        expect fetch-first-chunk-only 0 "ok live/composite-key" composite-key
        expect fetch-first-chunk-only 1 \
            "FAIL live/keyset: fetch_rows of every key at once: expected 20000 rows, got 1000" keyset
        # A cancel that only stops between batches passed the cancel case.
        expect cancel-between-batches 0 "ok live/cancel" cancel
        expect cancel-between-batches 1 \
            "FAIL live/cancel-statement: scan_table returned" cancel-statement
        expect early-mark 1 "FAIL live/horizon: the mark of a page read while a writer held" \
            horizon
        # Values compared by value let these through; compared as the tap writes them, not.
        expect decimal-trailing-zeros 1 \
            'FAIL live/fetch: scan_table: expected row [1, "one", 1.50, "2001-01-01"], got [1, "one", 1.5, "2001-01-01"]' \
            fetch
        expect integer-via-double 1 \
            'FAIL live/exact-values: scan_table: expected row [1, -9223372036854775808, -99999999999999999999999999999999999999' \
            exact-values
        expect text-cut-64k 1 \
            "value 6 differs at character 65538 (1048578 characters expected, 65538 got)" \
            exact-values
        # scan_chunk went unexercised before; a chunk after the first key column alone passes
        # the composite-key case's five rows, and a chunk that starts at its after_key row again:
        expect chunk-after-first-key 0 "ok live/composite-key" composite-key
        expect chunk-after-first-key 1 \
            "FAIL live/keyset: scan_chunk of 'tdg_conf_keyset' in chunks of 997 (16 chunks): expected 20000 rows, got 15282 (first missing: [11, \"o'00821\", 5989], 4718 missing in all)" \
            keyset
        expect chunk-inclusive 1 \
            "FAIL live/keyset: scan_chunk of 'tdg_conf_keyset' in chunks of 997 (21 chunks): the row [12, \"o'02942\", 11541] came 2 times" \
            keyset
        expect lost-connection-permanent 1 \
            "FAIL live/lost-connection: scan_table failed with UNKNOWN: scanning table 'tdg_conf_lost': terminating connection due to administrator command (not retryable)" \
            lost-connection
        # describe_tables went unexercised before; a cache checked by the number of columns:
        expect digest-counts-columns 1 \
            "FAIL live/describe-tables: after a column renamed, describe_tables on a connection opened before gives column 2 as [note #2 text 'text' null {\"type\":\"string\"}], the table now has [remark #2" \
            describe-tables
        # Keys pasted unquoted into an array literal: the older cases' keys need no quoting.
        expect keys-unquoted 0 "conformance: 4 passed, 0 failed" keyset composite-key fetch
        expect keys-unquoted 1 \
            'FAIL live/quoted-keys: fetch_rows [, [3], (1,2), NULL, it'"'"'s, \, back\slash, a b, trail ,  lead, {"a": 1}, {x}, ... (18 in all)]: expected 14 rows, got 3 (first missing: [" lead", 5], 11 missing in all)' \
            quoted-keys
        ;;
    mysql)
        expect none 0 "conformance: 3 passed, 0 failed" json dialect-types
        expect json-as-text 1 "FAIL live/json: column 2 ('doc') is text, expected json (sql type longtext)" json
        expect bit-as-bytes 1 "FAIL live/dialect-types: column 2 ('bits') is bytes, expected int64" \
            dialect-types
        expect unsigned-as-signed 1 \
            'FAIL live/exact-values: scan_table: expected row [2, 9223372036854775807, 18446744073709551615' \
            exact-values
        expect text-cut-at-nul 1 "FAIL live/exact-values: scan_table: expected row" exact-values
        expect lost-connection-permanent 1 \
            "FAIL live/lost-connection: scan_table failed with UNKNOWN" lost-connection
        ;;
    *)
        printf 'unknown dialect %s\n' "$dialect" >&2
        exit 2
        ;;
esac
((failures == 0)) || exit 1
printf 'every case fails on the fault it is there to catch\n'
