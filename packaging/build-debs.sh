#!/usr/bin/env bash
# Builds the Debian packages of tap-diffgen:
#
#   packaging/build-debs.sh [BUILD_DIR [OUT_DIR]]
#
# Configures BUILD_DIR (default: build-deb) for the packages: -DCMAKE_INSTALL_PREFIX=/usr, so
# GNUInstallDirs gives the multiarch libdir the plugins are installed to and looked up in; no
# test suite; Debian's compiler and linker flags (dpkg-buildflags, all hardening on); a unity
# build (each target's sources compiled in batches of 16: a full build in half the time). Then it
# builds with TDG_JOBS parallel jobs (default 2) and runs cpack. The packages end up in OUT_DIR
# (default: BUILD_DIR/debs), whose older .deb files are removed first; their paths are printed
# on stdout, one a line. BUILD_DIR is kept, so a second run rebuilds only what changed.
#
# Needs: cmake, a C++ compiler, the -dev packages of the build, dpkg-dev (dpkg-buildflags,
# dpkg-shlibdeps) and file (cpack's test for binaries).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(realpath -m "${1:-$ROOT/build-deb}")
OUT=$(realpath -m "${2:-$BUILD/debs}")
JOBS=${TDG_JOBS:-2}
# dpkg-buildflags maps the current directory away in -ffile-prefix-map: make it the source.
cd "$ROOT"

log() {
    printf 'build-debs: %s\n' "$*" >&2
}

for tool in cmake cpack dpkg-buildflags dpkg-shlibdeps file; do
    command -v "$tool" >/dev/null 2>&1 || {
        log "error: $tool not found (apt-get install cmake dpkg-dev file)"
        exit 1
    }
done

export DEB_BUILD_MAINT_OPTIONS=hardening=+all
flags() {
    dpkg-buildflags --get "$1"
}
# CMake has no CPPFLAGS: the preprocessor flags (_FORTIFY_SOURCE) go with the compiler's.
c_flags="$(flags CFLAGS) $(flags CPPFLAGS)"
cxx_flags="$(flags CXXFLAGS) $(flags CPPFLAGS)"
ld_flags=$(flags LDFLAGS)

log "configuring $BUILD"
cmake -S "$ROOT" -B "$BUILD" \
    -DCMAKE_INSTALL_PREFIX=/usr \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTAP_DIFFGEN_BUILD_TESTS=OFF \
    -DTAP_DIFFGEN_SANITIZE=OFF \
    -DCMAKE_UNITY_BUILD=ON \
    "-DCMAKE_C_FLAGS=$c_flags" \
    "-DCMAKE_CXX_FLAGS=$cxx_flags" \
    "-DCMAKE_EXE_LINKER_FLAGS=$ld_flags" \
    "-DCMAKE_SHARED_LINKER_FLAGS=$ld_flags" \
    "-DCMAKE_MODULE_LINKER_FLAGS=$ld_flags" >&2

log "building with $JOBS jobs"
cmake --build "$BUILD" -j"$JOBS" >&2

mkdir -p "$OUT"
rm -f "$OUT"/*.deb
log "running cpack into $OUT"
(cd "$BUILD" && cpack -G DEB -B "$OUT") >&2
rm -rf "$OUT/_CPack_Packages"

shopt -s nullglob
debs=("$OUT"/*.deb)
((${#debs[@]} > 0)) || {
    log "error: cpack made no .deb in $OUT"
    exit 1
}
printf '%s\n' "${debs[@]}"
