#!/usr/bin/env bash
# The cost curve: the tap against the JSON export and the limit as the backlog grows (100,000,
# 1,000,000 and 10,000,000 events) and as it spreads over more of a table (1%, 30% and 100% of
# its rows touched), on PostgreSQL and MariaDB; see tests/bench/README.md (*The cost curve*).
#
#   bash tests/bench/curve.sh [--events "N..."] [--touched "P..."] [--rounds "N:K..."] [options]
#
# The table is the same at every point: TABLE_ROWS rows of the workload's 10 columns
# (workload.sh), one table per database. A point's backlog of N events is a journal of its
# own, written straight into the diffgen table (no triggers: what they cost is
# journal-triggers.md's subject, and a 10,000,000-event backlog played through them takes
# hours): every event an update of an existing row, event s touching the key
# 1 + ((s × 2654435761) mod H) × TABLE_ROWS / H of the H = P% × TABLE_ROWS touched rows. The
# multiplier is prime, so any H consecutive events touch H distinct keys, spread evenly over
# the table: at 1% a page of 30,000 events holds each of its 10,000 keys three times, at 30%
# and 100% every key once. Journals and the table are kept (with a fingerprint) and reused.
#
# At each point the tap, the JSON export of as many rows as it emitted records, the limit
# (limit.sh, the client form) and the ceiling (the tap's statements on two sessions) run in rounds
# taking turns (rotate_rounds in lib.sh), after one run of the tap left out. Medians of the
# rounds: events/s, tap ÷ export, ceiling ÷ export, tap ÷ limit, peak RSS.
# Each point's row is appended to $WORK/curve-rows.md as it is measured, so a run cut short
# still leaves its points; --report-only prints the table and draws the plot from them.
# shellcheck source-path=SCRIPTDIR disable=SC2034 # the sourced parts read the settings
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BENCH=$ROOT/tests/bench

usage() {
    cat <<'EOF'
usage: bash tests/bench/curve.sh [options]
  --events "N..."     backlog sizes (default "100000 1000000 10000000")
  --touched "P..."    percentages of the table's rows the events touch (default "1 30 100")
  --table-rows R      rows of the table (default 1000000)
  --rounds "N:K..."   rounds taking turns at N events (default "100000:5 1000000:3
                      10000000:1"); sizes not listed get 3
  --dialect D         postgres, mysql or all (default all)
  --mariadb-buffer-pool MIB, --postgres-shared-buffers MIB
                      the servers' caches for the run (default 2048 each; 0 leaves them)
  --prepare-only      build the table and the journals and stop
  --report-only       print the table of the points measured so far and draw the plot
  --plot FILE         the SVG (default docs/performance-curve.svg)
  --fresh             rebuild the table and the journals even when identical ones exist
  --tap PATH          use this tap-diffgen instead of building build-bench/
  --build-dir DIR     build directory (default build-bench)
EOF
}

EVENT_COUNTS="100000 1000000 10000000" TOUCHED="1 30 100" TABLE_ROWS=1000000
ROUNDS="100000:5 1000000:3 10000000:1" DIALECT=all MY_BUFFER_POOL_MIB=2048 PG_SHARED_BUFFERS_MIB=2048
PREPARE_ONLY=0 REPORT_ONLY=0 FRESH=0 TAP="" BUILD_DIR=$ROOT/build-bench PLOT=$ROOT/docs/performance-curve.svg
while (($#)); do
    case $1 in
        --events) EVENT_COUNTS=$2 && shift ;;
        --touched) TOUCHED=$2 && shift ;;
        --table-rows) TABLE_ROWS=$2 && shift ;;
        --rounds) ROUNDS=$2 && shift ;;
        --dialect) DIALECT=$2 && shift ;;
        --mariadb-buffer-pool) MY_BUFFER_POOL_MIB=$2 && shift ;;
        --postgres-shared-buffers) PG_SHARED_BUFFERS_MIB=$2 && shift ;;
        --prepare-only) PREPARE_ONLY=1 ;;
        --report-only) REPORT_ONLY=1 ;;
        --plot) PLOT=$2 && shift ;;
        --fresh) FRESH=1 ;;
        --tap) TAP=$2 && shift ;;
        --build-dir) BUILD_DIR=$2 && shift ;;
        -h | --help) usage && exit 0 ;;
        *) usage >&2 && exit 2 ;;
    esac
    shift
done
for value in $EVENT_COUNTS $TOUCHED "$TABLE_ROWS"; do
    [[ $value =~ ^[1-9][0-9]*$ ]] || {
        printf 'curve.sh: expected a positive number, got %s\n' "$value" >&2
        exit 2
    }
done
for value in $TOUCHED; do
    ((value <= 100)) || {
        printf 'curve.sh: --touched takes percentages up to 100, got %s\n' "$value" >&2
        exit 2
    }
done
[[ $MY_BUFFER_POOL_MIB =~ ^[0-9]+$ && $PG_SHARED_BUFFERS_MIB =~ ^[0-9]+$ ]] || {
    usage >&2
    exit 2
}
PG_PORT=${TDG_TEST_PG_PORT:-55432}
MY_PORT=${TDG_TEST_MYSQL_PORT:-53306}
WORK=$BUILD_DIR/bench
ROWS_FILE=$WORK/curve-rows.md
CPU_FILE=$WORK/curve-cpu.md

# shellcheck source=lib.sh
source "$BENCH/lib.sh"
bench_dialects "$DIALECT" || {
    usage >&2
    exit 2
}
# shellcheck source=workload.sh
source "$BENCH/workload.sh"
# shellcheck source=tap.sh
source "$BENCH/tap.sh"
# shellcheck source=reference.sh
source "$BENCH/reference.sh"
# shellcheck source=limit.sh
source "$BENCH/limit.sh"

readonly CURVE_TABLE_PREFIX=bench_curve CURVE_MULTIPLIER=2654435761
# Every point's journal names the one table; the export passes over it as often as it must.
WORKLOAD_SHARED_TABLES=$CURVE_TABLE_PREFIX
REFERENCE_TABLE_ROWS=$TABLE_ROWS

curve_prefix() { printf '%s_%s_%s' "$CURVE_TABLE_PREFIX" "$1" "$2"; }

# curve_rounds N -> the rounds taking turns at N events.
curve_rounds() {
    local pair
    for pair in $ROUNDS; do
        [[ ${pair%%:*} == "$1" ]] && printf '%s' "${pair#*:}" && return 0
    done
    printf 3
}

# curve_table_sql DIALECT: the table, filled with keys 1..TABLE_ROWS at version 0.
curve_table_sql() {
    workload_filled_table_sql "$1" "$(workload_tables "$CURVE_TABLE_PREFIX" 1)" "$TABLE_ROWS"
}

# curve_journal_sql DIALECT N P: the diffgen objects of that point's prefix and its N events.
curve_journal_sql() {
    local dialect=$1 n=$2 touched=$3 p hot table series key
    p=$(curve_prefix "$n" "$touched")
    hot=$((TABLE_ROWS * touched / 100))
    ((hot > 0)) || hot=1
    table=$(workload_tables "$CURVE_TABLE_PREFIX" 1)
    if [[ $dialect == pg ]]; then
        series="generate_series(1::int8, $n) AS g(seq)"
        key="(1 + (seq * $CURVE_MULTIPLIER % $hot) * $TABLE_ROWS / $hot)::text"
    else
        series="seq_1_to_$n"
        key="CAST(1 + (seq * $CURVE_MULTIPLIER % $hot) * $TABLE_ROWS DIV $hot AS CHAR)"
    fi
    workload_diffgen_sql "$dialect" "$p"
    cat <<SQL
INSERT INTO ${p}_diffgen (tablename, table_id, op)
SELECT '$table', $key, 'u' FROM $series ORDER BY seq;
SQL
}

# curve_build DIALECT PREFIX SQL_FUNCTION ARG...: builds PREFIX's objects from the SQL that
# SQL_FUNCTION ARG... writes, unless the ones there were built from the same SQL.
curve_build() {
    local dialect=$1 p=$2 fingerprint started
    shift 2
    fingerprint=$("$@" | md5sum | cut -c1-32)
    if ((!FRESH)) && [[ $("${dialect}_workload_fingerprint" "$p") == "$fingerprint" ]]; then
        log "$dialect: $p is ready"
        return 0
    fi
    started=$(tdg_now)
    log "$dialect: building $p"
    "${dialect}_workload_drop" "$p"
    "$@" | "${dialect}_sql" >/dev/null
    "curve_${dialect}_finish" "$p" "$fingerprint"
    log "$dialect: $p built in $(tdg_elapsed "$started") s"
}

curve_pg_finish() {
    pg_sql <<SQL
SELECT format('VACUUM (ANALYZE) %I', tablename) FROM pg_tables
 WHERE schemaname = current_schema() AND tablename LIKE '$(like_prefix "$1")%'\\gexec
CREATE TABLE $1_meta (fingerprint text NOT NULL);
INSERT INTO $1_meta VALUES ('$2');
SQL
    pg_admin -c CHECKPOINT
}

curve_my_finish() {
    local table
    while read -r table; do
        my_sql --silent -e "ANALYZE TABLE $table" >/dev/null
    done < <(my_value "SELECT table_name FROM information_schema.tables
                        WHERE table_schema = DATABASE() AND table_name LIKE '$(like_prefix "$1")%'")
    my_sql -e "CREATE TABLE $1_meta (fingerprint VARCHAR(64) NOT NULL);
               INSERT INTO $1_meta VALUES ('$2')"
}

# curve_prepare DIALECT: the table, then the journals, largest first (the slow ones).
curve_prepare() {
    local dialect=$1 n touched
    curve_build "$dialect" "$CURVE_TABLE_PREFIX" curve_table_sql "$dialect"
    for n in $(tr " " "\n" <<<"$EVENT_COUNTS" | sort -rn); do
        for touched in $TOUCHED; do
            curve_build "$dialect" "$(curve_prefix "$n" "$touched")" curve_journal_sql "$dialect" "$n" "$touched"
        done
    done
}

# Both databases build at the same time, one server process busy each.
curve_prepare_all() {
    local dialect pids=()
    for dialect in "${DIALECTS[@]}"; do
        curve_prepare "$dialect" &
        pids+=("$!")
    done
    wait_all "building the cost curve's journals" "${pids[@]}"
}

# curve_limit_runner DIALECT PREFIX -> the limit's runner (the client form of limit.sh).
curve_limit_runner() {
    local dialect=$1 prefix=$2 base
    base=$WORK/limit-$dialect-$prefix
    "${dialect}_limit_statements" client "$prefix" 1 | cut -f2- >"$base-all.sql"
    # A failure in the statements' query leaves errexit behind in a command substitution.
    [[ -s $base-all.sql ]] || die "$dialect: $prefix: the limit's statements could not be made"
    limit_runner "$dialect" "$base-all.sql"
}

# curve_ceiling_runner DIALECT PREFIX -> the ceiling's runner: the statements the tap sends
# (limit.sh's tap form: the drivers' page reads and fetches, their parameters written in) on
# two client sessions at once, pages taking turns between them, every page's read with its
# fetches: the tap's reads exactly, where the limit's client form is the client's own fastest
# way to the same rows. Nothing is done to the rows, and the tap's own work would share the
# same two cores with its server's, so a tap finishes sooner only by spending less on its side
# than the database's client does: the export's wall ÷ the ceiling's wall is about the highest
# tap ÷ export this machine allows (curve_cpu_row gives the strict bound). PostgreSQL's rows
# come in COPY's binary format, as the tap's results do (text costs its server about 5% more);
# MariaDB's text rows are what the tap's driver reads too.
curve_ceiling_runner() {
    local dialect=$1 prefix=$2 base half runner format=""
    base=$WORK/limit-$dialect-$prefix
    "${dialect}_limit_statements" tap "$prefix" 1 >"$base-tap.tsv"
    [[ -s $base-tap.tsv ]] || die "$dialect: $prefix: the tap's statements could not be made"
    [[ $dialect != pg ]] || format=' (FORMAT binary)'
    for half in 0 1; do
        awk -F'\t' -v half=$half '$1 == 0 { page++ } page % 2 == half' "$base-tap.tsv" | cut -f2- |
            sed "s/ TO STDOUT;\$/ TO STDOUT$format;/" >"$base-ceiling-$half.sql"
    done
    runner=$base-ceiling.sh
    {
        printf 'bash %q &\n' "$(limit_runner "$dialect" "$base-ceiling-0.sql")"
        printf 'bash %q &\n' "$(limit_runner "$dialect" "$base-ceiling-1.sql")"
        printf 'wait -n && wait -n\n'
    } >"$runner"
    printf '%s' "$runner"
}

# curve_rss_mib LABEL ROUNDS -> the peak RSS of each counted round's run, MiB, one a line.
curve_rss_mib() {
    local round
    for ((round = 1; round <= $2; round++)); do
        awk '{ printf "%.1f\n", $3 / 1024 }' "$WORK/$1.$round.time"
    done
}

# curve_measure DIALECT N P: one point; appends its row to ROWS_FILE.
curve_measure() {
    local dialect=$1 n=$2 touched=$3 prefix key rounds tap limit ceiling reference
    prefix=$(curve_prefix "$n" "$touched")
    key=$dialect:$prefix
    rounds=$(curve_rounds "$n")
    "${dialect}_quiesce"
    log "$dialect: measuring $n events over $touched% of the table, $rounds rounds"
    tap=$(tap_runner "$dialect" "$prefix" 1)
    measure "$dialect" "warm-$dialect-$prefix" bash "$tap"
    tap_summary "$key" "$WORK/warm-$dialect-$prefix.err"
    limit=$(curve_limit_runner "$dialect" "$prefix")
    ceiling=$(curve_ceiling_runner "$dialect" "$prefix")
    reference=$(reference_runner "$dialect" "$prefix" 1)
    take_turns "$rounds" "$dialect" "$key" tap="$tap" reference="$reference" limit="$limit" \
        ceiling="$ceiling"
    local tap_wall rss rss_max export_ratio limit_ratio ceiling_ratio
    tap_wall=$(printf '%s' "${RESULT[$key:tap_walls]}" | median)
    rss=$(curve_rss_mib "tap-${key//:/-}" "$rounds" | median)
    rss_max=$(curve_rss_mib "tap-${key//:/-}" "$rounds" | sort -g | tail -n 1)
    export_ratio=$(turn_ratios "$key" reference tap | spread_cell)
    limit_ratio=$(turn_ratios "$key" limit tap | spread_cell)
    ceiling_ratio=$(turn_ratios "$key" reference ceiling | spread_cell)
    local head
    head=$(printf '| %s | %s | %s%% |' "$(dialect_name "$dialect")" "$(group "$n")" "$touched")
    # A point measured again replaces its row.
    curve_forget "$ROWS_FILE" "$head"
    curve_forget "$WORK/curve-points.dat" "$dialect $touched $n "
    printf '%s %s | %s | %s | %s | %s | %s | %s | %s | %s MiB | %s MiB |\n' "$head" \
        "$(group "$((TABLE_ROWS * touched / 100))")" "$(group "${RESULT[$key:records]}")" "$rounds" \
        "$(group "$(calc "$n / $tap_wall")")" "$(group "$(calc "${RESULT[$key:records]} / $tap_wall")")" \
        "$export_ratio" "$ceiling_ratio" "$limit_ratio" "$(fmt %.1f "$rss")" "$(fmt %.1f "$rss_max")" \
        >>"$ROWS_FILE"
    printf '%s %s %s %s %s\n' "$dialect" "$touched" "$n" "$(calc "$n / $tap_wall")" "$rss" >>"$WORK/curve-points.dat"
    log "  $(tail -n 1 "$ROWS_FILE")"
    curve_forget "$CPU_FILE" "$head"
    curve_cpu_row "$key" "$head" >>"$CPU_FILE"
}

# curve_cpu_row KEY HEAD: the CPU the fastest tap run and the fastest export took, the tap's
# own and its server's, and the share of the machine's two cores each kept busy. Where the
# other work on the machine leaves less than both cores, the wall time follows the CPU. Then
# the fastest ceiling's client and server CPU, and the bound its server CPU alone sets: the
# export's wall ÷ that CPU spread over every core, a ceiling no client, however lean, lifts.
curve_cpu_row() {
    local key=$1 tap_total export_total cores
    cores=$(nproc)
    tap_total=$(calc "${RESULT[$key:tap_cpu]} + ${RESULT[$key:tap_server_cpu]}")
    export_total=$(calc "${RESULT[$key:reference_cpu]} + ${RESULT[$key:reference_server_cpu]}")
    printf '%s %s s | %s s | %.0f%% | %s s | %s s | %.0f%% | %s | %s s | %s s | %s |\n' "$2" \
        "$(fmt %.2f "${RESULT[$key:tap_cpu]}")" "$(fmt %.2f "${RESULT[$key:tap_server_cpu]}")" \
        "$(calc "100 * $tap_total / ${RESULT[$key:tap_wall]}")" \
        "$(fmt %.2f "${RESULT[$key:reference_cpu]}")" "$(fmt %.2f "${RESULT[$key:reference_server_cpu]}")" \
        "$(calc "100 * $export_total / ${RESULT[$key:reference_wall]}")" \
        "$(fmt %.2f "$(calc "$tap_total / $export_total")")" \
        "$(fmt %.2f "${RESULT[$key:ceiling_cpu]}")" "$(fmt %.2f "${RESULT[$key:ceiling_server_cpu]}")" \
        "$(fmt %.2f "$(calc "${RESULT[$key:reference_wall]} * $cores / ${RESULT[$key:ceiling_server_cpu]}")")"
}

# curve_forget FILE START: FILE without its lines that begin with START.
curve_forget() {
    [[ -f $1 ]] || return 0
    awk -v start="$2" 'index($0, start) != 1' "$1" >"$1.new"
    mv "$1.new" "$1"
}

curve_report() {
    [[ -s $ROWS_FILE ]] || die "no point measured yet ($ROWS_FILE)"
    printf '| database | events | touched | rows touched | records | rounds | tap events/s | tap records/s | tap ÷ export | ceiling ÷ export | tap ÷ limit | tap peak RSS, median | highest |\n'
    printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
    cat "$ROWS_FILE"
    if [[ -s $CPU_FILE ]]; then
        printf '\nCPU of the fastest tap run, export and ceiling of each point (100%% is one core):\n\n'
        printf '| database | events | touched | tap CPU | server CPU during the tap | cores busy | export client CPU | server CPU during the export | cores busy | CPU, tap ÷ export | ceiling client CPU | server CPU during the ceiling | its server CPU alone ÷ export |\n'
        printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
        cat "$CPU_FILE"
    fi
    curve_plot
}

# curve_plot: events/s and peak RSS against events, one line per database and touched share.
curve_plot() {
    local dialect touched series=() rss=() data
    for dialect in pg my; do
        for touched in $TOUCHED; do
            data=$WORK/curve-$dialect-$touched.dat
            awk -v d="$dialect" -v t="$touched" '$1 == d && $2 == t { print $3, $4, $5 }' \
                "$WORK/curve-points.dat" | sort -g >"$data"
            [[ -s $data ]] || continue
            series+=("'$data' using 1:2 with linespoints title '$(dialect_name "$dialect") $touched%'")
            rss+=("'$data' using 1:3 with linespoints title '$(dialect_name "$dialect") $touched%'")
        done
    done
    gnuplot <<GNUPLOT
set terminal svg size 960,420 dynamic font 'sans,11' background rgb 'white'
set output '$PLOT'
set multiplot layout 1,2
set logscale x
set format x '%.0s%c'
set xlabel 'events in the backlog'
set key bottom left font ',9'
set grid
set ylabel 'tap events/s'
set yrange [0:*]
plot $(join_by ', ' "${series[@]}")
set ylabel 'tap peak RSS, MiB (median of the rounds)'
set yrange [0:80]
set key bottom right font ',9'
plot $(join_by ', ' "${rss[@]}"), 64 with lines dashtype 2 lc rgb 'gray' title '64 MiB'
unset multiplot
GNUPLOT
    log "plot: $PLOT"
}

build_tap() {
    if [[ -n $TAP ]]; then
        [[ -x $TAP ]] || die "--tap $TAP is not an executable"
        return 0
    fi
    if [[ ! -f $BUILD_DIR/CMakeCache.txt ]]; then
        cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log" 2>&1 ||
            die "cmake failed; see $WORK/cmake.log"
    fi
    log "building the tap and its drivers"
    cmake --build "$BUILD_DIR" -j2 --target tap-diffgen tap-diffgen-dialect-postgres \
        tap-diffgen-dialect-mysql >"$WORK/build.log" 2>&1 || die "build failed; see $WORK/build.log"
    TAP=$BUILD_DIR/bin/tap-diffgen
}

main() {
    local started dialect n touched
    started=$(tdg_now)
    mkdir -p "$WORK"
    if ((REPORT_ONLY)); then
        curve_report
        return 0
    fi
    for dialect in "${DIALECTS[@]}"; do
        if [[ $dialect == pg ]]; then
            bash "$ROOT/tests/servers/postgres.sh" start
        else
            bash "$ROOT/tests/servers/mariadb.sh" start
        fi
    done
    build_tap
    grow_buffer_pool
    grow_shared_buffers
    curve_prepare_all
    ((!PREPARE_ONLY)) || return 0
    check_quiet
    log "cost curve: load average before measuring $LOAD_BEFORE"
    # Every size on both databases before the next size, and each share on both before the
    # next share: a run cut short has whole sizes, and both databases at its last one.
    for n in $EVENT_COUNTS; do
        for touched in $TOUCHED; do
            for dialect in "${DIALECTS[@]}"; do curve_measure "$dialect" "$n" "$touched"; done
        done
    done
    curve_report
    log "done in $(tdg_elapsed "$started") s"
}

main
