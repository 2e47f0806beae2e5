#!/usr/bin/env bash
# Builds the skeleton dialect the way a third party would: against the installed SDK only.
#
#   build_against_installed_sdk.sh <build-dir> <source-dir>
#
# 1. cmake --install <build-dir> --component dev (and core, for the tap itself) into a scratch
#    prefix;
# 2. configures and builds the skeleton example from that prefix (share/tap-diffgen/examples)
#    with -DCMAKE_PREFIX_PATH=<prefix>, and proves the build never looked into <source-dir>;
# 3. runs the installed tap-diffgen-conformance on the plugin (ABI-level cases) and the
#    installed tap-diffgen --list-plugins, with --plugin-dir and then after installing the
#    plugin with tap_diffgen_install_dialect_plugin into the same prefix (found next to the
#    relocated executable);
# 4. builds copies of plugins/postgres and plugins/mysql on their own against that prefix too
#    (each folder is a project of its own as well as a part of the tap's build), and runs the
#    ABI-level cases on them.
set -euo pipefail

(($# == 2)) || {
    printf 'usage: %s <build-dir> <source-dir>\n' "$0" >&2
    exit 2
}
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)

scratch=$(mktemp -d /tmp/tdg-sdk-install-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
example_build=$scratch/skeleton-build

fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

step() { printf '== %s\n' "$*"; }

step "install the dev and core components into $prefix"
cmake --install "$build" --prefix "$prefix" --component dev
cmake --install "$build" --prefix "$prefix" --component core

example=$prefix/share/tap-diffgen/examples/skeleton
[[ -f $example/CMakeLists.txt ]] || fail "the skeleton example was not installed to $example"
config=$(find "$prefix" -name TapDiffgenSDKConfig.cmake -print -quit)
[[ -n $config ]] || fail "TapDiffgenSDKConfig.cmake was not installed"
if grep -rlF "$source" "$(dirname "$config")"; then
    fail "the installed CMake package refers to the source tree"
fi

step "configure and build the skeleton against the installed SDK"
# A copy outside both trees, so nothing can be found relative to the example either.
cp -r "$example" "$scratch/skeleton"
cmake -S "$scratch/skeleton" -B "$example_build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$example_build" -j2
plugin=$example_build/tap-diffgen-dialect-skeleton.so
[[ -f $plugin ]] || fail "the build did not produce $plugin"
if grep -rlF "$source/sdk" "$example_build/CMakeCache.txt" "$example_build/CMakeFiles" \
    --include='*.txt' --include='*.make' --include='*.cmake' --include='*.d'; then
    fail "the skeleton build used files of the source tree's sdk/"
fi

step "conformance, ABI-level cases"
"$prefix/bin/tap-diffgen-conformance" --plugin "$plugin" --abi-only

step "tap-diffgen --plugin-dir lists the plugin"
listing=$("$prefix/bin/tap-diffgen" --plugin-dir "$example_build" --list-plugins)
printf '%s\n' "$listing"
grep -q "^skeleton  plugin 0.1.0, sdk .*  $plugin  " <<<"$listing" ||
    fail "--list-plugins does not show the skeleton plugin from $plugin"

step "install the plugin into the tap's prefix; the relocated tap finds it on its own"
cmake --install "$example_build"
listing=$(env -u TAP_DIFFGEN_PLUGIN_PATH "$prefix/bin/tap-diffgen" --list-plugins)
printf '%s\n' "$listing"
installed="$prefix/.*/tap-diffgen/plugins/tap-diffgen-dialect-skeleton.so"
grep -q "^skeleton  plugin 0.1.0, sdk .*  $installed  " <<<"$listing" ||
    fail "the installed tap does not find the installed plugin next to itself"

for dialect in postgres mysql; do
    step "configure and build plugins/$dialect on its own against the installed SDK"
    cp -r "$source/plugins/$dialect" "$scratch/$dialect"
    cmake -S "$scratch/$dialect" -B "$scratch/$dialect-build" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build "$scratch/$dialect-build" -j2
    plugin=$scratch/$dialect-build/tap-diffgen-dialect-$dialect.so
    [[ -f $plugin ]] || fail "the standalone build of plugins/$dialect did not produce $plugin"
    if grep -rlF "$source/sdk" "$scratch/$dialect-build/CMakeCache.txt" \
        "$scratch/$dialect-build/CMakeFiles" --include='*.txt' --include='*.make' \
        --include='*.cmake' --include='*.d'; then
        fail "the standalone build of plugins/$dialect used files of the source tree's sdk/"
    fi
    "$prefix/bin/tap-diffgen-conformance" --plugin "$plugin" --abi-only
done

step "ok"
