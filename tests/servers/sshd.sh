#!/usr/bin/env bash
# Throwaway OpenSSH server, the bastion of the SSH tunnel tests.
#
#   sshd.sh start          make the keys (first time) and start; reuse a running, answering server
#   sshd.sh stop           stop and wait until the server process is gone
#                          (does nothing when TDG_TEST_KEEP_SERVERS=1)
#   sshd.sh status         exit 0 when running and accepting connections, 3 when not running
#   sshd.sh env            print `export TDG_TEST_SSH_*=...` lines for the tests (stdout)
#   sshd.sh kill-sessions  SIGKILL every per-connection process of the server (the listener
#                          stays): what a bastion reboot or a cut network does to a tunnel
#
# Settings (environment):
#   TDG_TEST_SSH_PORT  TCP port on 127.0.0.1 (default 52222)
#   TDG_TEST_PG_PORT, TDG_TEST_MYSQL_PORT  the database ports the bastion forwards to
#                      (defaults 55432 and 53306, as postgres.sh and mariadb.sh)
#   TDG_TEST_DIR       base directory (default /tmp/tap-diffgen-test); the server lives in
#                      $TDG_TEST_DIR/sshd: sshd_config, sshd.log, sshd.pid and the keys
#
# `/usr/sbin/sshd -D -f $DIR/sshd_config` runs with a host key of its own and no system
# configuration, listening on 127.0.0.1 only. The login user is the user running this script
# (root in CI) with the key client_key (OpenSSH format, no passphrase); client_key_encrypted
# is the same kind of key with passphrase tunnel-passphrase, client_key_pem an RSA key in PEM
# form, stranger_key a key the server does not know. known_hosts pins the server's host key;
# other_known_hosts names another key for the same address. Forwarding is permitted to the two
# database ports (as 127.0.0.1 and as localhost, the name their TLS certificate holds) and to
# 127.0.0.1:1 (where nothing listens) only: anything else is refused.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

TDG_NAME=sshd
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

readonly SSHD_BIN=/usr/sbin/sshd
readonly KEY_PASSPHRASE=tunnel-passphrase
readonly CLOSED_PORT=1

PORT=${TDG_TEST_SSH_PORT:-52222}
PG_PORT=${TDG_TEST_PG_PORT:-55432}
MYSQL_PORT=${TDG_TEST_MYSQL_PORT:-53306}
BASE=$(tdg_absolute "${TDG_TEST_DIR:-/tmp/tap-diffgen-test}")
DIR=$BASE/sshd
CONFIG=$DIR/sshd_config
LOG=$DIR/sshd.log
PIDFILE=$DIR/sshd.pid
LOGIN_USER=$(id -un)

tdg_check_port "$PORT"
[[ $BASE != *[[:space:]]* ]] || tdg_die "TDG_TEST_DIR must not contain white space: '$BASE'"

server_pid() {
    local pid
    pid=$(tdg_read_pid "$PIDFILE")
    if [[ -n $pid ]] && tdg_pid_alive "$pid" sshd; then printf '%s' "$pid"; fi
    return 0
}

keygen() {
    ssh-keygen -q "$@" </dev/null >/dev/null
}

make_keys() {
    [[ -s $DIR/known_hosts && -s $DIR/client_key_pem ]] && return 0
    tdg_log "making the host key and the client keys in $DIR"
    rm -f "$DIR"/*_key* "$DIR"/*known_hosts "$DIR/authorized_keys"
    keygen -t ed25519 -N '' -C tdg-bastion -f "$DIR/host_key"
    keygen -t ed25519 -N '' -C tdg-other-host -f "$DIR/other_host_key"
    keygen -t ed25519 -N '' -C tdg-client -f "$DIR/client_key"
    keygen -t ed25519 -N "$KEY_PASSPHRASE" -C tdg-client-encrypted -f "$DIR/client_key_encrypted"
    keygen -t rsa -b 2048 -m PEM -N '' -C tdg-client-pem -f "$DIR/client_key_pem"
    keygen -t ed25519 -N '' -C tdg-stranger -f "$DIR/stranger_key"
    cat "$DIR/client_key.pub" "$DIR/client_key_encrypted.pub" "$DIR/client_key_pem.pub" \
        >"$DIR/authorized_keys"
    # known_hosts names a server on another port than 22 as [host]:port.
    printf '[127.0.0.1]:%s %s\n' "$PORT" "$(cut -d' ' -f1,2 "$DIR/host_key.pub")" \
        >"$DIR/known_hosts"
    printf '[127.0.0.1]:%s %s\n' "$PORT" "$(cut -d' ' -f1,2 "$DIR/other_host_key.pub")" \
        >"$DIR/other_known_hosts"
    chmod 0600 "$DIR"/*_key "$DIR/authorized_keys"
}

write_config() {
    cat >"$CONFIG" <<CONFIG
# Written by tests/servers/sshd.sh; nothing of /etc/ssh is read.
ListenAddress 127.0.0.1
Port $PORT
HostKey $DIR/host_key
PidFile $PIDFILE
AuthorizedKeysFile $DIR/authorized_keys
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $LOGIN_USER
UsePAM no
StrictModes no
AllowTcpForwarding local
PermitOpen 127.0.0.1:$PG_PORT 127.0.0.1:$MYSQL_PORT 127.0.0.1:$CLOSED_PORT localhost:$PG_PORT localhost:$MYSQL_PORT
AllowAgentForwarding no
X11Forwarding no
PermitTTY no
MaxStartups 200
MaxSessions 50
LogLevel VERBOSE
CONFIG
}

answering() {
    tdg_port_open "$PORT"
}

cmd_start() {
    command -v "$SSHD_BIN" >/dev/null || tdg_die "$SSHD_BIN not found (install openssh-server)"
    command -v ssh-keygen >/dev/null || tdg_die "ssh-keygen not found (install openssh-client)"
    mkdir -p "$DIR"
    tdg_lock "$DIR/.lock"
    local pid started
    pid=$(server_pid)
    if [[ -n $pid ]] && answering; then
        tdg_log "reusing the running server (pid $pid, port $PORT)"
        return 0
    fi
    make_keys
    write_config
    # sshd checks for its privilege separation directory even when it never uses it.
    if ((EUID == 0)) && [[ ! -d /run/sshd ]]; then mkdir -m 0755 /run/sshd; fi
    "$SSHD_BIN" -t -f "$CONFIG" 2>"$LOG" || {
        tdg_log_tail "$LOG"
        tdg_die "sshd refuses its configuration"
    }
    started=$(tdg_now)
    "$SSHD_BIN" -D -f "$CONFIG" -E "$LOG" </dev/null >/dev/null 2>&1 9>&- &
    pid=$!
    for _ in $(seq 1 100); do
        if answering; then
            tdg_log "started (pid $pid, port $PORT) in $(tdg_elapsed "$started") s"
            return 0
        fi
        tdg_pid_alive "$pid" || break
        sleep 0.1
    done
    tdg_log_tail "$LOG"
    tdg_die "sshd did not start on 127.0.0.1:$PORT"
}

# Every process below the listener: its per-connection children and theirs.
descendants() {
    local pid=$1 child children=()
    [[ -r /proc/$pid/task/$pid/children ]] || return 0
    read -r -a children <"/proc/$pid/task/$pid/children" || true
    for child in "${children[@]}"; do
        printf '%s\n' "$child"
        descendants "$child"
    done
}

cmd_kill_sessions() {
    local pid sessions=()
    pid=$(server_pid)
    [[ -n $pid ]] || tdg_die "not running"
    mapfile -t sessions < <(descendants "$pid")
    ((${#sessions[@]})) || {
        tdg_log "no session to kill"
        return 0
    }
    kill -KILL "${sessions[@]}" 2>/dev/null || true
    tdg_log "killed sessions: ${sessions[*]}"
}

cmd_stop() {
    tdg_stop_server sshd
}

cmd_status() {
    local pid
    pid=$(server_pid)
    [[ -n $pid ]] || return 3
    answering || return 1
}

cmd_env() {
    printf 'export TDG_TEST_SSH_HOST=127.0.0.1\n'
    printf 'export TDG_TEST_SSH_PORT=%s\n' "$PORT"
    printf 'export TDG_TEST_SSH_USER=%s\n' "$(tdg_quote "$LOGIN_USER")"
    printf 'export TDG_TEST_SSH_DIR=%s\n' "$(tdg_quote "$DIR")"
    printf 'export TDG_TEST_SSH_KEY_PASSPHRASE=%s\n' "$KEY_PASSPHRASE"
    printf 'export TDG_TEST_SSH_CLOSED_PORT=%s\n' "$CLOSED_PORT"
}

case ${1:-} in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    env) cmd_env ;;
    kill-sessions) cmd_kill_sessions ;;
    *)
        printf 'usage: %s start|stop|status|env|kill-sessions\n' "$0" >&2
        exit 2
        ;;
esac
