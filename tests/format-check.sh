#!/usr/bin/env bash
# Format check for the C and C++ sources, using the repository's .clang-format.
#
#   tests/format-check.sh          list the files that clang-format would change; exit 1 if any
#   tests/format-check.sh --fix    rewrite those files in place
#
# Files: every *.h *.hpp *.cpp *.c under core/ sdk/ plugins/ tests/ that git tracks or that is
# untracked but not ignored. clang-format 14 is preferred (Debian 12's); CLANG_FORMAT overrides.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

fix=0
case ${1:-} in
    "") ;;
    --fix) fix=1 ;;
    *)
        printf 'usage: %s [--fix]\n' "$0" >&2
        exit 2
        ;;
esac

formatter=${CLANG_FORMAT:-}
if [[ -z $formatter ]]; then
    for candidate in clang-format-14 clang-format; do
        if command -v "$candidate" >/dev/null 2>&1; then
            formatter=$candidate
            break
        fi
    done
fi
[[ -n $formatter ]] || {
    printf 'format-check: clang-format not found (apt-get install clang-format-14)\n' >&2
    exit 2
}

dirs=(core sdk plugins tests)
files=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    while IFS= read -r -d '' file; do
        files+=("$file")
    done < <(git ls-files -z -co --exclude-standard -- "${dirs[@]}")
else
    while IFS= read -r -d '' file; do
        files+=("${file#./}")
    done < <(find "${dirs[@]}" -type f -print0 2>/dev/null)
fi

sources=()
for file in "${files[@]}"; do
    case $file in
        *.h | *.hpp | *.cpp | *.c) [[ -f $file ]] && sources+=("$file") ;;
    esac
done

printf 'format-check: %s, %d files\n' "$($formatter --version | head -n 1)" "${#sources[@]}" >&2

# TDG_JOBS formatters at a time, a few dozen files each, each writing to a file of its own so
# that their reports do not interleave. A file that needs formatting shows as
# "FILE:LINE:COL: error: code should be clang-formatted [-Wclang-format-violations]"; any other
# diagnostic means clang-format itself failed. xargs exits 123 when an invocation exited 1 to
# 125 (which includes finding violations) and with another non-zero status when one could not
# run or was killed.
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
xargs_status=0
# shellcheck disable=SC2016 # expanded by the inner shell
printf '%s\0' "${sources[@]}" |
    xargs -0 -P "${TDG_JOBS:-2}" -n 32 sh -c \
        'out=$(mktemp -p "$1" batch.XXXXXX) && shift &&
         exec "$0" --style=file --dry-run -Werror "$@" 2>"$out"' "$formatter" "$reports" ||
    xargs_status=$?
report=$(cat "$reports"/batch.* 2>/dev/null || true)
offenders=()
while IFS= read -r line; do
    [[ $line =~ ^(.+):[0-9]+:[0-9]+:\ error:\ .*\[-Wclang-format-violations\]$ ]] || continue
    offenders+=("${BASH_REMATCH[1]}")
done <<<"$report"
if ((${#offenders[@]} > 0)); then
    mapfile -t offenders < <(printf '%s\n' "${offenders[@]}" | sort -u)
fi
failures=$(grep -E '^[^ ]+:[0-9]+:[0-9]+: error: ' <<<"$report" |
    grep -v -- '-Wclang-format-violations' | sort -u | head -n 20 || true)
if [[ -n $failures ]] || ((xargs_status != 0 && xargs_status != 123)) ||
    ((xargs_status == 123 && ${#offenders[@]} == 0)); then
    printf 'format-check: %s failed:\n%s\n' "$formatter" "${failures:-$(head -n 20 <<<"$report")}" >&2
    exit 2
fi

if ((${#offenders[@]} == 0)); then
    printf 'format-check: all files formatted\n' >&2
    exit 0
fi

if ((fix)); then
    for file in "${offenders[@]}"; do
        "$formatter" --style=file -i "$file"
        printf 'format-check: reformatted %s\n' "$file" >&2
    done
    exit 0
fi

printf 'format-check: %d file(s) need formatting (run tests/format-check.sh --fix):\n' \
    "${#offenders[@]}" >&2
printf '    %s\n' "${offenders[@]}" >&2
exit 1
