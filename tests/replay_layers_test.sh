#!/usr/bin/env bash
# The include arrows between core/src/replay's folders point one way:
#   sync/ → scan/ output/ sessions/ timing/ → model/ observe/
# No file below sync/ includes a header of sync/, and model/ and observe/, at the bottom,
# include no other folder of replay/. Each offending include is printed with its file.
#   tests/replay_layers_test.sh SOURCE_DIR
set -euo pipefail
cd "$1/core/src/replay"

offences=0
# check FOLDER PATTERN WHY: every include in FOLDER matching PATTERN is an offence.
check() {
    local folder=$1 pattern=$2 why=$3 hit
    if [[ ! -d $folder ]]; then
        printf 'core/src/replay/%s: no such folder\n' "$folder"
        offences=$((offences + 1))
        return
    fi
    # Each hit reads FILE:LINE:#include "...".
    while IFS= read -r hit; do
        printf 'core/src/replay/%s  (%s)\n' "$hit" "$why"
        offences=$((offences + 1))
    done < <(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]$pattern" \
        --include='*.hpp' --include='*.cpp' --include='*.h' "$folder" || true)
}

for folder in scan output sessions timing model observe; do
    check "$folder" 'replay/sync/' "$folder/ sits below sync/"
done
for folder in model observe; do
    check "$folder" 'replay/(scan|output|sessions|timing|sync)/' "$folder/ sits at the bottom"
done

files=$(find scan output sessions timing model observe sync -name '*.[ch]pp' | wc -l)
if ((files <= 40)); then
    printf 'only %d files under core/src/replay: the check reads the tree wrong\n' "$files"
    exit 1
fi
if ((offences > 0)); then
    printf '%d include(s) against the direction of replay/ folders\n' "$offences"
    exit 1
fi
printf 'core/src/replay: %d files, every include points down\n' "$files"
