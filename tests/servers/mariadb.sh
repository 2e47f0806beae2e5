#!/usr/bin/env bash
# Throwaway MariaDB 10.11 server for the tests.
#
#   mariadb.sh start    initialise (first time) and start; reuse a running, answering server
#   mariadb.sh stop     stop cleanly and wait until the server process is gone
#                       (does nothing when TDG_TEST_KEEP_SERVERS=1)
#   mariadb.sh status   exit 0 when running and answering, 1 when running but not answering,
#                       3 when not running
#   mariadb.sh env      print `export TDG_TEST_MYSQL_*=...` and `TDG_TEST_TLS_*` lines for the
#                       tests (stdout)
#
# Settings (environment):
#   TDG_TEST_MYSQL_PORT  TCP port on 127.0.0.1 (default 53306)
#   TDG_TEST_DIR         base directory (default /tmp/tap-diffgen-test); the server lives in
#                        $TDG_TEST_DIR/mariadb: data/, mariadbd.log, install.log, the pid file
#                        and the unix socket mysqld.sock
#   TDG_TEST_MYSQL_VARIANT=east  the second server, whose system clock runs east of UTC: port
#                        TDG_TEST_MYSQL_EAST_PORT (default 53307), directory
#                        $TDG_TEST_DIR/mariadb-east, variables TDG_TEST_MYSQL_EAST_*
#
# The server reads no option file (--no-defaults), listens on 127.0.0.1 only, uses utf8mb4 and
# runs with time zone -05:00 on purpose (the tap must not depend on the server's zone). Its
# system time zone (TZ, what information_schema.INNODB_TRX reports times in, whatever the
# session's zone) is America/New_York, west of UTC; the east variant's is Asia/Kolkata.
# User `tap` / `tap-secret-pw` (at 127.0.0.1 and localhost) has ALL on tapdb.* and PROCESS
# (to read information_schema.innodb_trx). OS root connects as `root` over the unix socket
# without a password (TDG_TEST_MYSQL_ADMIN). As root the server runs with --user=root.
# It offers TLS with the test CA's certificate for localhost ($TDG_TEST_DIR/tls, see lib.sh) and
# accepts client certificates of that CA; no account requires TLS, so plain logins keep working.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

TDG_NAME=mariadb
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tdg_unset_client_env MYSQL MARIADB
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

readonly MY_USER=tap
readonly MY_PASSWORD=tap-secret-pw
readonly MY_DATABASE=tapdb
readonly MY_TIMEZONE=-05:00

case ${TDG_TEST_MYSQL_VARIANT:-} in
    "")
        PORT=${TDG_TEST_MYSQL_PORT:-53306}
        INSTANCE=mariadb
        ENV_PREFIX=TDG_TEST_MYSQL
        SYSTEM_TZ=America/New_York
        ;;
    east)
        PORT=${TDG_TEST_MYSQL_EAST_PORT:-53307}
        INSTANCE=mariadb-east
        ENV_PREFIX=TDG_TEST_MYSQL_EAST
        SYSTEM_TZ=Asia/Kolkata
        ;;
    *) tdg_die "TDG_TEST_MYSQL_VARIANT must be empty or 'east', not '$TDG_TEST_MYSQL_VARIANT'" ;;
esac
TDG_NAME=$INSTANCE
BASE=$(tdg_absolute "${TDG_TEST_DIR:-/tmp/tap-diffgen-test}")
DIR=$BASE/$INSTANCE
DATA=$DIR/data
LOG=$DIR/mariadbd.log
PIDFILE=$DIR/mariadbd.pid
SOCKET=$DIR/mysqld.sock
READY=$DIR/setup-done

tdg_check_port "$PORT"
[[ $BASE != *[[:space:]]* ]] || tdg_die "TDG_TEST_DIR must not contain white space: '$BASE'"
((${#SOCKET} < 108)) || tdg_die "TDG_TEST_DIR is too long for a unix socket path: '$BASE'"

# The admin client as one command line; without --no-defaults first it would read /etc/mysql.
admin_words() {
    printf '%s' "mariadb --no-defaults --protocol=socket --socket=$SOCKET --user=root"
}

mariadb_admin_sql() {
    mariadb --no-defaults --protocol=socket --socket="$SOCKET" --user=root --batch "$@"
}

# A server started before the tests had TLS keeps running without it.
warn_without_tls() {
    local have
    have=$(mariadb_admin_sql --skip-column-names -e 'SELECT @@have_ssl' 2>/dev/null) || return 0
    [[ $have == YES ]] && return 0
    tdg_log "warning: the running server has no TLS (it was started before TLS was set up);" \
        "the TLS tests fail until it is restarted:" \
        "TDG_TEST_KEEP_SERVERS=0 mariadb.sh stop, then mariadb.sh start"
}

# The pid of our server when it is alive, else nothing.
server_pid() {
    local pid
    pid=$(tdg_read_pid "$PIDFILE")
    if [[ -n $pid ]] && tdg_pid_alive "$pid" mariadbd; then
        printf '%s' "$pid"
    fi
    return 0
}

answering() {
    # `ping` exits 0 even when access is denied: it only proves that the server answers.
    mariadb-admin --no-defaults --protocol=socket --socket="$SOCKET" --user=root \
        --connect-timeout=3 ping >/dev/null 2>&1
}

remove_stale_files() {
    local pid
    pid=$(tdg_read_pid "$PIDFILE")
    if [[ -e $PIDFILE ]]; then
        if [[ -z $pid ]] || ! tdg_pid_alive "$pid" mariadbd; then
            tdg_log "removing stale $PIDFILE${pid:+ (pid $pid is gone)}"
            rm -f "$PIDFILE"
        fi
    fi
    if [[ -S $SOCKET && -z $(server_pid) ]]; then
        rm -f "$SOCKET"
    fi
    return 0
}

check_binaries() {
    local b
    for b in mariadbd mariadb-install-db mariadb mariadb-admin; do
        command -v "$b" >/dev/null 2>&1 || tdg_die "$b not found (install mariadb-server)"
    done
}

install_db() {
    local started
    started=$(tdg_now)
    tdg_log "initialising a new data directory in $DATA"
    rm -rf "$DATA" "$READY"
    mkdir -p "$DATA"
    local args=(--no-defaults --datadir="$DATA" --skip-test-db --skip-name-resolve
        --auth-root-authentication-method=socket)
    ((EUID != 0)) || args+=(--user=root)
    if ! mariadb-install-db "${args[@]}" >"$DIR/install.log" 2>&1 9>&-; then
        tdg_log_tail "$DIR/install.log"
        rm -rf "$DATA"
        tdg_die "mariadb-install-db failed"
    fi
    tdg_log "data directory initialised in $(tdg_elapsed "$started")s"
}

# Idempotent: database tapdb, user tap at 127.0.0.1 and localhost, no anonymous users.
# Often called in a condition, where `set -e` does not apply: every step returns on failure.
setup_database() {
    local host hosts anonymous=""
    hosts=$(mariadb_admin_sql --skip-column-names -e "SELECT host FROM mysql.user WHERE user = ''") ||
        return
    while IFS= read -r host; do
        [[ -n $host ]] && anonymous+="DROP USER IF EXISTS ''@'$host';"
    done <<<"$hosts"
    mariadb_admin_sql <<SQL || return
$anonymous
CREATE DATABASE IF NOT EXISTS $MY_DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
CREATE USER IF NOT EXISTS '$MY_USER'@'127.0.0.1' IDENTIFIED BY '$MY_PASSWORD';
CREATE USER IF NOT EXISTS '$MY_USER'@'localhost' IDENTIFIED BY '$MY_PASSWORD';
ALTER USER '$MY_USER'@'127.0.0.1' IDENTIFIED BY '$MY_PASSWORD';
ALTER USER '$MY_USER'@'localhost' IDENTIFIED BY '$MY_PASSWORD';
GRANT ALL PRIVILEGES ON $MY_DATABASE.* TO '$MY_USER'@'127.0.0.1', '$MY_USER'@'localhost';
GRANT PROCESS ON *.* TO '$MY_USER'@'127.0.0.1', '$MY_USER'@'localhost';
FLUSH PRIVILEGES;
SQL
    # Prove that the login works the way the tests use it: TCP with a password.
    MYSQL_PWD=$MY_PASSWORD mariadb --no-defaults --protocol=tcp --host=127.0.0.1 \
        --port="$PORT" --user="$MY_USER" --batch --skip-column-names "$MY_DATABASE" \
        -e 'SELECT COUNT(*) FROM information_schema.innodb_trx' >/dev/null || return
    : >"$READY"
}

cmd_start() {
    local started pid deadline
    started=$(tdg_now)
    check_binaries
    mkdir -p "$BASE"
    [[ -d $DIR ]] || mkdir -m 0700 "$DIR"
    tdg_lock "$BASE/.$INSTANCE.lock"
    tdg_tls_setup "$BASE"

    pid=$(server_pid)
    if [[ -n $pid ]]; then
        deadline=$((SECONDS + 30))
        until answering; do
            if ((SECONDS >= deadline)) || ! tdg_pid_alive "$pid" mariadbd; then
                break
            fi
            sleep 0.2
        done
        if answering; then
            [[ -f $READY ]] || setup_database
            tdg_log "already running (pid $pid) on 127.0.0.1:$PORT, reusing it"
            warn_without_tls
            return 0
        fi
        if tdg_pid_alive "$pid" mariadbd; then
            tdg_log "pid $pid is not answering; killing it"
            kill -KILL "$pid" 2>/dev/null || true
            tdg_wait_gone "$pid" 10 || tdg_die "could not stop pid $pid"
        fi
    fi
    remove_stale_files

    if tdg_port_open "$PORT"; then
        tdg_die "port $PORT on 127.0.0.1 is in use by another process (set TDG_TEST_MYSQL_PORT)"
    fi
    [[ -d $DATA/mysql ]] || install_db

    local tls
    tls=$(tdg_tls_dir "$BASE")
    local args=(--no-defaults --datadir="$DATA" --bind-address=127.0.0.1 --port="$PORT"
        --socket="$SOCKET" --pid-file="$PIDFILE" --skip-name-resolve
        --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci
        --default-time-zone="$MY_TIMEZONE"
        --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0
        --innodb-buffer-pool-size=256M
        --ssl-ca="$tls/ca.crt" --ssl-cert="$tls/server.crt" --ssl-key="$tls/server.key")
    ((EUID != 0)) || args=("${args[0]}" --user=root "${args[@]:1}")
    tdg_log "starting on 127.0.0.1:$PORT (log: $LOG)"
    # Own session and no inherited descriptors: the server must not hold a caller's pipe
    # (ctest waits for the test's output to close) nor the start/stop lock.
    TZ=$SYSTEM_TZ setsid mariadbd "${args[@]}" </dev/null >>"$LOG" 2>&1 9>&- &
    pid=$!
    deadline=$((SECONDS + 60))
    until answering && [[ -S $SOCKET && -n $(server_pid) ]]; do
        if ! tdg_pid_alive "$pid"; then
            tdg_log_tail "$LOG"
            tdg_die "the server exited during start-up"
        fi
        if ((SECONDS >= deadline)); then
            kill -KILL "$pid" 2>/dev/null || true
            tdg_log_tail "$LOG"
            tdg_die "the server did not answer within 60 s"
        fi
        sleep 0.1
    done
    if ! setup_database; then
        tdg_log_tail "$LOG"
        tdg_die "setting up user '$MY_USER' and database '$MY_DATABASE' failed"
    fi
    tdg_log "started (pid $(server_pid)) on 127.0.0.1:$PORT in $(tdg_elapsed "$started")s"
}

cmd_stop() {
    local started pid
    started=$(tdg_now)
    if tdg_keep_servers; then
        tdg_log "TDG_TEST_KEEP_SERVERS=$TDG_TEST_KEEP_SERVERS: leaving the server running"
        return 0
    fi
    [[ -d $DIR ]] || {
        tdg_log "not running"
        return 0
    }
    tdg_lock "$BASE/.$INSTANCE.lock"
    pid=$(server_pid)
    if [[ -z $pid ]]; then
        remove_stale_files
        tdg_log "not running"
        return 0
    fi
    tdg_log "stopping pid $pid"
    kill -TERM "$pid" 2>/dev/null || true
    if ! tdg_wait_gone "$pid" 60; then
        tdg_log "pid $pid did not stop within 60 s; killing it"
        kill -KILL "$pid" 2>/dev/null || true
        tdg_wait_gone "$pid" 10 || tdg_die "pid $pid did not go away"
    fi
    remove_stale_files
    tdg_log "stopped in $(tdg_elapsed "$started")s"
}

cmd_status() {
    local pid
    pid=$(server_pid)
    if [[ -z $pid ]]; then
        tdg_log "not running (port $PORT, directory $DIR)"
        return 3
    fi
    if answering; then
        tdg_log "running (pid $pid), answering on 127.0.0.1:$PORT"
        return 0
    fi
    tdg_log "running (pid $pid) but not answering on 127.0.0.1:$PORT"
    return 1
}

cmd_env() {
    printf 'export %s_HOST=127.0.0.1\n' "$ENV_PREFIX"
    printf 'export %s_PORT=%s\n' "$ENV_PREFIX" "$PORT"
    printf 'export %s_USER=%s\n' "$ENV_PREFIX" "$MY_USER"
    printf 'export %s_PASSWORD=%s\n' "$ENV_PREFIX" "$MY_PASSWORD"
    printf 'export %s_DATABASE=%s\n' "$ENV_PREFIX" "$MY_DATABASE"
    printf 'export %s_SOCKET=%s\n' "$ENV_PREFIX" "$(tdg_quote "$SOCKET")"
    printf 'export %s_ADMIN=%s\n' "$ENV_PREFIX" "$(tdg_quote "$(admin_words) $MY_DATABASE")"
    tdg_tls_env "$BASE"
}

case ${1:-} in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    env) cmd_env ;;
    *)
        printf 'usage: %s {start|stop|status|env}\n' "$0" >&2
        exit 2
        ;;
esac
