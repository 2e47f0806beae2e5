# shellcheck shell=bash
# The workload: T journalled tables of 10 mixed columns and a backlog of N diffgen events,
# built server-side and the same in both databases (md5 draws, no random()).
#
# Event number s (1..N) belongs to page (s-1) / 10000. md5("<seed>:<s>") decides its kind
# (30% insert, 20% repeat, 40% update, 10% delete) and its table. Keys per table:
#   1..U         rows that exist from the start; updates pick distinct ones within a page,
#                scattered over the table (multiplied by 2654435761, a prime, modulo U)
#   U+1..U+D     rows that exist from the start; each delete removes one of them
#   U+N+1...     new rows, one per insert
# A repeat updates a row an earlier insert or update of the same page and table touched, so
# about 20% of the events hit a key already touched in their page. U = max(20000, N/T) keeps
# the tables large enough for the reference export of as many rows as the tap emits.
#
# The backlog is played page by page through the documented triggers: per page, statements
# per table and round (round r holds each key's r-th event of the page), so every event
# writes exactly one diffgen row and page p holds diffgen ids p*10000+1 .. (p+1)*10000.
# A finished workload is kept (table <prefix>_meta holds its fingerprint) and reused.

readonly WORKLOAD_PAGE=10000
readonly WORKLOAD_COLUMNS=(id qty amount active note code due changed_at doc prio)

# workload_prefix N T -> the name prefix of that workload's tables (with the rows the updates
# pick from, when --update-keys sets them).
workload_prefix() { printf 'bench_%sx%s%s' "$1" "$2" "${UPDATE_KEYS:+u$UPDATE_KEYS}"; }

# workload_tables PREFIX T -> the journalled tables, one a line. WORKLOAD_SHARED_TABLES, when
# set, names the tables' prefix instead: the cost curve's journals all point at one table.
workload_tables() {
    local t
    for ((t = 1; t <= $2; t++)); do printf '%s_t%02d\n' "${WORKLOAD_SHARED_TABLES:-$1}" "$t"; done
}

workload_update_keys() {
    local n=$1 tables=$2 u
    if [[ -n ${UPDATE_KEYS:-} ]]; then
        printf '%s' "$UPDATE_KEYS"
        return 0
    fi
    u=$(((n + tables - 1) / tables))
    ((u >= 20000)) || u=20000
    printf '%s' "$u"
}

workload_sql_file() { [[ $1 == pg ]] && printf postgres.sql || printf mysql.sql; }

# The documented diffgen SQL with every diffgen* object renamed PREFIX_diffgen*, as the
# end-to-end tests do (tests/e2e/dialect_fixture.cpp).
workload_diffgen_sql() {
    sed -E "s/\\bdiffgen(\\w*)/$2_diffgen\\1/g" "$ROOT/packaging/diffgen/$(workload_sql_file "$1")"
}

# workload_setup_sql DIALECT PREFIX N T: the journal, the plan, and the tables with their first
# rows and their triggers.
workload_setup_sql() {
    local dialect=$1 p=$2 n=$3 tables=$4 u t
    u=$(workload_update_keys "$n" "$tables")
    workload_diffgen_sql "$dialect" "$p"
    workload_plan_sql "$dialect" "$p" "$n" "$tables"
    for ((t = 1; t <= tables; t++)); do
        "${dialect}_table_sql" "$p" "$t" "$u" "$n"
    done
}

# A workload is reused only when everything that decides its contents is the same: the SQL
# that builds it and the statements that play the events.
workload_fingerprint() {
    local dialect=$1 n=$2 tables=$3 p
    p=$(workload_prefix "$n" "$tables")
    {
        workload_setup_sql "$dialect" "$p" "$n" "$tables"
        printf '0 1 1 %s\n' i u d | workload_apply_statements "$dialect" "$p"
    } | md5sum | cut -c1-32
}

# workload_prepare DIALECT N T: builds the workload unless an identical one is there.
workload_prepare() {
    local dialect=$1 n=$2 tables=$3 p fingerprint started
    p=$(workload_prefix "$n" "$tables")
    fingerprint=$(workload_fingerprint "$dialect" "$n" "$tables")
    if ((!FRESH)) && [[ $("${dialect}_workload_fingerprint" "$p") == "$fingerprint" ]]; then
        log "$dialect: workload $p is ready"
        return 0
    fi
    started=$(tdg_now)
    log "$dialect: building workload $p ($n events, $tables tables)"
    "${dialect}_workload_drop" "$p"
    workload_setup_sql "$dialect" "$p" "$n" "$tables" | "${dialect}_sql" >/dev/null
    log "$dialect: $p: planned, tables filled: $(tdg_elapsed "$started") s"
    "${dialect}_value" "SELECT DISTINCT page, tbl, rnd, op FROM ${p}_plan ORDER BY page, rnd, tbl, op" |
        workload_apply_statements "$dialect" "$p" | "${dialect}_sql"
    log "$dialect: $p: events played: $(tdg_elapsed "$started") s"
    "${dialect}_workload_check" "$p" "$n"
    "${dialect}_workload_finish" "$p" "$fingerprint"
    log "$dialect: workload $p built in $(tdg_elapsed "$started") s"
}

# workload_apply_statements DIALECT PREFIX: reads "page tbl round op" lines (in the order to
# run them) and writes the DML that plays them.
workload_apply_statements() {
    local dialect=$1 prefix=$2 page tbl round op table where values=() assignments i
    mapfile -t values < <("${dialect}_row_values" p.k p.seq)
    while read -r page tbl round op; do
        printf -v table '%s_t%02d' "$prefix" "$tbl"
        where="p.page = $page AND p.tbl = $tbl AND p.rnd = $round AND p.op = '$op'"
        case $dialect:$op in
            *:i)
                printf 'INSERT INTO %s (%s) SELECT p.k, %s FROM %s_plan p WHERE %s ORDER BY p.seq;\n' \
                    "$table" "$(join_by ', ' "${WORKLOAD_COLUMNS[@]}")" \
                    "$(join_by ', ' "${values[@]}")" "$prefix" "$where"
                ;;
            pg:u)
                printf 'UPDATE %s x SET (%s) = (%s) FROM %s_plan p WHERE %s AND x.id = p.k;\n' \
                    "$table" "$(join_by ', ' "${WORKLOAD_COLUMNS[@]:1}")" \
                    "$(join_by ', ' "${values[@]}")" "$prefix" "$where"
                ;;
            my:u)
                assignments=()
                for ((i = 0; i < ${#values[@]}; i++)); do
                    assignments+=("x.${WORKLOAD_COLUMNS[i + 1]} = ${values[i]}")
                done
                printf 'UPDATE %s x JOIN %s_plan p ON x.id = p.k SET %s WHERE %s;\n' \
                    "$table" "$prefix" "$(join_by ', ' "${assignments[@]}")" "$where"
                ;;
            pg:d)
                printf 'DELETE FROM %s x USING %s_plan p WHERE %s AND x.id = p.k;\n' \
                    "$table" "$prefix" "$where"
                ;;
            my:d)
                printf 'DELETE x FROM %s x JOIN %s_plan p ON x.id = p.k WHERE %s;\n' \
                    "$table" "$prefix" "$where"
                ;;
        esac
    done
}

# ---------------------------------------------------------------------------------------------
# Column values: a pure function of the key K and a version V (the event number; 0 for the
# rows that exist from the start), one SQL expression a line for qty..prio. Both dialects
# produce the same text for every column.

pg_row_values() {
    local k=$1 v=$2
    cat <<SQL
$k::int8 * 1000003 + $v
(($k::int8 * 37 + $v) % 100000000)::numeric / 10000
($k + $v) % 3 = 0
'n' || $k || ':' || md5($k || ':' || $v)
'C-' || (($k::int8 * 7 + $v) % 1000000)
date '2020-01-01' + (($k + $v) % 3000)::int
timestamptz '2020-01-01 00:00:00+00' + (($k::int8 * 7919 + $v) % 157680000) * interval '1 second' + (($k + $v) % 1000000) * interval '1 microsecond'
jsonb_build_object('k', $k, 'v', $v, 'tag', substr(md5($v || ':' || $k), 1, 18), 'grp', ($k + $v) % 100)
(($k + $v) % 32000)::int2
SQL
}

my_row_values() {
    local k=$1 v=$2
    cat <<SQL
$k * 1000003 + $v
(($k * 37 + $v) % 100000000) / 10000
($k + $v) % 3 = 0
CONCAT('n', $k, ':', MD5(CONCAT($k, ':', $v)))
CONCAT('C-', ($k * 7 + $v) % 1000000)
DATE '2020-01-01' + INTERVAL (($k + $v) % 3000) DAY
TIMESTAMP '2020-01-01 00:00:00' + INTERVAL (($k * 7919 + $v) % 157680000) SECOND + INTERVAL (($k + $v) % 1000000) MICROSECOND
JSON_OBJECT('k', $k, 'v', $v, 'tag', SUBSTR(MD5(CONCAT($v, ':', $k)), 1, 18), 'grp', ($k + $v) % 100)
($k + $v) % 32000
SQL
}

# ---------------------------------------------------------------------------------------------
# The plan: one row per event (seq, page, tbl, op, k, rnd). The SQL of both dialects is the
# same but for the md5 digit extraction and the sequence source.

# md5_digits DIALECT POSITION -> the 7 hex digits of md5 text h at POSITION, as an integer.
md5_digits() {
    if [[ $1 == pg ]]; then
        printf "('x' || substr(h, %s, 7))::bit(28)::int" "$2"
    else
        printf "CAST(CONV(SUBSTR(h, %s, 7), 16, 10) AS UNSIGNED)" "$2"
    fi
}

# workload_plan_sql DIALECT PREFIX N T
workload_plan_sql() {
    local dialect=$1 p=$2 n=$3 tables=$4 u series div unlogged="" analyze="ANALYZE TABLE"
    u=$(workload_update_keys "$n" "$tables")
    if [[ $dialect == pg ]]; then
        # The plan is scratch: no WAL for it. Without statistics the planner joins the plan
        # to itself by nested loops.
        unlogged=UNLOGGED analyze=ANALYZE
        series="generate_series(1::int8, $n) AS g(seq)"
        div=/
    else
        series="seq_1_to_$n"
        div=DIV
    fi
    cat <<SQL
CREATE $unlogged TABLE ${p}_plan0 AS
SELECT seq, page, tbl, cls, pick,
       COALESCE(SUM(CASE WHEN cls IN ('i', 'u') THEN 1 ELSE 0 END) OVER earlier, 0) AS seen
  FROM (SELECT seq, page,
               CASE WHEN d < 300 THEN 'i' WHEN d < 500 THEN 'r' WHEN d < 900 THEN 'u' ELSE 'd' END AS cls,
               $(md5_digits "$dialect" 8) % $tables + 1 AS tbl,
               $(md5_digits "$dialect" 15) AS pick
          FROM (SELECT seq, (seq - 1) $div $WORKLOAD_PAGE AS page, h, $(md5_digits "$dialect" 1) % 1000 AS d
                  FROM (SELECT seq, MD5(CONCAT('$SEED', ':', seq)) AS h FROM $series) AS drawn) AS classed) AS c
WINDOW earlier AS (PARTITION BY page, tbl ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING);
$analyze ${p}_plan0;

CREATE $unlogged TABLE ${p}_plan1 AS
SELECT seq, page, tbl, kind,
       CASE WHEN kind = 'r' THEN pick % seen + 1 END AS target_pick,
       CASE WHEN cls IN ('i', 'u')
            THEN ROW_NUMBER() OVER (PARTITION BY page, tbl, CASE WHEN cls IN ('i', 'u') THEN 1 ELSE 0 END ORDER BY seq)
       END AS target_no,
       CASE kind
            WHEN 'i' THEN $u + $n + ROW_NUMBER() OVER (PARTITION BY tbl, kind ORDER BY seq)
            WHEN 'd' THEN $u + ROW_NUMBER() OVER (PARTITION BY tbl, kind ORDER BY seq)
            WHEN 'u' THEN 1 + ((page * 1009 + ROW_NUMBER() OVER (PARTITION BY page, tbl, kind ORDER BY seq)) * 2654435761) % $u
       END AS k
  FROM (SELECT seq, page, tbl, cls, pick, seen,
               CASE WHEN cls = 'r' AND seen = 0 THEN 'u' ELSE cls END AS kind
          FROM ${p}_plan0) AS kinds;
CREATE INDEX ${p}_plan1_target ON ${p}_plan1 (page, tbl, target_no);
$analyze ${p}_plan1;

CREATE $unlogged TABLE ${p}_plan AS
SELECT seq, page, tbl, op, k, ROW_NUMBER() OVER (PARTITION BY page, tbl, k ORDER BY seq) AS rnd
  FROM (SELECT e.seq, e.page, e.tbl, CASE e.kind WHEN 'r' THEN 'u' ELSE e.kind END AS op,
               COALESCE(t.k, e.k) AS k
          FROM ${p}_plan1 e
          LEFT JOIN ${p}_plan1 t
            ON t.page = e.page AND t.tbl = e.tbl AND t.target_no = e.target_pick) AS resolved;
CREATE INDEX ${p}_plan_step ON ${p}_plan (page, tbl, rnd, op);
$analyze ${p}_plan;
SQL
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL

pg_workload_fingerprint() {
    pg_value "SELECT fingerprint FROM $1_meta" 2>/dev/null || true
}

pg_workload_drop() {
    pg_sql <<SQL
SELECT format('DROP TABLE IF EXISTS %I CASCADE', tablename) FROM pg_tables
 WHERE schemaname = current_schema() AND tablename LIKE '$(like_prefix "$1")%'\\gexec
SELECT format('DROP FUNCTION IF EXISTS %I() CASCADE', proname) FROM pg_proc
 WHERE pronamespace = current_schema()::regnamespace AND proname LIKE '$(like_prefix "$1")%'\\gexec
SQL
}

# like_prefix PREFIX -> PREFIX followed by `_`, escaped for LIKE.
like_prefix() { printf '%s\\_' "${1//_/\\_}"; }

# pg_table_sql PREFIX T U N: journalled table number T, filled with keys 1..U and the keys
# its deletes will remove.
pg_table_sql() {
    local p=$1 t=$2 u=$3 table values=()
    printf -v table '%s_t%02d' "$p" "$t"
    mapfile -t values < <(pg_row_values g 0)
    pg_table_create_sql "$table"
    cat <<SQL
INSERT INTO $table SELECT g, $(join_by ', ' "${values[@]}")
  FROM generate_series(1, $u + (SELECT count(*) FROM ${p}_plan WHERE tbl = $t AND op = 'd')) AS g;
SQL
    pg_table_trigger_sql "$p" "$table"
}

# pg_table_create_sql TABLE / pg_table_trigger_sql PREFIX TABLE: a workload table, empty, and
# its diffgen trigger.
pg_table_create_sql() {
    cat <<SQL
CREATE TABLE $1 (
    id         integer PRIMARY KEY,
    qty        bigint NOT NULL,
    amount     numeric(12,4) NOT NULL,
    active     boolean NOT NULL,
    note       text NOT NULL,
    code       varchar(16) NOT NULL,
    due        date NOT NULL,
    changed_at timestamptz NOT NULL,
    doc        jsonb NOT NULL,
    prio       smallint NOT NULL
);
SQL
}
pg_table_trigger_sql() {
    printf "SELECT %s_diffgen_attach('%s', 'id');\n" "$1" "$2"
}

pg_workload_check() {
    local p=$1 n=$2 summary
    summary=$(pg_value "SELECT count(*) || ' ' || coalesce(max(id), 0) || ' ' ||
        (SELECT round(100.0 * count(*) FILTER (WHERE rnd > 1) / count(*), 1) FROM ${p}_plan) || ' ' ||
        (SELECT string_agg(op || '=' || c, ' ' ORDER BY op) FROM
            (SELECT op, count(*) AS c FROM ${p}_diffgen GROUP BY op) s)
        FROM ${p}_diffgen")
    workload_check_summary pg "$p" "$n" "$summary"
}

pg_workload_finish() {
    local p=$1 fingerprint=$2
    pg_sql <<SQL
DROP TABLE ${p}_plan0, ${p}_plan1, ${p}_plan;
SELECT format('VACUUM (ANALYZE) %I', tablename) FROM pg_tables
 WHERE schemaname = current_schema() AND tablename LIKE '$(like_prefix "$p")%'\\gexec
CREATE TABLE ${p}_meta (fingerprint text NOT NULL);
INSERT INTO ${p}_meta VALUES ('$fingerprint');
SQL
    # The load's dirty pages would otherwise be written during the measurements.
    pg_admin -c CHECKPOINT
}

# ---------------------------------------------------------------------------------------------
# MariaDB

my_workload_fingerprint() {
    my_value "SELECT fingerprint FROM $1_meta" 2>/dev/null || true
}

my_workload_drop() {
    my_value "SELECT CONCAT('DROP TABLE IF EXISTS \`', table_name, '\`;') FROM information_schema.tables
               WHERE table_schema = DATABASE() AND table_name LIKE '$(like_prefix "$1")%'" |
        my_sql
}

# my_table_sql PREFIX T U N: as pg_table_sql, with the shipped MySQL triggers.
my_table_sql() {
    local p=$1 t=$2 u=$3 n=$4 table values=()
    printf -v table '%s_t%02d' "$p" "$t"
    mapfile -t values < <(my_row_values seq 0)
    my_table_create_sql "$table"
    cat <<SQL
INSERT INTO $table SELECT seq, $(join_by ', ' "${values[@]}") FROM seq_1_to_$((u + n))
 WHERE seq <= $u + (SELECT COUNT(*) FROM ${p}_plan WHERE tbl = $t AND op = 'd');
SQL
    my_table_trigger_sql "$p" "$table"
}

my_table_create_sql() {
    cat <<SQL
CREATE TABLE $1 (
    id         INT NOT NULL PRIMARY KEY,
    qty        BIGINT NOT NULL,
    amount     DECIMAL(12,4) NOT NULL,
    active     BOOLEAN NOT NULL,
    note       TEXT NOT NULL,
    code       VARCHAR(16) NOT NULL,
    due        DATE NOT NULL,
    changed_at DATETIME(6) NOT NULL,
    doc        JSON NOT NULL,
    prio       SMALLINT NOT NULL
);
SQL
}

# workload_filled_table_sql DIALECT TABLE ROWS: a workload table holding keys 1 … ROWS, every
# row at version 0, in one INSERT … SELECT over the database's own number series.
workload_filled_table_sql() {
    local dialect=$1 table=$2 rows=$3 values=() series
    "${dialect}_table_create_sql" "$table"
    mapfile -t values < <("${dialect}_row_values" seq 0)
    if [[ $dialect == pg ]]; then
        series="generate_series(1, $rows) AS g(seq)"
    else
        series="seq_1_to_$rows"
    fi
    printf 'INSERT INTO %s SELECT seq, %s FROM %s;\n' "$table" "$(join_by ', ' "${values[@]}")" "$series"
}
my_table_trigger_sql() {
    printf "CALL %s_diffgen_attach('%s');\n" "$1" "$2"
}

my_workload_check() {
    local p=$1 n=$2 summary
    summary=$(my_value "SELECT CONCAT_WS(' ', COUNT(*), COALESCE(MAX(id), 0),
        (SELECT ROUND(100.0 * SUM(rnd > 1) / COUNT(*), 1) FROM ${p}_plan),
        (SELECT GROUP_CONCAT(CONCAT(op, '=', c) ORDER BY op SEPARATOR ' ') FROM
            (SELECT op, COUNT(*) AS c FROM ${p}_diffgen GROUP BY op) s))
        FROM ${p}_diffgen")
    workload_check_summary my "$p" "$n" "$summary"
}

my_workload_finish() {
    local p=$1 fingerprint=$2 table
    my_sql -e "DROP TABLE ${p}_plan0, ${p}_plan1, ${p}_plan"
    while read -r table; do
        my_sql --silent -e "ANALYZE TABLE $table" >/dev/null
    done < <(my_value "SELECT table_name FROM information_schema.tables
                        WHERE table_schema = DATABASE() AND table_name LIKE '$(like_prefix "$p")%'")
    my_sql -e "CREATE TABLE ${p}_meta (fingerprint VARCHAR(64) NOT NULL);
               INSERT INTO ${p}_meta VALUES ('$fingerprint')"
}

# workload_check_summary DIALECT PREFIX N "count max_id repeat% op=count...": every event must
# have written exactly one diffgen row, with ids 1..N, or the pages are not the planned ones.
workload_check_summary() {
    local dialect=$1 p=$2 n=$3 count max repeat ops
    read -r count max repeat ops <<<"$4"
    log "$dialect: $p: $count diffgen rows ($ops), $repeat% of events hit a key already touched in their page"
    [[ $count == "$n" && $max == "$n" ]] ||
        die "$dialect: $p: expected diffgen ids 1..$n, found $count rows up to id $max"
}
