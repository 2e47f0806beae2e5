# shellcheck shell=bash
# Helpers shared by postgres.sh and mariadb.sh. Sourced, never executed.
#
# The caller sets TDG_NAME (used as the message prefix) before sourcing.
# Every message goes to stderr: stdout is reserved for the `env` command.

tdg_log() {
    printf '%s: %s\n' "${TDG_NAME:-servers}" "$*" >&2
}

tdg_die() {
    tdg_log "error: $*"
    exit 1
}

# Microseconds since the epoch (bash 5).
tdg_now() {
    printf '%s' "${EPOCHREALTIME/[.,]/}"
}

# tdg_elapsed START -> seconds since START (a tdg_now value), with two decimals.
tdg_elapsed() {
    local centis=$((($(tdg_now) - $1) / 10000))
    printf '%d.%02d' $((centis / 100)) $((centis % 100))
}

# tdg_quote STRING -> STRING as one single-quoted shell word.
tdg_quote() {
    local s=$1 q="'\\''"
    printf "'%s'" "${s//\'/$q}"
}

# tdg_absolute PATH -> PATH made absolute (it need not exist).
tdg_absolute() {
    case $1 in
        /*) printf '%s' "$1" ;;
        *) printf '%s/%s' "$PWD" "$1" ;;
    esac
}

# tdg_check_port PORT: the port must be a number in the unprivileged range.
tdg_check_port() {
    if ! [[ $1 =~ ^[0-9]+$ ]] || (($1 < 1024 || $1 > 65535)); then
        tdg_die "invalid port '$1' (expected 1024-65535)"
    fi
}

# tdg_pid_state PID -> the one-letter /proc state (R, S, D, Z, ...), empty when PID is gone.
tdg_pid_state() {
    local pid=$1 line
    [[ $pid =~ ^[0-9]+$ ]] || return 0
    [[ -r /proc/$pid/status ]] || return 0
    while IFS= read -r line; do
        if [[ $line =~ ^State:[[:space:]]*([A-Z]) ]]; then
            printf '%s' "${BASH_REMATCH[1]}"
            return 0
        fi
    done <"/proc/$pid/status" 2>/dev/null || true
}

# tdg_pid_alive PID [COMM]: true when PID exists and is not a zombie; when COMM is given, the
# process name must also match (guards against a reused pid). A zombie still passes `kill -0`
# on machines whose init does not reap orphans, so /proc is consulted instead.
tdg_pid_alive() {
    local pid=$1 comm=${2:-} state name=""
    state=$(tdg_pid_state "$pid")
    [[ -n $state && $state != Z && $state != X ]] || return 1
    if [[ -n $comm ]]; then
        name=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
        [[ $name == "$comm" ]] || return 1
    fi
    return 0
}

# tdg_wait_gone PID SECONDS: wait until PID has exited (or is a zombie); false on timeout.
tdg_wait_gone() {
    local pid=$1 deadline=$((SECONDS + $2))
    while tdg_pid_alive "$pid"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
    return 0
}

# tdg_stop_pid PID NAME PIDFILE: SIGTERM, then SIGKILL after 30 s; dies when PID outlives both.
# Removes PIDFILE once it is gone.
tdg_stop_pid() {
    local pid=$1
    kill -TERM "$pid" 2>/dev/null || true
    tdg_wait_gone "$pid" 30 || {
        kill -KILL "$pid" 2>/dev/null || true
        tdg_wait_gone "$pid" 10 || tdg_die "$2 (pid $pid) does not stop"
    }
    rm -f "$3"
}

# tdg_stop_server NAME: the stop command of a server that is one process: unless
# TDG_TEST_KEEP_SERVERS is set, stops the process server_pid names (a function of the calling
# script, which also sets DIR and PIDFILE), under the server's lock.
tdg_stop_server() {
    if tdg_keep_servers; then
        tdg_log "TDG_TEST_KEEP_SERVERS is set: leaving the server running"
        return 0
    fi
    [[ -d $DIR ]] || return 0
    tdg_lock "$DIR/.lock"
    local pid
    pid=$(server_pid)
    [[ -n $pid ]] || return 0
    tdg_stop_pid "$pid" "$1" "$PIDFILE"
    tdg_log "stopped"
}

# tdg_port_open PORT: true when something accepts TCP connections on 127.0.0.1:PORT.
tdg_port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# tdg_read_pid FILE -> the number on the first line of FILE, empty when absent or unreadable.
tdg_read_pid() {
    local pid=""
    [[ -f $1 ]] || return 0
    IFS= read -r pid <"$1" 2>/dev/null || true
    pid=${pid//[[:space:]]/}
    [[ $pid =~ ^[0-9]+$ ]] && printf '%s' "$pid"
    return 0
}

# tdg_log_tail FILE: show the end of a server log on stderr (after a failure).
tdg_log_tail() {
    if [[ -s $1 ]]; then
        tdg_log "last lines of $1:"
        tail -n 40 "$1" | sed 's/^/    /' >&2
    else
        tdg_log "no server log at $1"
    fi
}

# tdg_lock FILE: serialise start/stop of one server across concurrent callers (fd 9).
# Anything started while the lock is held must close fd 9 (`9>&-`), or the lock would live as
# long as the server does.
tdg_lock() {
    exec 9>"$1"
    flock -w 300 9 || tdg_die "timed out waiting for the lock $1"
}

# tdg_unset_client_env PREFIX...: drop client variables that would redirect our own commands.
tdg_unset_client_env() {
    local prefix name
    for prefix in "$@"; do
        while IFS= read -r name; do
            [[ $name == "$prefix"* ]] && unset "$name"
        done < <(compgen -e)
    done
    return 0
}

# tdg_keep_servers: true when TDG_TEST_KEEP_SERVERS asks `stop` to leave servers running.
tdg_keep_servers() {
    case ${TDG_TEST_KEEP_SERVERS:-} in
        1 | yes | true | on | ON | TRUE | YES) return 0 ;;
        *) return 1 ;;
    esac
}

# TLS material both servers and the tests share, in $1/tls (made once, by the first caller):
#   ca.crt / ca.key           the test CA
#   server.crt / server.key   signed by it, for DNS:localhost only (no IP address): verify-full
#                             must accept host localhost and refuse host 127.0.0.1
#   client.crt / client.key   signed by it, CN=tap
#   other-ca.crt              an unrelated CA, which must not verify the server
# Keys are 0600: libpq refuses a client key that others may read.
TDG_TLS_FILES=(ca.crt ca.key server.crt server.key client.crt client.key other-ca.crt)

# tdg_tls_dir BASE -> the directory of the TLS files.
tdg_tls_dir() {
    printf '%s/tls' "$1"
}

# tdg_tls_env BASE: `export TDG_TEST_TLS_*=...` lines for the tests (stdout).
tdg_tls_env() {
    local dir
    dir=$(tdg_tls_dir "$1")
    printf 'export TDG_TEST_TLS_CA=%s\n' "$(tdg_quote "$dir/ca.crt")"
    printf 'export TDG_TEST_TLS_OTHER_CA=%s\n' "$(tdg_quote "$dir/other-ca.crt")"
    printf 'export TDG_TEST_TLS_CLIENT_CERT=%s\n' "$(tdg_quote "$dir/client.crt")"
    printf 'export TDG_TEST_TLS_CLIENT_KEY=%s\n' "$(tdg_quote "$dir/client.key")"
}

tdg_tls_complete() {
    local file
    for file in "${TDG_TLS_FILES[@]}"; do
        [[ -s $1/$file ]] || return 1
    done
}

# tdg_tls_generate DIR: every file of TDG_TLS_FILES into the empty directory DIR.
# Often called in a condition, where `set -e` does not apply: every step returns on failure.
tdg_tls_generate() {
    local dir=$1 days=3650
    cat >"$dir/openssl.cnf" <<'CNF' || return
[req]
distinguished_name = dn
prompt = no
[dn]
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost
authorityKeyIdentifier = keyid
[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
CNF
    (
        cd "$dir" || exit
        umask 077
        ssl() { openssl "$@" 2>>openssl.log; }
        key() { ssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1"; }
        ca() {
            key "$1.key" &&
                ssl req -config openssl.cnf -x509 -new -key "$1.key" -subj "$2" -days $days \
                    -sha256 -extensions ca -out "$1.crt"
        }
        signed() {
            key "$1.key" &&
                ssl req -config openssl.cnf -new -key "$1.key" -subj "$2" -out "$1.csr" &&
                ssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial \
                    -days $days -sha256 -extfile openssl.cnf -extensions "$1" -out "$1.crt"
        }
        ca ca "/CN=tap-diffgen test CA" &&
            ca other-ca "/CN=tap-diffgen unrelated CA" &&
            signed server "/CN=localhost" &&
            signed client "/CN=tap" || exit
        # The unrelated CA never signs anything.
        rm -f other-ca.key ./*.csr ca.srl
        # Certificates are public; keys stay with their owner.
        chmod 0644 ./*.crt && chmod 0600 ./*.key
    ) || return
    rm -f "$dir/openssl.cnf" "$dir/openssl.log"
}

# tdg_tls_setup BASE: makes $BASE/tls once. Concurrent callers wait for the first; the files
# are made in a scratch directory and renamed into place, so a reader never sees half of them.
tdg_tls_setup() {
    local base=$1 dir scratch
    dir=$(tdg_tls_dir "$base")
    command -v openssl >/dev/null 2>&1 || tdg_die "openssl not found (install openssl)"
    exec 8>"$base/.tls.lock"
    flock -w 120 8 || tdg_die "timed out waiting for the lock $base/.tls.lock"
    if ! tdg_tls_complete "$dir"; then
        tdg_log "making the test CA and certificates in $dir"
        scratch=$(mktemp -d "$base/.tls.XXXXXX") || tdg_die "cannot make a directory in $base"
        if ! tdg_tls_generate "$scratch"; then
            [[ ! -s $scratch/openssl.log ]] || sed 's/^/    /' "$scratch/openssl.log" >&2
            rm -rf "$scratch"
            tdg_die "making the TLS certificates failed"
        fi
        chmod 0755 "$scratch"
        rm -rf "$dir"
        mv -T "$scratch" "$dir" || tdg_die "cannot move the TLS certificates to $dir"
    fi
    exec 8>&-
}
