#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are not installed yet:
#
#   packaging/install-build-deps.sh build-essential cmake libsqlite3-dev ...
#
# Nothing is fetched when all are present; otherwise `apt-get update` runs once, then
# `apt-get install --no-install-recommends` of the missing ones only. Maintainer scripts are
# kept from starting services (a database server package must not leave a daemon running).
# Needs root only when something is missing. Progress goes to stderr; apt's own output goes
# to a log that is shown when it fails.
set -euo pipefail

POLICY_RC_D=/usr/sbin/policy-rc.d
CREATED_POLICY_RC_D=0

log() {
    printf 'install-build-deps: %s\n' "$*" >&2
}

die() {
    log "error: $*"
    exit 1
}

missing_packages() {
    local pkg
    for pkg in "$@"; do
        if [[ $(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true) != installed ]]; then
            printf '%s\n' "$pkg"
        fi
    done
}

remove_policy_rc_d() {
    if ((CREATED_POLICY_RC_D)); then
        rm -f "$POLICY_RC_D"
        CREATED_POLICY_RC_D=0
    fi
}

main() {
    (($# > 0)) || die "usage: $0 PACKAGE..."
    local missing=() pkg apt_log
    while IFS= read -r pkg; do
        missing+=("$pkg")
    done < <(missing_packages "$@")
    if ((${#missing[@]} == 0)); then
        log "all $# packages are installed"
        return 0
    fi
    local wanted=("${missing[@]}")
    log "missing packages: ${wanted[*]}"
    ((EUID == 0)) || die "not root: install them with apt-get install ${missing[*]}"

    trap remove_policy_rc_d EXIT
    if [[ ! -e $POLICY_RC_D ]]; then
        # Exit status 101 tells invoke-rc.d that starting a service is forbidden.
        printf '#!/bin/sh\nexit 101\n' >"$POLICY_RC_D"
        chmod 0755 "$POLICY_RC_D"
        CREATED_POLICY_RC_D=1
    fi
    apt_log=$(mktemp "${TMPDIR:-/tmp}/tap-diffgen-apt.XXXXXX")
    export DEBIAN_FRONTEND=noninteractive
    # Another apt run (unattended upgrades) may hold the lock for a while: wait, do not fail.
    local apt_opts=(-q -o DPkg::Lock::Timeout=300)
    log "apt-get update"
    if ! apt-get "${apt_opts[@]}" update >"$apt_log" 2>&1; then
        tail -n 30 "$apt_log" >&2
        die "apt-get update failed (log: $apt_log)"
    fi
    log "apt-get install ${missing[*]}"
    if ! apt-get "${apt_opts[@]}" install -y --no-install-recommends \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        "${missing[@]}" >>"$apt_log" 2>&1; then
        tail -n 30 "$apt_log" >&2
        die "apt-get install failed (log: $apt_log)"
    fi
    rm -f "$apt_log"
    remove_policy_rc_d

    missing=()
    while IFS= read -r pkg; do
        missing+=("$pkg")
    done < <(missing_packages "$@")
    ((${#missing[@]} == 0)) || die "still missing after apt-get install: ${missing[*]}"
    log "installed ${wanted[*]}"
}

main "$@"
