# shellcheck shell=bash
# The limit for this job: the page reads and key fetches the tap makes, sent by the database's
# own client, with nothing done to the rows but writing them to /dev/null. The page boundaries
# and the keys to fetch come from the diffgen table itself: pages are chunks of ids in id order,
# sized as the tap sizes them (limit_page_sizes), and a page re-pulls every key whose latest
# event in the page is an insert or an update. When the last page is full, the tap asks for one
# more (empty) page, and so does the limit.
#
# Two forms of the same reads:
#   client  the fastest form the client has: psql `COPY (SELECT … WHERE id = ANY ('{…}')) TO
#           STDOUT` (text rows, no per-row protocol messages), `mariadb --quick` text queries;
#           the plain page read (the journal's columns, no casts, no horizon mark) and one fetch
#           per table and page with all its keys, on MariaDB all of a page's fetches in one
#           multi-statement query. This is *the limit*.
#   tap     the statements the tap sends (plugins/*/diffgen.cpp) with their parameters written
#           in, the fetches as the drivers batch them: PostgreSQL one `= ANY (array)` per table
#           and page, MariaDB `IN (...)` lists of at most 4096 keys, a page's lists in one
#           multi-statement query; sent by the same clients.
readonly LIMIT_INT64_MAX=9223372036854775807

# limit_page_sizes T -> "FIRST NEXT": the tap's first page holds page_size events, and every
# page after a full one three times page_size, or 625 events of each of the T tables up to four
# times page_size (core/src/replay/scan/page_sizer.hpp, max_page_size at its default).
limit_page_sizes() {
    local next=$((625 * $1))
    ((next >= 3 * WORKLOAD_PAGE)) || next=$((3 * WORKLOAD_PAGE))
    ((next <= 4 * WORKLOAD_PAGE)) || next=$((4 * WORKLOAD_PAGE))
    printf '%s %s' "$WORKLOAD_PAGE" "$next"
}

# The drivers' page statements as the tap sends them for this workload: its pages have no gap
# and no other table's rows, so the plain read (events and horizon mark, no range count)
# serves every page (sdk::GaplessPageReader).

# pg_page_sql PREFIX NAMES -> the PostgreSQL driver's plain page statement on one line,
# @after@ standing for the bookmark; NAMES is an array literal such as {a,b}.
pg_page_sql() {
    local diffgen="\"$1_diffgen\"" xmax='pg_catalog.pg_snapshot_xmax(s)::text::int8'
    tr -s ' \n' ' ' <<SQL
SELECT page.*, NULL::int8,
       (SELECT ($xmax + pg_catalog.age(($xmax % 4294967296)::text::xid))::text
          FROM pg_catalog.pg_current_snapshot() s)
  FROM (SELECT "id"::int8 AS id, "tablename"::text AS tablename,
               "table_id"::text AS table_id, "op"::text AS op, "ts_created"::timestamptz AS ts_created
          FROM $diffgen
         WHERE "id" > @after@::int8 AND "id" <= $LIMIT_INT64_MAX::int8
           AND "tablename" = ANY ('$2'::text[])
         ORDER BY "id" LIMIT @limit@::int8) AS page
SQL
}

# my_page_sql PREFIX NAMES -> the MySQL driver's plain page statement on one line; NAMES is a
# list of quoted names such as 'a', 'b'.
my_page_sql() {
    local diffgen="\`$1_diffgen\`"
    tr -s ' \n' ' ' <<SQL
SELECT \`id\`, \`tablename\`, CAST(\`table_id\` AS CHAR) AS table_id, \`op\`, \`ts_created\`,
       NULL, \`clock\`.\`micros\`
  FROM $diffgen AS \`log\`
       CROSS JOIN (SELECT CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED) AS \`micros\`) AS \`clock\`
 WHERE \`id\` > @after@ AND \`id\` <= $LIMIT_INT64_MAX
   AND CAST(CONVERT(\`tablename\` USING utf8mb4) AS BINARY) IN ($2)
 ORDER BY \`id\` LIMIT @limit@
SQL
}

# pg_client_page_sql PREFIX NAMES / my_client_page_sql PREFIX NAMES -> the same page read in
# its plainest form.
pg_client_page_sql() {
    printf 'SELECT id, tablename, table_id, op, ts_created FROM %s_diffgen' "$1"
    printf " WHERE id > @after@ AND tablename = ANY ('%s') ORDER BY id LIMIT @limit@" "$2"
}
# MariaDB would read the plain filter through the journal's (tablename, id) index as a `ref` on
# the name, walking every entry of the table from the log's start up to the page for every
# page (EXPLAIN: ref, "Using index condition"): a quadratic scan, 101 s for the 10,000,000
# events where the tap took 15 s. The page is a range of the primary key, as the tap reads it.
my_client_page_sql() {
    printf 'SELECT id, tablename, table_id, op, ts_created FROM %s_diffgen FORCE INDEX (PRIMARY)' "$1"
    printf ' WHERE id > @after@ AND tablename IN (%s) ORDER BY id LIMIT @limit@' "$2"
}

# pg_limit_statements FORM PREFIX T -> "step<TAB>statement" lines in the tap's order; step 0
# reads a page, step 1 fetches keys.
pg_limit_statements() {
    local form=$1 prefix=$2 tables=$3 names page_sql key_type='' first next
    names="{$(workload_tables "$prefix" "$tables" | paste -sd,)}"
    read -r first next <<<"$(limit_page_sizes "$tables")"
    if [[ $form == tap ]]; then
        page_sql=$(pg_page_sql "$prefix" "$names") key_type='::int4[]'
    else
        page_sql=$(pg_client_page_sql "$prefix" "$names")
    fi
    pg_sql -At -F $'\t' -v "page_sql=COPY ($page_sql) TO STDOUT;" \
        -v "names=$names" -v "cols=$(join_by ', ' "${WORKLOAD_COLUMNS[@]}")" <<SQL
WITH ev AS (
    SELECT id, tablename, table_id, op,
           CASE WHEN rn < $first THEN 0 ELSE 1 + (rn - $first) / $next END AS page
      FROM (SELECT *, row_number() OVER (ORDER BY id) - 1 AS rn
              FROM ${prefix}_diffgen WHERE tablename = ANY (:'names'::text[])) AS numbered
), bounds AS (
    SELECT page, max(id) AS last_id, count(*) AS events FROM ev GROUP BY page
), pages AS (
    SELECT page, coalesce(lag(last_id) OVER (ORDER BY page), 0) AS after_id, last_id, events,
           CASE WHEN page = 0 THEN $first ELSE $next END AS size
      FROM bounds
), latest AS (
    SELECT DISTINCT ON (page, tablename, table_id) page, tablename, table_id, op
      FROM ev ORDER BY page, tablename, table_id, id DESC
), fetches AS (
    SELECT page, tablename, string_agg(table_id, ',') AS keys
      FROM latest WHERE op IN ('i', 'u') GROUP BY page, tablename
)
SELECT step, sql FROM (
    SELECT page, 0 AS step, '' AS tablename,
           replace(replace(:'page_sql', '@after@', after_id::text), '@limit@', size::text) AS sql
      FROM pages
    UNION ALL
    SELECT page + 1, 0, '', replace(replace(:'page_sql', '@after@', last_id::text), '@limit@', '$next')
      FROM pages WHERE page = (SELECT max(page) FROM pages) AND events = size
    UNION ALL
    SELECT page, 1, tablename,
           format('COPY (SELECT %s FROM %I WHERE id = ANY (''{%s}''$key_type)) TO STDOUT;',
                  :'cols', tablename, keys)
      FROM fetches
) AS s ORDER BY page, step, tablename;
SQL
}

my_limit_statements() {
    local form=$1 prefix=$2 tables=$3 names page_sql chunk=4096 first next
    names=$(workload_tables "$prefix" "$tables" | sed "s/.*/'&'/" | paste -sd, | sed 's/,/, /g')
    read -r first next <<<"$(limit_page_sizes "$tables")"
    if [[ $form == tap ]]; then
        page_sql="$(my_page_sql "$prefix" "$names");"
    else
        page_sql="$(my_client_page_sql "$prefix" "$names");" chunk=$LIMIT_INT64_MAX
    fi
    page_sql=${page_sql//\'/\'\'}
    # Each page's latest event per key comes from one GROUP BY into a scratch table (Aria: no
    # InnoDB undo or flushing left behind for the measurements). The default 16 MiB for
    # in-memory temporary tables would send the grouping to disk, five times slower.
    my_value "
SET SESSION group_concat_max_len = 1073741824;
SET SESSION tmp_table_size = 1073741824, max_heap_table_size = 1073741824;
SET @page_sql = '$page_sql';
DROP TABLE IF EXISTS ${prefix}_limit_keys;
CREATE TABLE ${prefix}_limit_keys ENGINE=Aria AS
SELECT page, tbl, k, COUNT(*) AS events, MAX(id) AS last_id,
       SUBSTRING(MAX(CONCAT(LPAD(id, 20, '0'), op)), 21) AS op
  FROM (SELECT id, FIELD(tablename, $names) AS tbl, CAST(table_id AS SIGNED) AS k, op,
               CASE WHEN rn < $first THEN 0 ELSE 1 + (rn - $first) DIV $next END AS page
          FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY id) - 1 AS rn
                  FROM ${prefix}_diffgen WHERE tablename IN ($names)) AS numbered) AS ev
 GROUP BY page, tbl, k;
WITH bounds AS (
    SELECT page, MAX(last_id) AS last_id, SUM(events) AS events
      FROM ${prefix}_limit_keys GROUP BY page
), pages AS (
    SELECT page, COALESCE(LAG(last_id) OVER (ORDER BY page), 0) AS after_id, last_id, events,
           IF(page = 0, $first, $next) AS size
      FROM bounds
), chunked AS (
    SELECT page, tbl, k, (ROW_NUMBER() OVER (PARTITION BY page, tbl ORDER BY k) - 1) DIV $chunk AS chunk
      FROM ${prefix}_limit_keys WHERE op IN ('i', 'u')
), fetches AS (
    SELECT page, tbl, chunk, GROUP_CONCAT(k ORDER BY k SEPARATOR ',') AS id_list
      FROM chunked GROUP BY page, tbl, chunk
)
SELECT step, statement FROM (
    SELECT page, 0 AS step, 0 AS tbl, 0 AS chunk,
           REPLACE(REPLACE(@page_sql, '@after@', after_id), '@limit@', size) AS statement
      FROM pages
    UNION ALL
    SELECT page + 1, 0, 0, 0, REPLACE(REPLACE(@page_sql, '@after@', last_id), '@limit@', $next)
      FROM pages WHERE page = (SELECT MAX(page) FROM pages) AND events = size
    UNION ALL
    SELECT page, 1, 0, 0,
           GROUP_CONCAT(CONCAT('SELECT $(join_by ', ' "${WORKLOAD_COLUMNS[@]}") FROM \`',
                               ELT(tbl, $names), '\` WHERE \`id\` IN (', id_list, ');')
                        ORDER BY tbl, chunk SEPARATOR ' ')
      FROM fetches GROUP BY page
) AS s ORDER BY page, step, tbl, chunk;
DROP TABLE ${prefix}_limit_keys;"
}

# limit_runner DIALECT SCRIPT -> a runner that sends SCRIPT through the client. For mariadb
# each line is one query: a page's fetches, one line, go as one multi-statement query.
limit_runner() {
    local dialect=$1 script=$2 runner=${2%.sql}.sh words=()
    mapfile -t words < <("${dialect}_client_words")
    if [[ $dialect == pg ]]; then
        command_line "${words[@]}" -f "$script" >"$runner"
    else
        { printf 'DELIMITER //\n' && sed 's|;$|//|' "$script"; } >"${script%.sql}-lines.sql"
        printf '%s< %q\n' "$(command_line "${words[@]}")" "${script%.sql}-lines.sql" >"$runner"
    fi
    printf '%s' "$runner"
}

# limit_prepare DIALECT PREFIX T: the statements of the client form (whole, page reads alone,
# fetches alone) and of the tap's form, and their runners: $WORK/limit-DIALECT-PREFIX-PART.sh
# for PART all, pages, fetches and tap.
limit_prepare() {
    local dialect=$1 prefix=$2 tables=$3 key=$1:$2 base part
    base=$WORK/limit-$dialect-$prefix
    "${dialect}_limit_statements" client "$prefix" "$tables" >"$base.tsv"
    cut -f2- "$base.tsv" >"$base-all.sql"
    awk -F'\t' '$1 == 0' "$base.tsv" | cut -f2- >"$base-pages.sql"
    awk -F'\t' '$1 == 1' "$base.tsv" | cut -f2- >"$base-fetches.sql"
    "${dialect}_limit_statements" tap "$prefix" "$tables" | cut -f2- >"$base-tap.sql"
    for part in all pages fetches tap; do limit_runner "$dialect" "$base-$part.sql" >/dev/null; done
    put "$key:limit_statements" "$(wc -l <"$base-all.sql")"
    log "  limit: $(wc -l <"$base-pages.sql") page statements, $(wc -l <"$base-fetches.sql") fetch queries" \
        "($(($(wc -l <"$base-tap.sql") - $(wc -l <"$base-pages.sql"))) in the tap's form)"
}

# limit_parts_measure DIALECT PREFIX: the page reads alone and the fetches alone, once each
# (the split only says which half costs what). Results under limit_pages_* and limit_fetches_*.
limit_parts_measure() {
    local dialect=$1 prefix=$2 key=$1:$2 part
    for part in pages fetches; do
        measure "$dialect" "limit-$part-$dialect-$prefix" bash "$WORK/limit-$dialect-$prefix-$part.sh"
        put "$key:limit_${part}_wall" "$M_WALL"
        put "$key:limit_${part}_cpu" "$M_CLIENT_CPU"
        put "$key:limit_${part}_server_cpu" "$M_SERVER_CPU"
    done
    log "  limit: pages alone $(fmt %.2f "${RESULT[$key:limit_pages_wall]}") s," \
        "fetches alone $(fmt %.2f "${RESULT[$key:limit_fetches_wall]}") s"
}
