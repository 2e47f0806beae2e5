#!/usr/bin/env bash
# Throwaway PostgreSQL 15 server for the tests.
#
#   postgres.sh start    initialise (first time) and start; reuse a running, answering server
#   postgres.sh stop     stop cleanly and wait until the server process is gone
#                        (does nothing when TDG_TEST_KEEP_SERVERS=1)
#   postgres.sh status   exit 0 when running and accepting connections, 1 when running but
#                        not answering, 3 when not running
#   postgres.sh env      print `export TDG_TEST_PG_*=...` and `TDG_TEST_TLS_*` lines for the
#                        tests (stdout)
#
# Settings (environment):
#   TDG_TEST_PG_PORT   TCP port on 127.0.0.1 (default 55432)
#   TDG_TEST_DIR       base directory (default /tmp/tap-diffgen-test); the server lives in
#                      $TDG_TEST_DIR/postgres: data/ (cluster), postgres.log, initdb.log and
#                      the unix socket
#   TDG_PG_BIN         PostgreSQL binaries (default /usr/lib/postgresql/15/bin)
#
# The server listens on 127.0.0.1 only, authenticates TCP clients with scram-sha-256 and runs
# with time zone America/New_York on purpose (the tap must not depend on the server's zone).
# It offers TLS with the test CA's certificate for localhost ($TDG_TEST_DIR/tls, see lib.sh;
# a copy of the server's files lives in $TDG_TEST_DIR/postgres/tls) and asks clients for a
# certificate of that CA without requiring one; plain TCP logins keep working.
# Login role `tap` / `tap-secret-pw` owns database `tapdb`. The superuser `postgres` connects
# without a password over the unix socket in the server directory (TDG_TEST_PG_ADMIN).
# As root the server runs as the OS user `postgres` (PostgreSQL refuses to run as root);
# as any other user it runs as that user.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

TDG_NAME=postgres
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tdg_unset_client_env PG

readonly PG_USER=tap
readonly PG_PASSWORD=tap-secret-pw
readonly PG_DATABASE=tapdb
readonly PG_SUPERUSER=postgres
readonly PG_SUPERUSER_PASSWORD=tap-admin-pw
readonly PG_TIMEZONE=America/New_York

PG_BIN=${TDG_PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=${TDG_TEST_PG_PORT:-55432}
BASE=$(tdg_absolute "${TDG_TEST_DIR:-/tmp/tap-diffgen-test}")
DIR=$BASE/postgres
DATA=$DIR/data
LOG=$DIR/postgres.log
READY=$DIR/setup-done
SERVER_TLS=$DIR/tls

tdg_check_port "$PORT"
[[ $BASE != *[[:space:]]* ]] || tdg_die "TDG_TEST_DIR must not contain white space: '$BASE'"
# A unix socket path is limited to 107 bytes.
((${#DIR} + 20 < 108)) || tdg_die "TDG_TEST_DIR is too long for a unix socket path: '$BASE'"

psql_admin_words() {
    printf '%s' "$PG_BIN/psql -X -q -v ON_ERROR_STOP=1 -h $DIR -p $PORT -U $PG_SUPERUSER"
}

# Run a command as the OS user that owns the cluster.
as_owner() {
    if ((EUID == 0)); then
        (cd / && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

# Superuser psql over the unix socket; extra arguments are passed on.
psql_admin() {
    "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$DIR" -p "$PORT" -U "$PG_SUPERUSER" "$@"
}

# The pid of our postmaster when it is alive, else nothing.
server_pid() {
    local pid
    pid=$(tdg_read_pid "$DATA/postmaster.pid")
    if [[ -n $pid ]] && tdg_pid_alive "$pid" postgres; then
        printf '%s' "$pid"
    fi
    return 0
}

answering() {
    "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -t 3 >/dev/null 2>&1
}

# Lock files whose process is gone (or a zombie) would make the next start refuse to run.
remove_stale_files() {
    local file pid
    for file in "$DATA/postmaster.pid" "$DIR/.s.PGSQL.$PORT.lock"; do
        [[ -e $file ]] || continue
        pid=$(tdg_read_pid "$file")
        if [[ -z $pid ]] || ! tdg_pid_alive "$pid" postgres; then
            tdg_log "removing stale $file${pid:+ (pid $pid is gone)}"
            rm -f "$file"
            [[ $file == *.lock ]] && rm -f "${file%.lock}"
        fi
    done
    return 0
}

check_binaries() {
    local b
    for b in initdb pg_ctl pg_isready psql; do
        [[ -x $PG_BIN/$b ]] ||
            tdg_die "$PG_BIN/$b not found (install postgresql-15, or set TDG_PG_BIN)"
    done
    if ((EUID == 0)); then
        id -u postgres >/dev/null 2>&1 || tdg_die "OS user 'postgres' does not exist"
    fi
}

prepare_dirs() {
    mkdir -p "$BASE"
    if [[ ! -d $DIR ]]; then
        mkdir -m 0700 "$DIR"
    fi
    if ((EUID == 0)); then
        chown postgres: "$DIR"
        chmod 0700 "$DIR"
        as_owner test -w "$DIR" ||
            tdg_die "OS user 'postgres' cannot write $DIR (is a parent directory private?)"
    fi
}

init_cluster() {
    local started pwfile=$DIR/.superuser-password
    started=$(tdg_now)
    tdg_log "initialising a new cluster in $DATA"
    rm -rf "$DATA" "$READY"
    printf '%s\n' "$PG_SUPERUSER_PASSWORD" >"$pwfile"
    ((EUID != 0)) || chown postgres: "$pwfile"
    chmod 0600 "$pwfile"
    if ! as_owner "$PG_BIN/initdb" -D "$DATA" -U "$PG_SUPERUSER" --pwfile="$pwfile" \
        --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --locale=C.UTF-8 \
        --no-sync --no-instructions >"$DIR/initdb.log" 2>&1; then
        rm -f "$pwfile"
        tdg_log_tail "$DIR/initdb.log"
        rm -rf "$DATA"
        tdg_die "initdb failed"
    fi
    rm -f "$pwfile"
    tdg_log "cluster initialised in $(tdg_elapsed "$started")s"
}

# The server's certificate, key and CA in a directory of the cluster's owner: PostgreSQL refuses
# a key that others may read, and as root the server runs as `postgres`, who may not read the
# shared copies. Refreshed at every start.
install_server_tls() {
    local tls owner=() file
    tls=$(tdg_tls_dir "$BASE")
    ((EUID != 0)) || owner=(-o postgres -g postgres)
    install -d -m 0700 "${owner[@]}" "$SERVER_TLS" || return
    for file in server.crt server.key ca.crt; do
        install -m 0600 "${owner[@]}" "$tls/$file" "$SERVER_TLS/$file" || return
    done
}

# A server started before the tests had TLS keeps running without it.
warn_without_tls() {
    local ssl
    ssl=$(psql_admin -d postgres -Atc 'SHOW ssl' 2>/dev/null) || return 0
    [[ $ssl == on ]] && return 0
    tdg_log "warning: the running server has no TLS (it was started before TLS was set up);" \
        "the TLS tests fail until it is restarted:" \
        "TDG_TEST_KEEP_SERVERS=0 postgres.sh stop, then postgres.sh start"
}

# Idempotent: role `tap` with its password, database `tapdb` owned by it.
# Often called in a condition, where `set -e` does not apply: every step returns on failure.
setup_database() {
    psql_admin -d postgres >/dev/null <<SQL || return
SELECT format('CREATE ROLE %I LOGIN', '$PG_USER')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER')\\gexec
ALTER ROLE $PG_USER WITH LOGIN PASSWORD '$PG_PASSWORD';
SELECT format('CREATE DATABASE %I OWNER %I', '$PG_DATABASE', '$PG_USER')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$PG_DATABASE')\\gexec
ALTER DATABASE $PG_DATABASE OWNER TO $PG_USER;
SQL
    # Prove that the login works the way the tests use it: TCP, password, scram-sha-256.
    PGPASSWORD=$PG_PASSWORD "$PG_BIN/psql" -X -q -At \
        "host=127.0.0.1 port=$PORT user=$PG_USER dbname=$PG_DATABASE" \
        -c 'SELECT 1' >/dev/null || return
    : >"$READY"
}

cmd_start() {
    local started pid opts
    started=$(tdg_now)
    check_binaries
    prepare_dirs
    tdg_lock "$BASE/.postgres.lock"
    tdg_tls_setup "$BASE"

    pid=$(server_pid)
    if [[ -n $pid ]]; then
        local deadline=$((SECONDS + 30))
        until answering; do
            if ((SECONDS >= deadline)) || ! tdg_pid_alive "$pid" postgres; then
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
        if tdg_pid_alive "$pid" postgres; then
            tdg_log "pid $pid is not accepting connections; stopping it"
            as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m immediate -w -t 30 -s stop 9>&- || true
            tdg_wait_gone "$pid" 10 || kill -KILL "$pid" 2>/dev/null || true
            tdg_wait_gone "$pid" 10 || tdg_die "could not stop pid $pid"
        fi
    fi
    remove_stale_files

    if tdg_port_open "$PORT"; then
        tdg_die "port $PORT on 127.0.0.1 is in use by another process (set TDG_TEST_PG_PORT)"
    fi
    [[ -f $DATA/PG_VERSION ]] || init_cluster
    install_server_tls || tdg_die "cannot install the server's TLS files in $SERVER_TLS"

    opts="-c listen_addresses=127.0.0.1 -p $PORT -k $DIR"
    opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    opts+=" -c max_connections=100 -c timezone=$PG_TIMEZONE"
    opts+=" -c ssl=on -c ssl_cert_file=$SERVER_TLS/server.crt"
    opts+=" -c ssl_key_file=$SERVER_TLS/server.key -c ssl_ca_file=$SERVER_TLS/ca.crt"
    tdg_log "starting on 127.0.0.1:$PORT (log: $LOG)"
    if ! as_owner "$PG_BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 -s -o "$opts" start 9>&-; then
        tdg_log_tail "$LOG"
        tdg_die "the server did not start"
    fi
    if ! setup_database; then
        tdg_log_tail "$LOG"
        tdg_die "setting up role '$PG_USER' and database '$PG_DATABASE' failed"
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
    tdg_lock "$BASE/.postgres.lock"
    pid=$(server_pid)
    if [[ -z $pid ]]; then
        remove_stale_files
        tdg_log "not running"
        return 0
    fi
    tdg_log "stopping pid $pid"
    if ! as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 -s stop 9>&-; then
        tdg_log "fast shutdown failed; trying immediate shutdown"
        as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m immediate -w -t 30 -s stop 9>&- || true
    fi
    if ! tdg_wait_gone "$pid" 30; then
        tdg_log "pid $pid still there; killing it"
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
        tdg_log "running (pid $pid), accepting connections on 127.0.0.1:$PORT"
        return 0
    fi
    tdg_log "running (pid $pid) but not accepting connections on 127.0.0.1:$PORT"
    return 1
}

cmd_env() {
    printf 'export TDG_TEST_PG_HOST=127.0.0.1\n'
    printf 'export TDG_TEST_PG_PORT=%s\n' "$PORT"
    printf 'export TDG_TEST_PG_USER=%s\n' "$PG_USER"
    printf 'export TDG_TEST_PG_PASSWORD=%s\n' "$PG_PASSWORD"
    printf 'export TDG_TEST_PG_DATABASE=%s\n' "$PG_DATABASE"
    printf 'export TDG_TEST_PG_SOCKET_DIR=%s\n' "$(tdg_quote "$DIR")"
    printf 'export TDG_TEST_PG_ADMIN=%s\n' "$(tdg_quote "$(psql_admin_words) -d $PG_DATABASE")"
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
