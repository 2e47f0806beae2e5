# shellcheck shell=bash disable=SC2016 # Markdown backticks, not expansions
# Where the tap's own CPU goes: one run under perf (sampling, with call graphs) or, where the
# CPU's counters are not available to perf (most virtual machines), under callgrind (exact
# instruction counts; the run is some 50 times slower, so its wall time means nothing).

profile_tool() {
    case $PROFILER in
        perf | callgrind) printf '%s' "$PROFILER" ;;
        auto)
            if perf stat -e instructions true 2>&1 | grep -q 'not supported' ||
                ! perf stat -e instructions true >/dev/null 2>&1; then
                printf callgrind
            else
                printf perf
            fi
            ;;
    esac
}

# profile_trim: perf's report lines without their padding and trailing columns, C++ template
# arguments shortened, at most 150 characters.
profile_trim() {
    sed -E 's/[[:space:]]+(-[[:space:]]+)*$//; :a; s/<[^<>]*>/‹›/; ta; s/‹›//g' | cut -c1-150
}

# profile_run DIALECT PREFIX T: prints the top 15 symbols by own (exclusive) cost and the cost
# per shared object.
profile_run() {
    local dialect=$1 prefix=$2 tables=$3 config tool out=$WORK/profile-$1-$2 err
    config=$(tap_config "$dialect" "$prefix" "$tables")
    tool=$(profile_tool)
    err=$out.err
    log "profiling the tap on $prefix ($dialect) with $tool"
    if [[ $tool == perf ]]; then
        command -v perf >/dev/null || die "perf is not installed (apt-get install linux-perf)"
        perf record -q -g -o "$out.perf" -- "$TAP" --config "$config" >/dev/null 2>"$err" ||
            die "perf record failed (see $err)"
        printf '\n### Profile: perf record -g, %s, %s (self time)\n\n' "$dialect" "$prefix"
        printf '```\n'
        perf report -i "$out.perf" --stdio --no-children -g none --sort dso,symbol 2>/dev/null |
            grep -v '^#' | sed '/^[[:space:]]*$/d' | profile_trim | sed -n 1,15p
        printf '```\n\nBy shared object:\n\n```\n'
        perf report -i "$out.perf" --stdio --no-children -g none --sort dso 2>/dev/null |
            grep -v '^#' | sed '/^[[:space:]]*$/d' | profile_trim | sed -n 1,8p
        printf '```\n'
    else
        command -v valgrind >/dev/null || die "valgrind is not installed (apt-get install valgrind)"
        valgrind --tool=callgrind --callgrind-out-file="$out.callgrind" \
            "$TAP" --config "$config" >/dev/null 2>"$err" || die "callgrind failed (see $err)"
        callgrind_annotate --inclusive=no --threshold=100 "$out.callgrind" >"$out.txt" 2>/dev/null
        printf '\n### Profile: valgrind --tool=callgrind, %s, %s (instructions, self)\n\n' \
            "$dialect" "$prefix"
        printf '```\n'
        grep -m 1 'PROGRAM TOTALS' "$out.txt"
        profile_callgrind_summary "$out.txt" functions | sed -n 1,15p
        printf '```\n\nBy shared object:\n\n```\n'
        profile_callgrind_summary "$out.txt" objects | sed -n 1,8p
        printf '```\n'
    fi
    grep -o 'sync done: .*' "$err" | tail -n 1 | sed 's/^/under the profiler: /' || true
}

# callgrind_summary FILE functions|objects -> self instructions per function (the parts of a
# function that callgrind_annotate lists per source file summed) or per shared object, with
# their share of the program's total, largest first.
profile_callgrind_summary() {
    awk -v by="$2" '
        /PROGRAM TOTALS/ { total = $1; gsub(",", "", total) }
        /file:function/ { listing = 1; next }
        listing && /^ *[0-9,]+ +\(/ {
            n = $1; gsub(",", "", n)
            line = $0; sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", line)
            object = ""
            if (match(line, / \[[^]]*\]$/)) {
                object = substr(line, RSTART + 2, RLENGTH - 3); line = substr(line, 1, RSTART - 1)
            }
            function_name = line; sub(/^[^:]*:/, "", function_name)
            if (object != "") object_of[function_name] = object
            cost[function_name] += n
        }
        END {
            for (f in cost) {
                object = f in object_of ? object_of[f] : "?"
                if (by == "objects") key = object
                else {
                    # Parameter lists make C++ names unreadable; overloads are rare here.
                    sub(/.*\//, "", object); name = f; sub(/\(.*/, "", name)
                    key = name "  (" object ")"
                }
                sum[key] += cost[f]
            }
            for (k in sum) printf "%14.0f %6.2f%%  %s\n", sum[k], 100 * sum[k] / total, k
        }' "$1" | sort -rn | cut -c16-
}
