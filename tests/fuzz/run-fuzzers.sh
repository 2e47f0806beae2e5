#!/usr/bin/env bash
# Builds the fuzz targets with clang and runs each for a bounded time (FUZZ_SECONDS, default
# 15), TDG_JOBS (default 2) of them at once. Exits non-zero on any crash, leak, timeout or
# sanitizer report.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/../../build-fuzz}"
seconds="${FUZZ_SECONDS:-15}"
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build "$build" -j2 >/dev/null
jobs="${TDG_JOBS:-2}"
targets=(fuzz_config fuzz_state fuzz_catalog fuzz_json_text)

# run_target TARGET: TARGET for its bounded time; its exit status goes to $build/TARGET.status.
run_target() {
    local target=$1 corpus="$build/corpus/$1" result=0
    mkdir -p "$corpus"
    cp -n "$here"/seeds/"${target#fuzz_}"/* "$corpus"/ 2>/dev/null || true
    "$build/$target" "$corpus" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 \
        -print_final_stats=1 >"$build/$target.log" 2>&1 || result=$?
    echo "$result" >"$build/$target.status"
}

# Each fuzzer runs on one core: `jobs` of them at a time, each for the full time.
for ((first = 0; first < ${#targets[@]}; first += jobs)); do
    for target in "${targets[@]:first:jobs}"; do
        run_target "$target" &
    done
    wait
done

status=0
for target in "${targets[@]}"; do
    if [[ $(cat "$build/$target.status" 2>/dev/null) == 0 ]]; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$target.log" | grep -o '[0-9]*$' || echo "?")
        echo "fuzz: $target ok ($runs inputs in ${seconds}s)"
    else
        echo "fuzz: $target FAILED; tail of $build/$target.log:" >&2
        tail -40 "$build/$target.log" >&2
        status=1
    fi
done
exit $status
