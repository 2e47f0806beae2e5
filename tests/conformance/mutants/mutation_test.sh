#!/usr/bin/env bash
# The conformance kit's mutation test: how many likely plugin mistakes the installed
# tap-diffgen-conformance catches.
#
#   mutation_test.sh <build-dir> <source-dir> <mutants.txt> [--only PLUGIN]... [--keep DIR]
#
# 1. installs component dev of <build-dir> (the SDK, the kit and its cases, the SQLite example)
#    into a scratch prefix, as a third party gets it;
# 2. configures the SQLite example from that prefix, and copies of plugins/postgres and
#    plugins/mysql, each once, without unity build and unoptimised (only the mutated file
#    is compiled again for each mutant), and builds them;
# 3. runs the whole kit on each unmutated plugin: every case must pass;
# 4. for each mutant of mutants.txt: puts its one change into a scratch copy of the source,
#    rebuilds, runs the kit on the case the mutant names (then, if that passes, on every case),
#    and takes the change out again. A mutant whose original text is no longer in its file, or
#    that does not compile, fails the test: the list must follow the sources.
#
# Prints one line per mutant ("killed by <case>: ..." or "SURVIVED: <why>"), then "mutation
# score: K of N killed (P%)"; exits 1 when P is under 90 or anything could not be run.
# PostgreSQL and MySQL mutants need the TDG_TEST_PG_* / TDG_TEST_MYSQL_* settings
# (tests/servers/*.sh env); SQLite ones need sqlite3 (TDG_SQLITE3, default: from PATH).
set -euo pipefail

readonly kRequiredPercent=90
# Per case: the slowest unmutated case takes some seconds; a mutant that hangs is a kill.
readonly kCaseTimeoutSeconds=60

usage() {
    printf 'usage: %s <build-dir> <source-dir> <mutants.txt> [--only PLUGIN]... [--keep DIR]\n' \
        "$0" >&2
    exit 2
}
(($# >= 3)) || usage
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
mutants_file=$3
shift 3
only=()
keep=""
while (($# > 0)); do
    case $1 in
        --only) only+=("${2:?--only needs a plugin}") && shift 2 ;;
        --keep) keep=${2:?--keep needs a directory} && shift 2 ;;
        *) usage ;;
    esac
done

fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

now_ms() { printf '%s' "$((${EPOCHREALTIME/[.,]/} / 1000))"; }
started=$(now_ms)
since() { printf '%d.%ds' $((($(now_ms) - $1) / 1000)) $((($(now_ms) - $1) % 1000 / 100)); }

if [[ -n $keep ]]; then
    rm -rf "$keep" && mkdir -p "$keep"
    scratch=$(cd "$keep" && pwd)
else
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/tdg-mutation-XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
fi
prefix=$scratch/prefix

# ---- The mutants ---------------------------------------------------------------------------
names=() plugins=() files=() cases=() whys=() froms=() tos=()
declare -A seen_names=()

# finish_mutant LINE: checks the block read so far and appends it.
current=()
finish_mutant() {
    ((${#current[@]} > 0)) || return 0
    local -A block=()
    local entry
    for entry in "${current[@]}"; do block[${entry%%=*}]=${entry#*=}; done
    for key in mutant plugin file case why from to; do
        [[ -n ${block[$key]:-} ]] || fail "$mutants_file: the mutant ending at line $1 has no '$key'"
    done
    [[ ${block[plugin]} =~ ^(sqlite|postgres|mysql)$ ]] ||
        fail "$mutants_file: mutant ${block[mutant]}: unknown plugin '${block[plugin]}'"
    [[ -z ${seen_names[${block[mutant]}]:-} ]] ||
        fail "$mutants_file: two mutants are named ${block[mutant]}"
    seen_names[${block[mutant]}]=1
    current=()
    if ((${#only[@]} > 0)) && [[ " ${only[*]} " != *" ${block[plugin]} "* ]]; then return 0; fi
    names+=("${block[mutant]}") plugins+=("${block[plugin]}") files+=("${block[file]}")
    cases+=("${block[case]}") whys+=("${block[why]}") froms+=("${block[from]}")
    tos+=("${block[to]}")
}

line_number=0
while IFS= read -r line || [[ -n $line ]]; do
    line_number=$((line_number + 1))
    [[ $line == \#* ]] && continue
    if [[ -z ${line//[[:space:]]/} ]]; then
        finish_mutant "$line_number"
        continue
    fi
    [[ $line =~ ^([a-z]+)[[:space:]]+(.*)$ ]] ||
        fail "$mutants_file:$line_number: expected 'key value', got: $line"
    key=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
    [[ $key =~ ^(mutant|plugin|file|case|why|from|to)$ ]] ||
        fail "$mutants_file:$line_number: unknown key '$key'"
    current+=("$key=$value")
done <"$mutants_file"
finish_mutant "$line_number"
((${#names[@]} > 0)) || fail "no mutants to run in $mutants_file"

declare -A wanted_plugins=()
for plugin in "${plugins[@]}"; do wanted_plugins[$plugin]=1; done

# ---- The installed SDK and kit -------------------------------------------------------------
step_started=$(now_ms)
cmake --install "$build" --prefix "$prefix" --component dev >"$scratch/install.log" ||
    fail "installing component dev failed ($scratch/install.log)"
runner=$prefix/bin/tap-diffgen-conformance
installed_cases=$prefix/share/tap-diffgen/conformance/cases
sqlite_example=$prefix/share/tap-diffgen/examples/sqlite
[[ -x $runner && -d $installed_cases && -d $sqlite_example ]] ||
    fail "the install lacks the kit, its cases or the SQLite example under $prefix"

# Where each plugin's sources come from: the SQLite example as installed, the others as a
# third party would copy them.
plugin_origin() {
    case $1 in
        sqlite) printf '%s' "$sqlite_example" ;;
        *) printf '%s' "$source/plugins/$1" ;;
    esac
}

# The original text must be there exactly once, in every mutant, before anything is built.
count_of() {
    local text=$1 pattern=$2 rest
    rest=${text//"$pattern"/}
    printf '%d' $(((${#text} - ${#rest}) / ${#pattern}))
}
for i in "${!names[@]}"; do
    origin=$(plugin_origin "${plugins[i]}")
    path=$origin/${files[i]}
    [[ -f $path ]] || fail "mutant ${names[i]}: no file plugins/${plugins[i]}/${files[i]}"
    content=$(<"$path")
    found=$(count_of "$content" "${froms[i]}")
    ((found == 1)) || fail "mutant ${names[i]}: its original text is in plugins/${plugins[i]}/${files[i]} $found times, not once: ${froms[i]}"
done
printf 'installed the kit and SDK, checked %d mutants (%s)\n' "${#names[@]}" "$(since "$step_started")"

# ---- One build of each plugin --------------------------------------------------------------
declare -A plugin_so=() plugin_source=() plugin_build=()
for plugin in sqlite postgres mysql; do
    [[ -n ${wanted_plugins[$plugin]:-} ]] || continue
    step_started=$(now_ms)
    plugin_source[$plugin]=$scratch/src/$plugin
    plugin_build[$plugin]=$scratch/build/$plugin
    mkdir -p "$scratch/src"
    cp -r "$(plugin_origin "$plugin")" "${plugin_source[$plugin]}"
    # Unoptimised and without debug information: the quickest to compile, and each mutant
    # compiles one file again.
    cmake -S "${plugin_source[$plugin]}" -B "${plugin_build[$plugin]}" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
        -DCMAKE_UNITY_BUILD=OFF >"$scratch/configure-$plugin.log" 2>&1 ||
        fail "configuring plugins/$plugin failed ($scratch/configure-$plugin.log)"
    cmake --build "${plugin_build[$plugin]}" -j2 >"$scratch/build-$plugin.log" 2>&1 ||
        fail "building plugins/$plugin failed ($scratch/build-$plugin.log)"
    plugin_so[$plugin]=$(find "${plugin_build[$plugin]}" -name "tap-diffgen-dialect-$plugin.so" \
        -print -quit)
    [[ -n ${plugin_so[$plugin]} ]] || fail "the build of plugins/$plugin made no plugin"
    printf 'built plugins/%s (%s)\n' "$plugin" "$(since "$step_started")"
done

# ---- The kit -------------------------------------------------------------------------------
sqlite3_cli=${TDG_SQLITE3:-$(command -v sqlite3 || true)}
run_live=$source/tests/conformance/run_live.sh

# run_kit PLUGIN [runner options]: the kit's report on stdout; its exit status.
run_kit() {
    local plugin=$1 status=0
    shift
    case $plugin in
        sqlite)
            [[ -n $sqlite3_cli ]] || fail "the SQLite mutants need sqlite3 (set TDG_SQLITE3)"
            : >"$scratch/conformance.db"
            TDG_CONFORMANCE_OPTIONS="{\"database\":\"$scratch/conformance.db\"}" \
                "$runner" --plugin "${plugin_so[sqlite]}" --overrides "$sqlite_example/conformance" \
                --setup-command "$(printf '%q -bail %q' "$sqlite3_cli" "$scratch/conformance.db")" \
                --case-timeout "$kCaseTimeoutSeconds" "$@" 2>>"$scratch/kit-stderr.log" ||
                status=$?
            ;;
        *)
            bash "$run_live" "$plugin" "$runner" "${plugin_so[$plugin]}" "$installed_cases" \
                --case-timeout "$kCaseTimeoutSeconds" "$@" 2>>"$scratch/kit-stderr.log" || status=$?
            ;;
    esac
    return "$status"
}

# The first failing case of a report, as "<case>: <detail>".
first_failure() {
    local line
    line=$(grep -m 1 '^FAIL ' <<<"$1" || true)
    printf '%s' "${line#FAIL }"
}

# ---- The unmutated plugins, built from copies against the installed SDK, pass the whole kit --
for plugin in sqlite postgres mysql; do
    [[ -n ${wanted_plugins[$plugin]:-} ]] || continue
    step_started=$(now_ms)
    status=0
    report=$(run_kit "$plugin") || status=$?
    ((status == 0)) || fail "unmutated plugins/$plugin fails the kit (exit $status): $(first_failure "$report")"
    printf 'unmutated plugins/%s passes the kit: %s (%s)\n' "$plugin" \
        "$(grep -cE '^(ok|skip) ' <<<"$report") cases ok or skipped" "$(since "$step_started")"
done

# ---- Each mutant ---------------------------------------------------------------------------
killed=0 total=0 survivors=()
for i in "${!names[@]}"; do
    step_started=$(now_ms)
    plugin=${plugins[i]}
    path=${plugin_source[$plugin]}/${files[i]}
    object=$(find "${plugin_build[$plugin]}" -name "${files[i]}.o" -print -quit)
    [[ -n $object ]] || fail "mutant ${names[i]}: no object file for ${files[i]}"
    # The original source and object come back with their times, so the next build compiles
    # only the next mutant's file.
    cp -p "$path" "$scratch/original-source"
    cp -p "$object" "$scratch/original-object"
    content=$(<"$path")
    printf '%s\n' "${content/"${froms[i]}"/"${tos[i]}"}" >"$path"
    if ! cmake --build "${plugin_build[$plugin]}" -j2 >"$scratch/mutant-build.log" 2>&1; then
        cat "$scratch/mutant-build.log" >&2
        fail "mutant ${names[i]} does not compile"
    fi
    status=0
    report=$(run_kit "$plugin" --case "${cases[i]}") || status=$?
    if ((status == 0)); then
        report=$(run_kit "$plugin") || status=$?
    fi
    cp -p "$scratch/original-source" "$path"
    cp -p "$scratch/original-object" "$object"
    ((status <= 1)) || fail "mutant ${names[i]}: the kit exited $status: $report"
    total=$((total + 1))
    if ((status == 1)); then
        killed=$((killed + 1))
        failure=$(first_failure "$report")
        [[ -n $failure ]] || failure="(exit 1 with no FAIL line)"
        detail=${failure#*: }
        ((${#detail} <= 110)) || detail="${detail:0:107}..."
        printf '%-36s killed by %s: %s (%s)\n' "${names[i]}" "${failure%%: *}" "$detail" \
            "$(since "$step_started")"
    else
        survivors+=("${names[i]}")
        printf '%-36s SURVIVED: %s (%s)\n' "${names[i]}" "${whys[i]}" "$(since "$step_started")"
    fi
done

percent=$((killed * 100 / total))
printf 'mutation score: %d of %d killed (%d%%) in %s\n' "$killed" "$total" "$percent" \
    "$(since "$started")"
if ((${#survivors[@]} > 0)); then
    printf 'survivors: %s\n' "${survivors[*]}"
fi
((percent >= kRequiredPercent)) || fail "the kit killed fewer than $kRequiredPercent% of the mutants"
