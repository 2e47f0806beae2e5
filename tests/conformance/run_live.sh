#!/usr/bin/env bash
# Runs tap-diffgen-conformance against a first-party plugin and the throwaway test server,
# reading the connection from the TDG_TEST_* variables tests/servers/*.sh print with `env`.
#
#   run_live.sh postgres|mysql <runner> <plugin.so> <cases-dir> [runner options]
set -euo pipefail

(($# >= 4)) || {
    printf 'usage: %s postgres|mysql <runner> <plugin.so> <cases-dir> [runner options]\n' "$0" >&2
    exit 2
}
dialect=$1 runner=$2 plugin=$3 cases=$4
shift 4

case $dialect in
    postgres) prefix=TDG_TEST_PG ;;
    mysql) prefix=TDG_TEST_MYSQL ;;
    *)
        printf 'unknown dialect %s\n' "$dialect" >&2
        exit 2
        ;;
esac

for name in HOST PORT USER PASSWORD DATABASE ADMIN; do
    variable=${prefix}_$name
    [[ -n ${!variable:-} ]] || {
        # shellcheck disable=SC2016 # the command is shown to the user, not run
        printf '%s is not set (run through ctest, or eval "$(tests/servers/*.sh env)")\n' \
            "$variable" >&2
        exit 2
    }
done

setting() {
    local name=${prefix}_$1
    printf '%s' "${!name}"
}

json_string() {
    local text=${1//\\/\\\\}
    printf '"%s"' "${text//\"/\\\"}"
}

options="{\"host\":$(json_string "$(setting HOST)")"
options+=",\"port\":$(json_string "$(setting PORT)")"
options+=",\"user\":$(json_string "$(setting USER)")"
options+=",\"password\":$(json_string "$(setting PASSWORD)")"
options+=",\"database\":$(json_string "$(setting DATABASE)")"
options+=",\"connect_timeout\":\"10\"}"

TDG_CONFORMANCE_OPTIONS=$options exec "$runner" --plugin "$plugin" --cases "$cases" \
    --setup-command "$(setting ADMIN)" "$@"
