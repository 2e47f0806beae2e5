#!/usr/bin/env bash
# docs/architecture.md walks the tree file by file: every source or document it names in
# backticks must exist, so that the walk stays true as files move.
#   tests/docs_names_test.sh SOURCE_DIR
set -euo pipefail
# The backticks are the Markdown code marks around a name, not a command substitution.
# shellcheck disable=SC2016
named='`[A-Za-z0-9_./*-]+\.(cpp|hpp|h|md)`'
cd "$1"
missing=0
while IFS= read -r name; do
    found=0
    for root in . core/src sdk/include/tap-diffgen sdk plugins tests; do
        # A name with a wildcard (maps/builtins_*.cpp) must match at least one file.
        if compgen -G "$root/$name" >/dev/null; then
            found=1
            break
        fi
    done
    if ((!found)); then
        printf 'docs/architecture.md names %s, which does not exist\n' "$name"
        missing=$((missing + 1))
    fi
done < <(grep -oE "$named" docs/architecture.md | tr -d '`' | sort -u)
names=$(grep -cE "$named" docs/architecture.md)
((names > 20)) || { printf 'docs/architecture.md names only %d files: the check reads it wrong\n' "$names"; exit 1; }
((missing == 0)) || exit 1
printf 'docs/architecture.md: every named file exists\n'
