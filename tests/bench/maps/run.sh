#!/usr/bin/env bash
# The tap's records/s on one real PostgreSQL backlog, three ways side by side: RECORD without
# maps, RECORD with a typical map set (two columns removed, one md5, a filter, an alias, one
# computed column), and BATCH (gzip) without maps. Then the same without a database
# (tdg-maps-bench: the emit path alone). Figures are the best of REPEAT runs.
#
#   bash tests/bench/maps/run.sh [BUILD_DIR] [ROWS] [REPEAT]     (build, 300000, 3)
#
# It uses the test PostgreSQL of tests/servers/postgres.sh (started when not running; honours
# TDG_TEST_PG_PORT and TDG_TEST_DIR) and leaves a table pair maps_bench_* in its database.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
BUILD=${1:-$ROOT/build}
ROWS=${2:-300000}
REPEAT=${3:-3}
PORT=${TDG_TEST_PG_PORT:-55432}
PG_BIN=${TDG_PG_BIN:-/usr/lib/postgresql/15/bin}
TAP=$BUILD/bin/tap-diffgen
PLUGINS=$BUILD/lib/tap-diffgen/plugins
[[ -x $TAP && -x $BUILD/bin/tdg-maps-bench ]] || {
    echo "build tap-diffgen, tap-diffgen-dialect-postgres and tdg-maps-bench in $BUILD first" >&2
    exit 1
}
bash "$ROOT/tests/servers/postgres.sh" start >&2
sql() {
    PGPASSWORD=tap-secret-pw "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 \
        "host=127.0.0.1 port=$PORT user=tap dbname=tapdb sslmode=disable"
}

echo "building a backlog of $ROWS inserts" >&2
sql <<SQL
DROP TABLE IF EXISTS maps_bench_invoices, maps_bench_diffgen;
CREATE TABLE maps_bench_diffgen (
    id bigserial PRIMARY KEY, tablename text NOT NULL, table_id text NOT NULL,
    op char(1) NOT NULL, ts_created timestamptz NOT NULL DEFAULT now());
CREATE TABLE maps_bench_invoices (
    id bigint PRIMARY KEY, customer_id bigint, amount numeric(12,2), email text, name text,
    country text, note text, created_at timestamptz, paid boolean, doc jsonb);
INSERT INTO maps_bench_invoices
SELECT g, g % 300, (g % 997) + 0.25, 'user' || g || '@example.com', 'Customer ' || g,
       (ARRAY['DE','GB','FR','US'])[g % 4 + 1], CASE WHEN g % 3 = 0 THEN 'express' END,
       '2024-05-01 09:30:00+00'::timestamptz + g * interval '1 second', g % 2 = 0,
       jsonb_build_object('source', 'web', 'items', g % 7)
FROM generate_series(1, $ROWS) g;
INSERT INTO maps_bench_diffgen (tablename, table_id, op)
SELECT 'maps_bench_invoices', g::text, 'i' FROM generate_series(1, $ROWS) g;
ANALYZE maps_bench_invoices; ANALYZE maps_bench_diffgen;
SQL

SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
mkdir -p "$SCRATCH/batches"
base='"sql_dialect":"postgres","host":"127.0.0.1","port":'$PORT',"user":"tap","password":"tap-secret-pw",'
base+='"database":"tapdb","ssl_mode":"disable","diffgen_table":"maps_bench_diffgen",'
base+='"tables":[{"table_name":"maps_bench_invoices","pk_column":"id"}]'
echo "{$base}" >"$SCRATCH/plain.json"
cat >"$SCRATCH/maps.json" <<JSON
{$base,"stream_maps":{"maps_bench_invoices":{"__alias__":"invoices",
 "__filter__":"country != 'XX'","note":null,"name":null,"email":"md5(email)",
 "amount_twice":"float(amount) * 2"}}}
JSON
cat >"$SCRATCH/batch.json" <<JSON
{$base,"batch_config":{"encoding":{"format":"jsonl","compression":"gzip"},
 "storage":{"root":"file://$SCRATCH/batches"}}}
JSON

best_rate() {
    local best=0 start end rate
    for ((k = 0; k < REPEAT; k++)); do
        rm -rf "$SCRATCH/batches" && mkdir -p "$SCRATCH/batches"
        start=$(date +%s.%N)
        "$TAP" --config "$SCRATCH/$1.json" --plugin-dir "$PLUGINS" >/dev/null 2>"$SCRATCH/$1.log"
        end=$(date +%s.%N)
        rate=$(awk -v n="$ROWS" -v s="$start" -v e="$end" 'BEGIN { printf "%d", n / (e - s) }')
        ((rate > best)) && best=$rate
    done
    echo "$best"
}
plain=$(best_rate plain)
mapped=$(best_rate maps)
batch=$(best_rate batch)
echo
echo "tap-diffgen on PostgreSQL, $ROWS records, best of $REPEAT (records/s):"
echo
echo "| RECORD, no map | RECORD, typical maps | BATCH gzip, no map | maps ÷ plain | BATCH ÷ RECORD |"
echo "|---:|---:|---:|---:|---:|"
awk -v p="$plain" -v m="$mapped" -v b="$batch" \
    'BEGIN { printf "| %d | %d | %d | %.2f | %.2f |\n", p, m, b, m / p, b / p }'
echo
echo "The emit path alone (no database, synthetic rows of the same shape):"
echo
"$BUILD/bin/tdg-maps-bench" "$ROWS" "$REPEAT"
