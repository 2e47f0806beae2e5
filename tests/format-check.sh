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

offenders=()
for file in "${sources[@]}"; do
    if ! output=$("$formatter" --style=file --dry-run -Werror "$file" 2>&1); then
        if [[ $output != *clang-format-violations* ]]; then
            printf 'format-check: %s failed on %s:\n%s\n' "$formatter" "$file" "$output" >&2
            exit 2
        fi
        offenders+=("$file")
    fi
done

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
