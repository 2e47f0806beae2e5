#!/usr/bin/env bash
# What the journal triggers cost the application's writes; see tests/bench/README.md, "Write
# throughput with the journal triggers".
#
#   bash tests/bench/writes.sh [--rows N] [--rounds K] [--before REV] [--dialect D] [--build-dir DIR]
#
# Single-row autocommit INSERTs, UPDATEs and DELETEs, one statement at a time by a real client
# (pgbench -M prepared; write_bench over libmariadb), on a narrow and a wide table, each with: no
# trigger; a minimal hand-written key-only trigger (the reference); the shipped triggers of the
# working tree; on PostgreSQL its compatible path (diffgen_journal); and with --before the
# shipped triggers of revision REV. A run's rate is taken at its median statement's latency,
# which the moments another process holds the CPU do not move as they move the mean. Rounds
# take turns (rotate_rounds); the report gives each round's rate divided by the same round's
# rate without a trigger, as the median (lowest–highest), and the median rates. Markdown on
# stdout, progress on stderr.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/tests/bench

usage() {
    cat <<'EOF'
usage: bash tests/bench/writes.sh [options]
  --rows N          statements of each kind per run (default 1000)
  --rounds K        rounds taking turns, after one left out (default 15)
  --before REV      also measure the shipped triggers of git revision REV (e.g. 6a3e6bd)
  --dialect D       postgres, mysql or all (default all)
  --build-dir DIR   build directory for write_bench (default build-bench)
EOF
}

ROWS=1000 ROUNDS=15 BEFORE="" DIALECT=all BUILD_DIR=$ROOT/build-bench
while (($#)); do
    case $1 in
        --rows) ROWS=$2 && shift ;;
        --rounds) ROUNDS=$2 && shift ;;
        --before) BEFORE=$2 && shift ;;
        --dialect) DIALECT=$2 && shift ;;
        --build-dir) BUILD_DIR=$2 && shift ;;
        -h | --help) usage && exit 0 ;;
        *) usage >&2 && exit 2 ;;
    esac
    shift
done
[[ $ROWS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] || {
    usage >&2
    exit 2
}
case $DIALECT in
    postgres | postgresql) DIALECTS=(pg) ;;
    mysql | mariadb) DIALECTS=(my) ;;
    all) DIALECTS=(pg my) ;;
    *) usage >&2 && exit 2 ;;
esac
if [[ -n $BEFORE ]]; then
    git -C "$ROOT" rev-parse --verify --quiet "$BEFORE^{commit}" >/dev/null ||
        {
            printf 'writes.sh: --before %s is no revision of this repository\n' "$BEFORE" >&2
            exit 2
        }
fi
PG_PORT=${TDG_TEST_PG_PORT:-55432}
MY_PORT=${TDG_TEST_MYSQL_PORT:-53306}
WORK=$BUILD_DIR/bench-writes
mkdir -p "$WORK"

# shellcheck source=lib.sh
source "$BENCH/lib.sh"

readonly SHAPES=(narrow wide)
# The wide table's 39 columns after the key: bigint, text, numeric, timestamp, boolean in turn.
readonly WIDE_COLUMNS=39

# ---------------------------------------------------------------------------------------------
# The tables and their triggers. Table bench_w_<shape>_<variant>; the journals are the shipped
# SQL's, renamed as the end-to-end tests rename them: bench_wa_diffgen (the working tree's),
# bench_wb_diffgen (REV's), bench_wk_diffgen (the reference's, the working tree's DDL).

variants() {
    local dialect=$1
    printf '%s\n' none reference shipped
    if [[ $dialect == pg ]]; then printf '%s\n' compatible; fi
    if [[ -n $BEFORE ]]; then printf '%s\n' before; fi
}

variant_label() {
    case $1 in
        none) printf 'no trigger' ;;
        reference) printf 'key-only reference' ;;
        shipped) printf 'shipped (working tree)' ;;
        compatible) printf 'shipped, compatible path (diffgen_journal)' ;;
        before) printf 'shipped at %s' "$BEFORE" ;;
    esac
}

# shipped_sql DIALECT PREFIX [REV]: the shipped SQL of the working tree or of REV, renamed.
shipped_sql() {
    local file
    file=$([[ $1 == pg ]] && printf postgres.sql || printf mysql.sql)
    if [[ -n ${3:-} ]]; then
        git -C "$ROOT" show "$3:packaging/diffgen/$file"
    else
        cat "$ROOT/packaging/diffgen/$file"
    fi | sed -E "s/\\bdiffgen(\\w*)/$2_diffgen\\1/g"
}

# column_types DIALECT SHAPE -> "name type" lines after the key.
column_types() {
    local dialect=$1 shape=$2 i types
    if [[ $shape == narrow ]]; then
        if [[ $dialect == pg ]]; then
            printf '%s\n' 'qty bigint' 'note text' 'changed_at timestamptz'
        else
            printf '%s\n' 'qty BIGINT' 'note TEXT' 'changed_at DATETIME(6)'
        fi
        return
    fi
    if [[ $dialect == pg ]]; then
        types=(bigint text 'numeric(12,4)' timestamptz boolean)
    else
        types=(BIGINT TEXT 'DECIMAL(12,4)' 'DATETIME(6)' BOOLEAN)
    fi
    for ((i = 1; i <= WIDE_COLUMNS; i++)); do
        printf 'c%02d %s\n' "$i" "${types[(i - 1) % 5]}"
    done
}

# column_value TYPE -> the value an INSERT writes into a column of TYPE.
column_value() {
    case ${1,,} in
        bigint) printf '42' ;;
        text) printf "'a note of about forty bytes, as rows have'" ;;
        numeric* | decimal*) printf '12.5' ;;
        timestamptz | datetime*) printf 'now()' ;;
        boolean) printf 'true' ;;
    esac
}

table_name() { printf 'bench_w_%s_%s' "$1" "$2"; }

create_table_sql() {
    local dialect=$1 table=$2 shape=$3 columns=()
    mapfile -t columns < <(column_types "$dialect" "$shape")
    printf 'DROP TABLE IF EXISTS %s;\n' "$table"
    if [[ $dialect == pg ]]; then
        printf 'CREATE TABLE %s (id integer PRIMARY KEY, %s);\n' "$table" "$(join_by ', ' "${columns[@]}")"
    else
        printf 'CREATE TABLE %s (id INT NOT NULL PRIMARY KEY, %s);\n' "$table" "$(join_by ', ' "${columns[@]}")"
    fi
}

# The minimal key-only trigger an application would write by hand: the key, no key-change
# check, one INSERT ... VALUES.
reference_trigger_sql() {
    local dialect=$1 table=$2 journal=bench_wk_diffgen
    if [[ $dialect == pg ]]; then
        cat <<SQL
CREATE OR REPLACE FUNCTION ${table}_reference() RETURNS trigger LANGUAGE plpgsql AS \$\$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO $journal (tablename, table_id, op) VALUES ('$table', OLD.id, 'd');
    ELSE
        INSERT INTO $journal (tablename, table_id, op) VALUES ('$table', NEW.id, lower(left(TG_OP, 1)));
    END IF;
    RETURN NULL;
END
\$\$;
CREATE TRIGGER reference AFTER INSERT OR UPDATE OR DELETE ON $table
    FOR EACH ROW EXECUTE FUNCTION ${table}_reference();
SQL
    else
        local op event
        for op in i u d; do
            event=$(case $op in i) echo INSERT ;; u) echo UPDATE ;; d) echo DELETE ;; esac)
            printf "CREATE TRIGGER %s_reference_%s AFTER %s ON %s FOR EACH ROW INSERT INTO %s (tablename, table_id, op) VALUES ('%s', %s.id, '%s');\n" \
                "$table" "$op" "$event" "$table" "$journal" "$table" "$([[ $op == d ]] && echo OLD || echo NEW)" "$op"
        done
    fi
}

# shipped_trigger_sql DIALECT TABLE PREFIX REV: the table journalled as REV's (or the working
# tree's) shipped SQL says: diffgen_attach where it has one; before it, PostgreSQL's
# diffgen_journal trigger and MySQL's documented templates, taken from the file's comments.
shipped_trigger_sql() {
    local dialect=$1 table=$2 prefix=$3 rev=$4 sql
    sql=$(shipped_sql "$dialect" "$prefix" "$rev")
    if [[ $sql == *"${prefix}_diffgen_attach"* ]]; then
        if [[ $dialect == pg ]]; then
            printf "SELECT %s_diffgen_attach('%s', 'id');\n" "$prefix" "$table"
        else
            printf "CALL %s_diffgen_attach('%s');\n" "$prefix" "$table"
        fi
    elif [[ $dialect == pg ]]; then
        compatible_trigger_sql "$table" "$prefix"
    else
        # The templates for invoices, keyed by id, uncommented.
        sed -n '/^-- For each journalled table (here: invoices, keyed by id)/,/^-- A table with/p' <<<"$sql" |
            sed '1d;$d; s/^--  *//' | sed -E "s/invoices/$table/g"
    fi
}

compatible_trigger_sql() {
    printf 'CREATE TRIGGER compatible AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION %s_diffgen_journal(%s);\n' \
        "$1" "$2" "'id'"
}

setup_sql() {
    local dialect=$1 shape variant table
    shipped_sql "$dialect" bench_wa
    shipped_sql "$dialect" bench_wk
    if [[ -n $BEFORE ]]; then shipped_sql "$dialect" bench_wb "$BEFORE"; fi
    for shape in "${SHAPES[@]}"; do
        while read -r variant; do
            table=$(table_name "$shape" "$variant")
            create_table_sql "$dialect" "$table" "$shape"
            case $variant in
                reference) reference_trigger_sql "$dialect" "$table" ;;
                shipped) shipped_trigger_sql "$dialect" "$table" bench_wa "" ;;
                compatible) compatible_trigger_sql "$table" bench_wa ;;
                before) shipped_trigger_sql "$dialect" "$table" bench_wb "$BEFORE" ;;
            esac
        done < <(variants "$dialect")
    done
}

pg_setup() {
    local prefix
    for prefix in bench_wa bench_wk bench_wb; do
        printf 'DROP TABLE IF EXISTS %s_diffgen CASCADE;\n' "$prefix"
    done | PGOPTIONS='-c client_min_messages=warning' pg_sql >/dev/null
    setup_sql pg | PGOPTIONS='-c client_min_messages=warning' pg_sql >/dev/null ||
        die "pg: setting up the tables failed"
}

my_setup() {
    local prefix
    for prefix in bench_wa bench_wk bench_wb; do my_sql -e "DROP TABLE IF EXISTS ${prefix}_diffgen"; done
    setup_sql my | my_sql >/dev/null || die "my: setting up the tables failed"
}

# ---------------------------------------------------------------------------------------------
# The statements, with :n (pgbench's variable) or ? (write_bench's parameter) for the key.

statement_sql() {
    local dialect=$1 shape=$2 variant=$3 op=$4 key table columns=() values=() column type
    key=$([[ $dialect == pg ]] && printf ':n' || printf '?')
    table=$(table_name "$shape" "$variant")
    case $op in
        insert)
            while read -r column type; do
                columns+=("$column")
                values+=("$(column_value "$type")")
            done < <(column_types "$dialect" "$shape")
            printf 'INSERT INTO %s (id, %s) VALUES (%s, %s)' "$table" \
                "$(join_by ', ' "${columns[@]}")" "$key" "$(join_by ', ' "${values[@]}")"
            ;;
        update)
            column=$([[ $shape == narrow ]] && printf qty || printf c01)
            printf 'UPDATE %s SET %s = %s + 1 WHERE id = %s' "$table" "$column" "$column" "$key"
            ;;
        delete) printf 'DELETE FROM %s WHERE id = %s' "$table" "$key" ;;
    esac
}

# pg_run SHAPE VARIANT OP -> "<rate> <seconds>": statements per second at the median
# statement's latency, and the run's time; pgbench over keys 1..ROWS, logging every statement.
pg_run() {
    local script=$WORK/pg-$1-$2-$3.sql log=$WORK/pg-latency output
    printf '\\set n :n + 1\n%s;\n' "$(statement_sql pg "$1" "$2" "$3")" >"$script"
    rm -f "$log".*
    output=$(PGPASSWORD=$DB_PASSWORD "$PG_BIN/pgbench" -n -M prepared -c 1 -t "$ROWS" -D n=0 \
        -l --log-prefix="$log" -f "$script" \
        "host=127.0.0.1 port=$PG_PORT user=$DB_USER dbname=$DB_NAME sslmode=disable" 2>&1) ||
        die "pgbench failed on $script: $output"
    [[ $output =~ tps\ =\ ([0-9.]+)\ \(without ]] || die "no tps in pgbench's output: $output"
    # The log's third column is each statement's latency in microseconds.
    printf '%s %s\n' "$(calc "1000000 / $(cut -d' ' -f3 "$log".* | median)")" \
        "$(calc "$ROWS / ${BASH_REMATCH[1]}")"
}

my_run() {
    local output
    output=$(MYSQL_PWD=$DB_PASSWORD "$WRITE_BENCH" --port "$MY_PORT" --user "$DB_USER" \
        --database "$DB_NAME" --sql "$(statement_sql my "$1" "$2" "$3")" --first 1 \
        --count "$ROWS" 2>&1) || die "write_bench failed: $output"
    awk '{ print 1 / $3, $2 }' <<<"$output"
}

# One run of slot SLOT (shape and variant) in round ROUND: ROWS inserts into the empty table,
# updates of the same rows, and their deletes, each timed; the table is empty again after it.
# Nothing is emptied in between (DDL between runs stalled MariaDB for seconds); the journals
# grow by 3 x ROWS a run. Sets M_WALL.
SLOTS=()
write_run() {
    local slot=${SLOTS[$1]} round=$2 shape variant op rate seconds wall=0
    shape=${slot%% *} variant=${slot#* }
    for op in insert update delete; do
        read -r rate seconds < <("${DIALECT_NOW}_run" "$shape" "$variant" "$op")
        put "$DIALECT_NOW:$shape:$variant:$op:$round" "$rate"
        wall=$(calc "$wall + $seconds")
    done
    M_WALL=$wall
}

# slot_walls_shown WALLS -> "narrow/none 1.20 s, ...", for the log.
slot_walls_shown() {
    local walls=() i shown=()
    read -r -a walls <<<"$1"
    for ((i = 0; i < ${#walls[@]}; i++)); do
        shown+=("${SLOTS[i]/ //} $(fmt %.1f "${walls[i]}") s")
    done
    join_by ', ' "${shown[@]}"
}

measure_dialect() {
    local dialect=$1 shape variant
    DIALECT_NOW=$dialect
    SLOTS=()
    for shape in "${SHAPES[@]}"; do
        while read -r variant; do SLOTS+=("$shape $variant"); done < <(variants "$dialect")
    done
    log "$dialect: ${#SLOTS[@]} runs a round of $ROWS inserts, updates and deletes each; $ROUNDS rounds after one left out"
    rotate_rounds 0 "$ROUNDS" "${#SLOTS[@]}" write_run slot_walls_shown
}

# ---------------------------------------------------------------------------------------------
# The report.

# rates DIALECT SHAPE VARIANT OP -> the rounds' rates, one a line.
rates() {
    local round
    for ((round = 1; round <= ROUNDS; round++)); do
        printf '%s\n' "${RESULT[$1:$2:$3:$4:$round]}"
    done
}

# ratios DIALECT SHAPE VARIANT OP -> each round's rate over the same round's rate without a
# trigger, one a line.
ratios() {
    paste <(rates "$1" "$2" "$3" "$4") <(rates "$1" "$2" none "$4") | awk '{ print $1 / $2 }'
}

report() {
    local dialect shape variant op row
    printf '## Write throughput with the journal triggers (%s)\n\n' "$(date -u +%Y-%m-%d)"
    printf 'Single-row autocommit statements, %s of each kind per run, one at a time (PostgreSQL: pgbench -M prepared; MariaDB: write_bench); %s rounds taking turns after one left out; load average before: %s. A run'"'"'s rate is statements per second at its median statement'"'"'s latency; the table gives the median run'"'"'s, and × is each round'"'"'s rate over the same round'"'"'s rate without a trigger, median (lowest–highest).\n\n' \
        "$ROWS" "$ROUNDS" "$LOAD_BEFORE"
    printf '| database | table | trigger | INSERT/s | UPDATE/s | DELETE/s | INSERT × | UPDATE × | DELETE × |\n'
    printf '|---|---|---|---|---|---|---|---|---|\n'
    for dialect in "${DIALECTS[@]}"; do
        for shape in "${SHAPES[@]}"; do
            while read -r variant; do
                row="| $(dialect_name "$dialect") | $shape | $(variant_label "$variant") |"
                for op in insert update delete; do
                    row+=" $(group "$(rates "$dialect" "$shape" "$variant" "$op" | median)") |"
                done
                for op in insert update delete; do
                    if [[ $variant == none ]]; then
                        row+=" 1 |"
                    else
                        row+=" $(ratios "$dialect" "$shape" "$variant" "$op" | spread_cell) |"
                    fi
                done
                printf '%s\n' "$row"
            done < <(variants "$dialect")
        done
    done
}

# ---------------------------------------------------------------------------------------------

build_client() {
    if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
        log "configuring $BUILD_DIR (Release)"
        cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log" 2>&1 ||
            die "cmake failed; see $WORK/cmake.log"
    fi
    log "building write_bench"
    cmake --build "$BUILD_DIR" -j2 --target write_bench >"$WORK/build.log" 2>&1 ||
        die "build failed; see $WORK/build.log"
    WRITE_BENCH=$BUILD_DIR/bin/write_bench
}

main() {
    local dialect
    if [[ " ${DIALECTS[*]} " == *" my "* ]]; then build_client; fi
    for dialect in "${DIALECTS[@]}"; do
        bash "$ROOT/tests/servers/$([[ $dialect == pg ]] && printf postgres || printf mariadb).sh" start
        log "$dialect: creating the tables and their triggers"
        "${dialect}_setup"
    done
    LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
    for dialect in "${DIALECTS[@]}"; do measure_dialect "$dialect"; done
    report
}

main
