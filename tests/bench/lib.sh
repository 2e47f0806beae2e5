# shellcheck shell=bash source-path=SCRIPTDIR
# Shared by the benchmark's parts: messages, the two database clients, and measuring a command
# (wall time, client CPU, peak RSS, and the CPU the database server spent meanwhile).
# Sourced by run.sh after it has set ROOT, WORK, PG_PORT and MY_PORT.

# shellcheck disable=SC2034 # read by servers/lib.sh
TDG_NAME=bench
# shellcheck source=../servers/lib.sh
source "$ROOT/tests/servers/lib.sh"
# Variables such as PGHOST or MYSQL_HOST would send a client somewhere else.
tdg_unset_client_env PG MYSQL MARIADB

# Results by "dialect:workload:name", filled by the measuring parts and read by report.sh.
declare -gA RESULT=()
put() { RESULT[$1]=$2; }

readonly DB_USER=tap
readonly DB_PASSWORD=tap-secret-pw
readonly DB_NAME=tapdb
readonly SERVER_DIR=${TDG_TEST_DIR:-/tmp/tap-diffgen-test}
PG_BIN=${TDG_PG_BIN:-/usr/lib/postgresql/15/bin}

log() { tdg_log "$@"; }
die() { tdg_die "$@"; }

# The clients connect exactly as the tap does: TCP to 127.0.0.1 as the tap's user, without TLS
# (the test servers offer it; the tap's config disables it too, so the figures compare plain
# connections); psqlrc and option files stay out of the way.
pg_sql() {
    PGPASSWORD=$DB_PASSWORD "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 \
        "host=127.0.0.1 port=$PG_PORT user=$DB_USER dbname=$DB_NAME sslmode=disable" "$@"
}

# Superuser over the unix socket, for the one statement the tap's role may not run (CHECKPOINT).
pg_admin() {
    "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$SERVER_DIR/postgres" -p "$PG_PORT" \
        -U postgres -d "$DB_NAME" "$@"
}

my_sql() {
    MYSQL_PWD=$DB_PASSWORD mariadb --no-defaults --protocol=tcp --host=127.0.0.1 \
        --port="$MY_PORT" --user="$DB_USER" --skip-ssl --batch "$@" "$DB_NAME"
}

# Root over the unix socket, for server settings.
my_admin() {
    mariadb --no-defaults --protocol=socket --socket="$SERVER_DIR/mariadb/mysqld.sock" \
        --user=root --batch --skip-column-names "$@"
}

# my_buffer_pool BYTES: resizes InnoDB's buffer pool (online) and waits until it is done.
my_buffer_pool() {
    local deadline=$((SECONDS + 300)) status
    my_admin -e "SET GLOBAL innodb_buffer_pool_size = $1"
    while :; do
        status=$(my_admin -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'" | cut -f2)
        [[ -z $status || $status == Completed* ]] && return 0
        ((SECONDS < deadline)) || die "resizing the InnoDB buffer pool: $status"
        sleep 1
    done
}

# pg_value SQL [OPTION...] / my_value SQL [OPTION...] -> the query's rows, unadorned.
pg_value() {
    local sql=$1
    shift
    pg_sql -At -F $'\t' "$@" -c "$sql"
}
my_value() {
    local sql=$1
    shift
    my_sql --skip-column-names --raw "$@" -e "$sql"
}

# calc EXPRESSION -> the awk expression's value; printf-style formats go through fmt.
calc() { awk "BEGIN { print $1 }"; }

# median [NUMBER...] -> the middle value of the arguments, or of stdin's lines without any (the
# mean of the two middle ones for an even count).
median() {
    if (($#)); then printf '%s\n' "$@"; else cat; fi | sort -g | awk '{ v[NR] = $1 } END {
        print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
fmt() { awk -v v="$2" "BEGIN { printf \"$1\", v }"; }

# group N -> N rounded, with thousands separators.
group() {
    awk -v v="$1" 'BEGIN {
        s = sprintf("%.0f", v); out = ""
        while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
        print s out
    }'
}

# join_by SEPARATOR WORD... -> the words joined by SEPARATOR.
join_by() {
    local separator=$1 first=$2
    shift 2 || return 0
    printf '%s' "$first" "${@/#/$separator}"
}

dialect_name() { [[ $1 == pg ]] && printf PostgreSQL || printf MariaDB; }

# bench_dialects NAME: sets DIALECTS from a --dialect value (postgres, mysql or all); 1 when
# NAME is none of them.
bench_dialects() {
    case $1 in
        postgres | postgresql) DIALECTS=(pg) ;;
        mysql | mariadb) DIALECTS=(my) ;;
        all) DIALECTS=(pg my) ;;
        *) return 1 ;;
    esac
}

# wait_all WHAT PID...: waits for every PID; dies naming WHAT when one failed.
wait_all() {
    local what=$1 pid
    shift
    for pid in "$@"; do
        wait "$pid" || die "$what failed"
    done
}

# spread_cell -> "median (lowest–highest)" of stdin's numbers, one a line, to two decimals: how
# the report gives a ratio over rounds taking turns.
spread_cell() {
    local sorted
    sorted=$(sort -g)
    # shellcheck disable=SC2086 # one number a word
    printf '%s (%s–%s)' "$(fmt %.2f "$(median $sorted)")" \
        "$(fmt %.2f "$(head -n 1 <<<"$sorted")")" "$(fmt %.2f "$(tail -n 1 <<<"$sorted")")"
}

# CPU seconds (user + system) the server has used so far. A PostgreSQL backend is a child
# process that ends with its connection; the postmaster collects its CPU time in cutime and
# cstime once it has reaped it, so the sum covers backends that have come and gone.
pg_server_cpu() {
    local postmaster
    postmaster=$(tdg_read_pid "$SERVER_DIR/postgres/data/postmaster.pid")
    [[ -n $postmaster ]] || die "PostgreSQL is not running"
    process_cpu "$postmaster" children
}

my_server_cpu() {
    local pid
    pid=$(tdg_read_pid "$SERVER_DIR/mariadb/mariadbd.pid")
    [[ -n $pid ]] || die "MariaDB is not running"
    process_cpu "$pid" self
}

# process_cpu PID self|children -> CPU seconds of PID (all its threads); with `children`, also
# those of its reaped children and of its living child processes.
process_cpu() {
    local pid=$1 scope=$2 ticks child
    ticks=$(stat_ticks "$pid" "$scope")
    if [[ $scope == children ]]; then
        for child in $(<"/proc/$pid/task/$pid/children"); do
            ticks=$((ticks + $(stat_ticks "$child" self)))
        done
    fi
    calc "$ticks / $(getconf CLK_TCK)"
}

# stat_ticks PID self|children -> clock ticks from /proc/PID/stat (0 when PID is gone).
stat_ticks() {
    local stat fields
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || {
        printf 0
        return
    }
    # The command name may contain spaces; the fields after it are fixed.
    read -r -a fields <<<"${stat##*) }"
    # utime, stime, cutime, cstime are fields 14..17 of the line, 12..15 after the name.
    if [[ $2 == children ]]; then
        printf '%s' $((fields[11] + fields[12] + fields[13] + fields[14]))
    else
        printf '%s' $((fields[11] + fields[12]))
    fi
}

# cpu_busy SECONDS -> the share of all CPUs' time, in percent, that was not idle meanwhile.
cpu_busy() {
    local before after
    before=$(head -n 1 /proc/stat)
    sleep "$1"
    after=$(head -n 1 /proc/stat)
    awk -v b="$before" -v a="$after" 'BEGIN {
        nb = split(b, x); split(a, y)
        for (i = 2; i <= nb; i++) { d = y[i] - x[i]; total += d; if (i == 5 || i == 6) idle += d }
        printf "%.0f", total ? 100 * (total - idle) / total : 0
    }'
}

# Background work left over from loading a workload would be measured with the tap.
pg_quiesce() {
    local deadline=$((SECONDS + 120))
    while (($(pg_value "SELECT count(*) FROM pg_stat_activity
                         WHERE backend_type = 'autovacuum worker'") > 0)); do
        ((SECONDS < deadline)) || {
            log "pg: autovacuum still running after 120 s; measuring anyway"
            return 0
        }
        sleep 1
    done
}

# InnoDB purges the undo log of the load's updates and deletes in the background.
my_quiesce() {
    local deadline=$((SECONDS + 300)) history
    while :; do
        history=$(my_value "SHOW ENGINE INNODB STATUS" | grep -o 'History list length [0-9]*' |
            grep -o '[0-9]*$')
        ((${history:-0} > 1000)) || return 0
        ((SECONDS < deadline)) || {
            log "my: InnoDB history list still $history after 300 s; measuring anyway"
            return 0
        }
        sleep 2
    done
}

# measure DIALECT LABEL COMMAND...: runs COMMAND once with stdout to /dev/null and stderr to
# $WORK/LABEL.err; sets M_WALL (s), M_CLIENT_CPU (s), M_RSS (KiB) and M_SERVER_CPU (s).
measure() {
    local dialect=$1 label=$2 started server_before times
    shift 2
    times=$WORK/$label.time
    server_before=$("${dialect}_server_cpu")
    started=$(tdg_now)
    if ! /usr/bin/time -f '%U %S %M' -o "$times" "$@" >/dev/null 2>"$WORK/$label.err"; then
        tdg_log_tail "$WORK/$label.err"
        die "$label failed: $*"
    fi
    M_WALL=$(calc "($(tdg_now) - $started) / 1000000")
    # Lets the postmaster reap the finished backend, whose CPU time it then holds.
    sleep 0.3
    M_SERVER_CPU=$(calc "$("${dialect}_server_cpu") - $server_before")
    local user system rss
    read -r user system rss <"$times"
    M_CLIENT_CPU=$(calc "$user + $system")
    M_RSS=$rss
}

# best_of COUNT DIALECT LABEL COMMAND...: measure COUNT times and keep the fastest run's
# figures (the others only had more interference). Sets the M_* variables of that run and
# leaves its stderr in $WORK/LABEL.err.
best_of() {
    local count=$1 dialect=$2 label=$3 i best_wall="" best=()
    shift 3
    for ((i = 1; i <= count; i++)); do
        measure "$dialect" "$label.$i" "$@"
        log "  $label run $i: $(fmt %.2f "$M_WALL") s"
        if [[ -z $best_wall ]] || (($(calc "$M_WALL < $best_wall"))); then
            best_wall=$M_WALL
            best=("$M_WALL" "$M_CLIENT_CPU" "$M_RSS" "$M_SERVER_CPU" "$i")
        fi
    done
    M_WALL=${best[0]} M_CLIENT_CPU=${best[1]} M_RSS=${best[2]} M_SERVER_CPU=${best[3]}
    cp "$WORK/$label.${best[4]}.err" "$WORK/$label.err"
}

# rotate_rounds FROM TO SLOTS RUN [SHOW]: rounds FROM..TO of SLOTS runs each, the order
# rotating from round to round so that none always follows the same one. Best-of runs of one
# command after another are minutes apart, and on a shared machine that alone moves the ratio
# between them by more than the differences measured; in rounds taking turns every command
# sees the same minutes. `RUN SLOT ROUND` makes one run and sets M_WALL. Rounds below 1 warm
# up and are left out. `SHOW WALLS` (default walls_shown) turns a round's walls into its log
# line.
# Sets ROUND_WALLS: one line per counted round, its walls in slot order.
rotate_rounds() {
    local from=$1 to=$2 slots=$3 run=$4 show=${5:-walls_shown} round i line walls=()
    ROUND_WALLS=""
    for ((round = from; round <= to; round++)); do
        walls=()
        for ((i = 0; i < slots; i++)); do
            "$run" "$(((i + round - from) % slots))" "$round"
            walls[(i + round - from) % slots]=$M_WALL
        done
        line="${walls[*]}"
        if ((round < 1)); then
            log "  warm-up round (left out): $("$show" "$line")"
        else
            log "  round $round: $("$show" "$line")"
            ROUND_WALLS+="$line"$'\n'
        fi
    done
}

# walls_shown WALLS -> "3.01 s, 3.22 s, ...", for the log.
walls_shown() {
    awk '{ for (i = 1; i <= NF; i++) printf "%s%.2f s", (i > 1 ? ", " : ""), $i }' <<<"$1"
}

# take_turns COUNT DIALECT KEY NAME=RUNNER...: COUNT rounds (rotate_rounds), each running every
# runner script once (bash RUNNER); with TAKE_TURNS_WARM_UP=1, a warm-up round before them. For each NAME: the fastest run's figures under
# KEY:NAME_wall, _cpu, _rss and _server_cpu with its stderr in $WORK/NAME-LABEL.err (LABEL is
# KEY with '-' for ':'), and each round's wall, one a line in round order, under KEY:NAME_walls.
take_turns() {
    local count=$1 dialect=$2 key=$3 pair i names=() runners=()
    shift 3
    for pair in "$@"; do
        names+=("${pair%%=*}")
        runners+=("${pair#*=}")
    done
    rotate_rounds "$((${TAKE_TURNS_WARM_UP:-0} ? 0 : 1))" "$count" "${#names[@]}" take_turn turns_shown
    for ((i = 0; i < ${#names[@]}; i++)); do
        put "$key:${names[i]}_walls" "$(awk -v c=$((i + 1)) '{ print $c }' <<<"$ROUND_WALLS")"$'\n'
    done
}

# turns_shown WALLS -> "tap 3.01 s, export 3.22 s, ...", take_turns' names with their walls.
turns_shown() {
    local walls=() i shown=()
    read -r -a walls <<<"$1"
    for ((i = 0; i < ${#walls[@]}; i++)); do shown+=("${names[i]} $(fmt %.2f "${walls[i]}") s"); done
    join_by ', ' "${shown[@]}"
}

# take_turn SLOT ROUND: one run of take_turns' runner SLOT, kept when its fastest.
take_turn() {
    local name=${names[$1]} round=$2 label
    label=$name-${key//:/-}
    measure "$dialect" "$label.$round" bash "${runners[$1]}"
    if [[ -z ${RESULT[$key:${name}_wall]:-} ]] ||
        (($(calc "$M_WALL < ${RESULT[$key:${name}_wall]}"))); then
        put "$key:${name}_wall" "$M_WALL"
        put "$key:${name}_cpu" "$M_CLIENT_CPU"
        put "$key:${name}_rss" "$M_RSS"
        put "$key:${name}_server_cpu" "$M_SERVER_CPU"
        cp "$WORK/$label.$round.err" "$WORK/$label.err"
    fi
}

# turn_ratios KEY NUMERATOR DENOMINATOR -> each round's NUMERATOR wall divided by its
# DENOMINATOR wall, one a line (take_turns' KEY:NAME_walls).
turn_ratios() {
    paste <(printf '%s' "${RESULT[$1:${2}_walls]}") <(printf '%s' "${RESULT[$1:${3}_walls]}") |
        awk 'NF == 2 { print $1 / $2 }'
}

# command_line WORD... -> the words as one shell command line, for a runner script.
command_line() {
    printf '%q ' "$@"
    printf '\n'
}

# The client commands as runner scripts write them (measure runs a file, not a function).
# CLIENT_PORT, when set, sends them to that port instead of the server's (a proxy, rtt.sh).
pg_client_words() {
    printf '%s\n' env "PGPASSWORD=$DB_PASSWORD" "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 \
        "host=127.0.0.1 port=${CLIENT_PORT:-$PG_PORT} user=$DB_USER dbname=$DB_NAME sslmode=disable"
}

my_client_words() {
    printf '%s\n' env "MYSQL_PWD=$DB_PASSWORD" mariadb --no-defaults --protocol=tcp \
        --host=127.0.0.1 --port="${CLIENT_PORT:-$MY_PORT}" --user="$DB_USER" --skip-ssl --quick --batch \
        --skip-column-names --database="$DB_NAME"
}

# ---------------------------------------------------------------------------------------------
# The servers' caches and a quiet machine, for run.sh and curve.sh: they read DIALECTS,
# MY_BUFFER_POOL_MIB and PG_SHARED_BUFFERS_MIB.

# The test servers' caches (InnoDB's buffer pool of 256 MiB, PostgreSQL's shared_buffers of
# 128 MiB) are smaller than a 1M-event workload. InnoDB reads with O_DIRECT, so every miss is
# a disk read; PostgreSQL copies every missed page from the kernel's page cache. Both should
# serve from their own memory, as a maintained database sized for its data does.
MY_BUFFER_POOL_BEFORE=""
PG_SHARED_BUFFERS_GROWN=0
grow_buffer_pool() {
    local before wanted=$((MY_BUFFER_POOL_MIB * 1048576))
    [[ " ${DIALECTS[*]} " == *" my "* ]] && ((MY_BUFFER_POOL_MIB > 0)) || return 0
    before=$(my_admin -e "SELECT @@innodb_buffer_pool_size")
    ((before < wanted)) || return 0
    log "my: growing the InnoDB buffer pool from $((before / 1048576)) MiB to $MY_BUFFER_POOL_MIB MiB for the run"
    MY_BUFFER_POOL_BEFORE=$before
    trap restore_server_caches EXIT
    my_buffer_pool "$wanted"
}

# shared_buffers takes a restart; ALTER SYSTEM keeps it in the data directory until reset.
grow_shared_buffers() {
    local before
    [[ " ${DIALECTS[*]} " == *" pg "* ]] && ((PG_SHARED_BUFFERS_MIB > 0)) || return 0
    before=$(pg_admin -At -c "SELECT setting::bigint * 8 / 1024 FROM pg_settings WHERE name = 'shared_buffers'")
    ((before < PG_SHARED_BUFFERS_MIB)) || return 0
    log "pg: restarting PostgreSQL with shared_buffers of $PG_SHARED_BUFFERS_MIB MiB (from $before MiB) for the run"
    PG_SHARED_BUFFERS_GROWN=1
    trap restore_server_caches EXIT
    pg_admin -c "ALTER SYSTEM SET shared_buffers = '${PG_SHARED_BUFFERS_MIB}MB'"
    pg_restart
}

pg_restart() {
    if ! TDG_TEST_KEEP_SERVERS=0 bash "$ROOT/tests/servers/postgres.sh" stop >/dev/null ||
        ! bash "$ROOT/tests/servers/postgres.sh" start >/dev/null; then
        die "restarting PostgreSQL failed"
    fi
}

restore_server_caches() {
    if [[ -n $MY_BUFFER_POOL_BEFORE ]]; then
        log "my: putting the InnoDB buffer pool back to $((MY_BUFFER_POOL_BEFORE / 1048576)) MiB"
        my_buffer_pool "$MY_BUFFER_POOL_BEFORE"
    fi
    if ((PG_SHARED_BUFFERS_GROWN)); then
        log "pg: restarting PostgreSQL with its own shared_buffers"
        pg_admin -c "ALTER SYSTEM RESET shared_buffers"
        pg_restart
    fi
}

# Numbers are only meaningful on a quiet machine; the report says how quiet it was.
check_quiet() {
    local dialect
    for dialect in "${DIALECTS[@]}"; do "${dialect}_quiesce"; done
    CPU_BUSY_BEFORE=$(cpu_busy 3)
    LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
    log "before measuring: CPUs ${CPU_BUSY_BEFORE}% busy, load average $LOAD_BEFORE"
    ((CPU_BUSY_BEFORE <= 10)) ||
        log "warning: the machine is busy; the numbers will be lower than they should be"
}
