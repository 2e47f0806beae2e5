# shellcheck shell=bash
# The reference: the database's own JSON export, by its own client, of as many rows as the tap
# emitted records, from the same tables (the first rows of each; a table gets R/T of them).

# reference_runner DIALECT PREFIX T -> the export's runner script; needs the tap's record
# count under DIALECT:PREFIX:records.
reference_runner() {
    local dialect=$1 prefix=$2 tables=$3 key=$1:$2 rows t=0 n table runner words=()
    rows=${RESULT[$key:records]}
    runner=$WORK/reference-$dialect-$prefix.sh
    mapfile -t words < <("${dialect}_client_words")
    : >"$runner"
    while read -r table; do
        n=$((rows / tables + (t < rows % tables ? 1 : 0)))
        t=$((t + 1))
        if [[ $dialect == pg ]]; then
            command_line "${words[@]}" \
                -c "COPY (SELECT row_to_json(t) FROM $table t LIMIT $n) TO STDOUT" >>"$runner"
        else
            command_line "${words[@]}" -e "SELECT $(my_json_object) FROM $table LIMIT $n" >>"$runner"
        fi
    done < <(workload_tables "$prefix" "$tables")
    printf '%s' "$runner"
}

# JSON_OBJECT('id', id, 'qty', qty, ...)
my_json_object() {
    local column pairs=()
    for column in "${WORKLOAD_COLUMNS[@]}"; do pairs+=("'$column', $column"); done
    printf 'JSON_OBJECT(%s)' "$(join_by ', ' "${pairs[@]}")"
}
