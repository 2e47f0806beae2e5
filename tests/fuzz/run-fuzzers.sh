#!/usr/bin/env bash
# Builds the fuzz targets with clang and runs each for a bounded time (FUZZ_SECONDS, default
# 15). Exits non-zero on any crash, leak, timeout or sanitizer report.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/../../build-fuzz}"
seconds="${FUZZ_SECONDS:-15}"
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 >/dev/null
status=0
for target in fuzz_config fuzz_state fuzz_catalog fuzz_json_text; do
    corpus="$build/corpus/$target"
    mkdir -p "$corpus"
    cp -n "$here"/seeds/"${target#fuzz_}"/* "$corpus"/ 2>/dev/null || true
    if "$build/$target" "$corpus" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 \
        -print_final_stats=1 >"$build/$target.log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$target.log" | grep -o '[0-9]*$' || echo "?")
        echo "fuzz: $target ok ($runs inputs in ${seconds}s)"
    else
        echo "fuzz: $target FAILED; tail of $build/$target.log:" >&2
        tail -40 "$build/$target.log" >&2
        status=1
    fi
done
exit $status
