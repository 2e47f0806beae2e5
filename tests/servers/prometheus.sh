#!/usr/bin/env bash
# Throwaway Prometheus server that scrapes the metrics endpoint of the tap under test.
#
#   prometheus.sh start    write the scrape configuration and start; reuse a running, ready
#                          server whose configuration is the same
#   prometheus.sh stop     stop and wait until the server process is gone
#                          (does nothing when TDG_TEST_KEEP_SERVERS=1)
#   prometheus.sh status   exit 0 when running and ready, 1 when running but not ready, 3 when
#                          not running
#   prometheus.sh env      print `export TDG_TEST_PROMETHEUS_*=...` and
#                          `TDG_TEST_METRICS_PORT` lines for the tests (stdout)
#
# Settings (environment):
#   TDG_TEST_PROMETHEUS_PORT  the server's HTTP port on 127.0.0.1 (default 29090)
#   TDG_TEST_METRICS_PORT     the port of the tap's metrics endpoint it scrapes, on 127.0.0.1
#                             (default 29464): the tests start their taps with it
#   TDG_TEST_DIR              base directory (default /tmp/tap-diffgen-test); the server lives
#                             in $TDG_TEST_DIR/prometheus: prometheus.yml, prometheus.log,
#                             prometheus.pid and data/ (--storage.tsdb.path)
#   TDG_PROMETHEUS_BIN        the server (default /usr/bin/prometheus, Debian's `prometheus`)
#
# The one job, `tap-diffgen`, scrapes 127.0.0.1:$TDG_TEST_METRICS_PORT/metrics every 250 ms, so
# that a test reads through the server's HTTP API (/api/v1/query) what the tap showed a moment
# before; `up{job="tap-diffgen"}` is 1 while a tap listens there.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

TDG_NAME=prometheus
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

readonly SCRAPE_INTERVAL=250ms
readonly JOB=tap-diffgen

PROMETHEUS_BIN=${TDG_PROMETHEUS_BIN:-/usr/bin/prometheus}
PORT=${TDG_TEST_PROMETHEUS_PORT:-29090}
TARGET_PORT=${TDG_TEST_METRICS_PORT:-29464}
BASE=$(tdg_absolute "${TDG_TEST_DIR:-/tmp/tap-diffgen-test}")
DIR=$BASE/prometheus
CONFIG=$DIR/prometheus.yml
LOG=$DIR/prometheus.log
PIDFILE=$DIR/prometheus.pid

tdg_check_port "$PORT"
tdg_check_port "$TARGET_PORT"
[[ $BASE != *[[:space:]]* ]] || tdg_die "TDG_TEST_DIR must not contain white space: '$BASE'"

server_pid() {
    local pid
    pid=$(tdg_read_pid "$PIDFILE")
    if [[ -n $pid ]] && tdg_pid_alive "$pid" prometheus; then printf '%s' "$pid"; fi
    return 0
}

ready() {
    curl -fsS --max-time 2 "http://127.0.0.1:$PORT/-/ready" >/dev/null 2>&1
}

config_text() {
    cat <<YAML
# Written by tests/servers/prometheus.sh.
global:
  scrape_interval: $SCRAPE_INTERVAL
  scrape_timeout: 200ms
  evaluation_interval: 1s
scrape_configs:
  - job_name: $JOB
    static_configs:
      - targets: ['127.0.0.1:$TARGET_PORT']
YAML
}

cmd_start() {
    [[ -x $PROMETHEUS_BIN ]] ||
        tdg_die "$PROMETHEUS_BIN not found (install Debian's prometheus package)"
    mkdir -p "$DIR"
    tdg_lock "$DIR/.lock"
    local pid started wanted
    wanted=$(config_text)
    pid=$(server_pid)
    if [[ -n $pid ]]; then
        if ready && [[ -f $CONFIG && $(<"$CONFIG") == "$wanted" ]]; then
            tdg_log "reusing the running server (pid $pid, port $PORT)"
            return 0
        fi
        tdg_log "restarting the server (pid $pid): its configuration changed or it is not ready"
        tdg_stop_pid "$pid" prometheus "$PIDFILE"
    fi
    printf '%s\n' "$wanted" >"$CONFIG"
    "$PROMETHEUS_BIN" --config.file="$CONFIG" --storage.tsdb.path="$DIR/data" \
        --storage.tsdb.retention.time=1d --web.listen-address="127.0.0.1:$PORT" \
        --log.level=warn </dev/null >"$LOG" 2>&1 9>&- &
    pid=$!
    printf '%s\n' "$pid" >"$PIDFILE"
    started=$(tdg_now)
    for _ in $(seq 1 300); do
        if ready; then
            tdg_log "started (pid $pid, port $PORT, scraping 127.0.0.1:$TARGET_PORT) in" \
                "$(tdg_elapsed "$started") s"
            return 0
        fi
        tdg_pid_alive "$pid" || break
        sleep 0.1
    done
    tdg_log_tail "$LOG"
    tdg_die "prometheus did not start on 127.0.0.1:$PORT"
}

cmd_stop() {
    tdg_stop_server prometheus
}

cmd_status() {
    local pid
    pid=$(server_pid)
    [[ -n $pid ]] || return 3
    ready || return 1
}

cmd_env() {
    printf 'export TDG_TEST_PROMETHEUS_URL=%s\n' "$(tdg_quote "http://127.0.0.1:$PORT")"
    printf 'export TDG_TEST_PROMETHEUS_JOB=%s\n' "$JOB"
    printf 'export TDG_TEST_METRICS_PORT=%s\n' "$TARGET_PORT"
}

case ${1:-} in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    env) cmd_env ;;
    *)
        printf 'usage: %s start|stop|status|env\n' "$0" >&2
        exit 2
        ;;
esac
