# shellcheck shell=bash
# The tap over a whole backlog: from the beginning of the log, every record to /dev/null.

# tap_config DIALECT PREFIX T [PORT] -> path of the tap's config for that workload; PORT (a
# proxy's, rtt.sh) instead of the server's.
tap_config() {
    local dialect=$1 prefix=$2 tables=$3 port=${4:-} file name sql_dialect list=""
    file=$WORK/$2-$1-$3${4:+-via-$4}.json
    if [[ $dialect == pg ]]; then
        sql_dialect=postgres port=${port:-$PG_PORT}
    else
        sql_dialect=mysql port=${port:-$MY_PORT}
    fi
    while read -r name; do
        list+="${list:+,}{\"table_name\":\"$name\",\"pk_column\":\"id\"}"
    done < <(workload_tables "$prefix" "$tables")
    cat >"$file" <<JSON
{"sql_dialect":"$sql_dialect","host":"127.0.0.1","port":$port,"user":"$DB_USER",
 "password":"$DB_PASSWORD","database":"$DB_NAME","diffgen_table":"${prefix}_diffgen",
 "page_size":$WORKLOAD_PAGE,"ssl_mode":"disable","tables":[$list]}
JSON
    printf '%s' "$file"
}

# tap_runner DIALECT PREFIX T -> a runner script that runs the tap over that workload (exec,
# so that the peak RSS measured is the tap's).
tap_runner() {
    local runner=$WORK/tap-$1-$2.sh
    printf 'exec %s\n' "$(command_line "$TAP" --config "$(tap_config "$@")")" >"$runner"
    printf '%s' "$runner"
}

# tap_summary KEY ERR: the counts of the tap's `sync done:` line in ERR (events, records,
# diffgen and re-pull queries, sync time) under KEY.
tap_summary() {
    local key=$1 summary
    summary=$(grep -o 'sync done: .*' "$2" | tail -n 1)
    local pattern='sync done: ([0-9]+) events, ([0-9]+) records, ([0-9]+) diffgen queries, ([0-9]+) re-pull queries in ([0-9.e+-]+) s'
    [[ $summary =~ $pattern ]] || {
        tdg_log_tail "$2"
        die "no 'sync done' line from the tap"
    }
    put "$key:events" "${BASH_REMATCH[1]}"
    put "$key:records" "${BASH_REMATCH[2]}"
    put "$key:diffgen_queries" "${BASH_REMATCH[3]}"
    put "$key:repull_queries" "${BASH_REMATCH[4]}"
    put "$key:sync_seconds" "${BASH_REMATCH[5]}"
    put "$key:summary" "$summary"
}
