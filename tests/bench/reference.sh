# shellcheck shell=bash
# The reference: the database's own JSON export, by its own client, of as many rows as the tap
# emitted records, from the same tables (the first rows of each; a table gets R/T of them).

# reference_runner DIALECT PREFIX T -> the export's runner script; needs the tap's record
# count under DIALECT:PREFIX:records.
reference_runner() {
    local dialect=$1 prefix=$2 tables=$3 key=$1:$2 rows t=0 n table runner words=() statements=()
    rows=${RESULT[$key:records]}
    runner=$WORK/reference-$dialect-$prefix.sh
    mapfile -t words < <("${dialect}_client_words")
    : >"$runner"
    while read -r table; do
        n=$((rows / tables + (t < rows % tables ? 1 : 0)))
        t=$((t + 1))
        if [[ $dialect == pg ]]; then
            mapfile -t statements < <(reference_passes "$n" "COPY (SELECT row_to_json(t) FROM $table t@limit@) TO STDOUT")
            command_line "${words[@]}" "${statements[@]/#/-c}" >>"$runner"
        else
            mapfile -t statements < <(reference_passes "$n" "SELECT $(my_json_object) FROM $table@limit@;")
            command_line "${words[@]}" -e "${statements[*]}" >>"$runner"
        fi
    done < <(workload_tables "$prefix" "$tables")
    printf '%s' "$runner"
}

# reference_passes N STATEMENT -> STATEMENT once with @limit@ as ` LIMIT N`, one a line. When a
# table holds fewer rows than N (REFERENCE_TABLE_ROWS, the cost curve's backlogs re-pull more
# rows than their table has), whole passes over the table first, then the rest.
reference_passes() {
    local n=$1 statement=$2 rows=${REFERENCE_TABLE_ROWS:-0}
    while ((rows > 0 && n > rows)); do
        printf '%s\n' "${statement//@limit@/}"
        n=$((n - rows))
    done
    printf '%s\n' "${statement//@limit@/ LIMIT $n}"
}

# JSON_OBJECT('id', id, 'qty', qty, ...)
my_json_object() {
    local column pairs=()
    for column in "${WORKLOAD_COLUMNS[@]}"; do pairs+=("'$column', $column"); done
    printf 'JSON_OBJECT(%s)' "$(join_by ', ' "${pairs[@]}")"
}
