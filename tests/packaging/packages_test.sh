#!/usr/bin/env bash
# The Debian packages as a user meets them: built, judged by lintian, installed with apt, used
# against the test servers, and purged again.
#
#   packages_test.sh <source-dir> <package-build-dir> [build|install|all]
#
# `build` does step 1 alone and keeps the list of packages in <package-build-dir>, for
# `install` to do steps 2-5 with; `all` (the default) does both. The build needs neither root
# nor the servers, so it can run beside other tests; what installs packages cannot.
#
#  1. packaging/build-debs.sh builds the packages in <package-build-dir> (kept between runs, so
#     a rerun rebuilds only what changed); each package's name, size, Depends and files are
#     printed, then lintian's tags; any lintian error (E:) fails the test, and so does an ELF
#     file that is not stripped or carries an RPATH/RUNPATH;
#  2. the core package alone: --version, --about, the man page, and `sql_dialect: postgres`
#     failing with "is its package installed?";
#  3. every package: --list-plugins shows postgres, mysql and sqlite from
#     /usr/lib/<multiarch>/tap-diffgen/plugins; a real sync against the test PostgreSQL and
#     MariaDB (TDG_TEST_* environment; journal SQL from the installed package) with RECORD,
#     tombstone and STATE lines checked;
#  4. the skeleton example built in a scratch directory against the installed tap-diffgen-dev
#     alone; --plugin-dir lists it; tap-diffgen-conformance --abi-only passes; the SDK's
#     documents are where they say, and every /usr path they name exists; the SQLite driver's
#     sources installed as an example, built the same way, pass every installed case with
#     their installed overrides; the installed runner's value and paging cases pass against the
#     installed postgres and mysql plugins;
#  5. apt-get remove --purge of every package, and nothing of them left on disk.
#
# Installs system packages, so it runs as root (exit 77, a skip, otherwise) and serially; the
# EXIT trap purges the packages on failure too. Needs apt, lintian, dpkg-dev, file, perl, sqlite3
# and libsqlite3-dev (the SQLite example) and the database clients behind TDG_TEST_PG_ADMIN /
# TDG_TEST_MYSQL_ADMIN.
set -euo pipefail

if (($# < 2 || $# > 3)) || [[ ! ${3:-all} =~ ^(build|install|all)$ ]]; then
    printf 'usage: %s <source-dir> <package-build-dir> [build|install|all]\n' "$0" >&2
    exit 2
fi
source=$(cd "$1" && pwd)
package_build=$2
mode=${3:-all}

if [[ $mode != build ]] && ((EUID != 0)); then
    printf 'SKIP: installing packages needs root\n'
    exit 77
fi
for variable in TDG_TEST_PG_HOST TDG_TEST_PG_PORT TDG_TEST_PG_USER TDG_TEST_PG_PASSWORD \
    TDG_TEST_PG_DATABASE TDG_TEST_PG_ADMIN TDG_TEST_MYSQL_HOST TDG_TEST_MYSQL_PORT \
    TDG_TEST_MYSQL_USER TDG_TEST_MYSQL_PASSWORD TDG_TEST_MYSQL_DATABASE TDG_TEST_MYSQL_ADMIN; do
    [[ $mode == build || -n ${!variable:-} ]] || {
        printf 'FAIL: %s is not set (the test gets it from CTest)\n' "$variable" >&2
        exit 1
    }
done

PACKAGES=(tap-diffgen tap-diffgen-postgresql tap-diffgen-mysql tap-diffgen-sqlite tap-diffgen-dev)
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
PLUGIN_DIR=/usr/lib/$MULTIARCH/tap-diffgen/plugins
TAP=/usr/bin/tap-diffgen
export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -q -y -o DPkg::Lock::Timeout=300)

scratch=$(mktemp -d /tmp/tdg-packages-XXXXXX)

fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

step() { printf '\n== %s\n' "$*"; }

# The tap-diffgen packages dpkg knows in any state but "not installed" (dpkg-query fails when
# it knows none of them).
installed_packages() {
    { dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2>/dev/null || true; } |
        awk '$2 != "not-installed" { print $1 }'
}

purge_packages() {
    local present
    mapfile -t present < <(installed_packages)
    ((${#present[@]} == 0)) || "${APT[@]}" remove --purge "${present[@]}"
}

cleanup() {
    local status=$?
    [[ $mode == build ]] || purge_packages >/dev/null 2>&1 || true
    rm -rf "$scratch"
    exit "$status"
}
trap cleanup EXIT

# expect_in TEXT PATTERN WHAT: fail unless grep -E finds PATTERN in TEXT.
expect_in() {
    grep -qE -- "$2" <<<"$1" || fail "$3 (no line matching /$2/ in:
$1)"
}

# apt_install DEB...: apt resolves the dependencies, which the build machine already has, so
# nothing is downloaded. (--no-download would say so, but apt 2.6 then refuses local files.)
apt_install() {
    "${APT[@]}" install --no-install-recommends "$@"
}

# ---------------------------------------------------------------------------------------------
if [[ $mode != build ]]; then
    step "leftovers of an earlier run"
    purge_packages
    [[ ! -e $TAP ]] || fail "$TAP exists but belongs to no tap-diffgen package: remove it first"
fi

# The files build-debs.sh made, one a line: what `install` takes from `build`.
package_list=$package_build/packages.txt
if [[ $mode != install ]]; then
    step "build the packages (log: $package_build/build-debs.log)"
    mkdir -p "$package_build"
    rm -f "$package_list"
    if ! bash "$source/packaging/build-debs.sh" "$package_build" "$package_build/debs" \
        >"$scratch/debs.txt" 2>"$package_build/build-debs.log"; then
        tail -n 40 "$package_build/build-debs.log" >&2
        fail "packaging/build-debs.sh failed"
    fi
    cp "$scratch/debs.txt" "$package_list"
fi
[[ -f $package_list ]] || fail "no packages listed in $package_list: the build step has not run"
declare -A deb
while IFS= read -r file; do
    deb[$(dpkg-deb -f "$file" Package)]=$file
done <"$package_list"
for package in "${PACKAGES[@]}"; do
    [[ -n ${deb[$package]:-} ]] || fail "no package $package among: $(tr '\n' ' ' <"$package_list")"
done
((${#deb[@]} == ${#PACKAGES[@]})) || fail "unexpected packages: $(tr '\n' ' ' <"$package_list")"
version=$(dpkg-deb -f "${deb[tap-diffgen]}" Version)
upstream_version=${version%-*}

# The packages as files: their fields, their ELF files and lintian's verdict.
check_package_files() {
    step "the packages"
    for package in "${PACKAGES[@]}"; do
        file=${deb[$package]}
        printf '%s %s  %s bytes, installed %s KiB\n' "$package" "$(dpkg-deb -f "$file" Version)" \
            "$(stat -c %s "$file")" "$(dpkg-deb -f "$file" Installed-Size)"
        printf '  Depends: %s\n' "$(dpkg-deb -f "$file" Depends)"
        for field in Recommends Suggests Section; do
            value=$(dpkg-deb -f "$file" "$field")
            [[ -z $value ]] || printf '  %s: %s\n' "$field" "$value"
        done
        # Files only, without the directories; long lists cut.
        dpkg-deb -c "$file" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print "    " $6 }' >"$scratch/files"
        head -n 12 "$scratch/files"
        files=$(wc -l <"$scratch/files")
        ((files <= 12)) || printf '    ... %d files in all\n' "$files"
        [[ $(dpkg-deb -f "$file" Version) == "$version" ]] || fail "$package is not version $version"
    done
    expect_in "$(dpkg-deb -f "${deb[tap-diffgen-postgresql]}" Depends)" "tap-diffgen \(= $version\)" \
        "tap-diffgen-postgresql must depend on tap-diffgen (= $version)"
    expect_in "$(dpkg-deb -f "${deb[tap-diffgen-postgresql]}" Depends)" "libpq5" \
        "tap-diffgen-postgresql must depend on libpq5"
    expect_in "$(dpkg-deb -f "${deb[tap-diffgen-mysql]}" Depends)" "libmariadb3" \
        "tap-diffgen-mysql must depend on libmariadb3"
    expect_in "$(dpkg-deb -f "${deb[tap-diffgen-sqlite]}" Depends)" "libsqlite3-0" \
        "tap-diffgen-sqlite must depend on libsqlite3-0"
    expect_in "$(dpkg-deb -f "${deb[tap-diffgen-dev]}" Depends)" "tap-diffgen \(= $version\)" \
        "tap-diffgen-dev must depend on tap-diffgen (= $version)"
    expect_in "$(dpkg-deb -f "${deb[tap-diffgen]}" Depends)" "libpocofoundation" \
        "tap-diffgen must depend on the Poco library it links"
    expect_in "$(dpkg-deb -f "${deb[tap-diffgen]}" Depends)" "libssh-4" \
        "tap-diffgen must depend on libssh-4, which its SSH tunnel links"
    for client in libpq5 libmariadb3 libsqlite3; do
        ! grep -q "$client" <<<"$(dpkg-deb -f "${deb[tap-diffgen]}" Depends)" ||
            fail "the core package must not depend on a database client ($client)"
    done

    step "stripped ELF files without RPATH"
    for package in "${PACKAGES[@]}"; do
        mkdir -p "$scratch/unpacked/$package"
        dpkg-deb -x "${deb[$package]}" "$scratch/unpacked/$package"
    done
    elf_files=0
    while IFS= read -r -d '' file; do
        description=$(file -b "$file")
        [[ $description == ELF* ]] || continue
        elf_files=$((elf_files + 1))
        [[ $description == *", stripped"* ]] || fail "${file#"$scratch"/unpacked/} is not stripped"
        if readelf -d "$file" | grep -qE '\((RPATH|RUNPATH)\)'; then
            fail "${file#"$scratch"/unpacked/} has an RPATH or RUNPATH"
        fi
    done < <(find "$scratch/unpacked" -type f -print0)
    ((elf_files >= 5)) || fail "only $elf_files ELF files in the packages"
    printf '%d ELF files, all stripped, none with an RPATH\n' "$elf_files"

    step "lintian"
    lintian_status=0
    for package in "${PACKAGES[@]}"; do
        printf -- '-- %s\n' "$package"
        output=$(lintian --tag-display-limit 0 "${deb[$package]}" 2>&1) || lintian_status=1
        printf '%s\n' "${output:-(no tags)}"
        if grep -q '^E: ' <<<"$output"; then
            lintian_status=1
        fi
    done
    ((lintian_status == 0)) || fail "lintian reports errors"
}

if [[ $mode != install ]]; then
    check_package_files
fi
if [[ $mode == build ]]; then
    step "ok"
    exit 0
fi

# ---------------------------------------------------------------------------------------------
step "the core package alone"
apt_install "${deb[tap-diffgen]}"
[[ $($TAP --version) == "tap-diffgen v$upstream_version" ]] ||
    fail "--version says '$($TAP --version)', the package is $version"
expect_in "$($TAP --about --format json)" '"name": "tap-diffgen"' "--about --format json"
[[ -f /usr/share/man/man1/tap-diffgen.1.gz ]] || fail "no man page"
man_warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l \
    /usr/share/man/man1/tap-diffgen.1.gz 2>&1 >/dev/null || true)
[[ -z $man_warnings ]] || fail "the man page has warnings: $man_warnings"
expect_in "$(zcat /usr/share/man/man1/tap-diffgen.1.gz)" '^\.SH SETTINGS' "the man page lists the settings"
listing=$($TAP --list-plugins)
printf '%s\n' "$listing"
! grep -q 'tap-diffgen-dialect-' <<<"$listing" || fail "a plugin is listed without a driver package"
printf '{"sql_dialect": "postgres", "tables": [{"table_name": "t", "pk_column": "id"}]}\n' \
    >"$scratch/postgres.json"
status=0
error=$($TAP --config "$scratch/postgres.json" 2>&1 >/dev/null) || status=$?
printf '%s\n' "$error"
((status == 1)) || fail "sql_dialect postgres without its plugin exited $status, not 1"
[[ -n $error && $(wc -l <<<"$error") -eq 1 ]] || fail "the error is not one line"
expect_in "$error" '; is its package installed\? \(apt-cache search tap-diffgen lists the dialect packages\)$' \
    "sql_dialect postgres must ask whether its package is installed"

# ---------------------------------------------------------------------------------------------
step "every package"
apt_install "${deb[@]}"
[[ -s /usr/share/tap-diffgen/env.example ]] || fail "env.example is not installed"
listing=$($TAP --list-plugins)
printf '%s\n' "$listing"
for plugin in 'postgres \(alias postgresql\)' 'mysql \(alias mariadb\)' 'sqlite \(alias sqlite3\)'; do
    name=${plugin%% *}
    expect_in "$listing" "^$plugin  plugin $upstream_version, .*  $PLUGIN_DIR/tap-diffgen-dialect-$name.so  " \
        "--list-plugins must show the $name plugin from $PLUGIN_DIR"
done
! grep -q '^unusable' <<<"$listing" || fail "--list-plugins reports an unusable plugin"

# journal_sql DIALECT: the installed diffgen SQL with its objects renamed to pkgtest_*, so the
# test's journal never meets another test's in the shared database.
journal_sql() {
    sed -E 's/\bdiffgen(\w*)/pkgtest_diffgen\1/g' "/usr/share/tap-diffgen/diffgen/$1.sql"
}

# check_sync OUTPUT: one upserted row, one tombstone, a STATE with a bookmark.
check_sync() {
    local output=$1
    printf '%s\n' "$output"
    expect_in "$output" '^\{"type":"SCHEMA","stream":"pkgtest_items"' "a SCHEMA message"
    expect_in "$output" '^\{"type":"RECORD","stream":"pkgtest_items","record":\{.*"id":1,.*"name":"uno".*"is_deleted":false' \
        "the updated row as a RECORD"
    expect_in "$output" '^\{"type":"RECORD","stream":"pkgtest_items","record":\{.*"id":2,.*"is_deleted":true' \
        "the deleted row as a tombstone"
    expect_in "$output" '^\{"type":"STATE","value":\{.*"pkgtest_items"' "a STATE with the stream's bookmark"
}

step "sync from PostgreSQL"
# shellcheck disable=SC2086 # the admin client is a command line of words
{
    printf 'DROP TABLE IF EXISTS pkgtest_items;\n'
    printf 'DROP TABLE IF EXISTS pkgtest_diffgen CASCADE;\n'
    printf 'DROP TABLE IF EXISTS pkgtest_diffgen_pruned;\n'
    journal_sql postgres
    printf '%s\n' \
        'CREATE TABLE pkgtest_items (id integer PRIMARY KEY, name text);' \
        "SELECT pkgtest_diffgen_attach('pkgtest_items', 'id');" \
        "INSERT INTO pkgtest_items VALUES (1, 'one'), (2, 'two');" \
        "UPDATE pkgtest_items SET name = 'uno' WHERE id = 1;" \
        'DELETE FROM pkgtest_items WHERE id = 2;' \
        'GRANT SELECT ON pkgtest_items, pkgtest_diffgen, pkgtest_diffgen_pruned TO PUBLIC;'
} | $TDG_TEST_PG_ADMIN
cat >"$scratch/pg.json" <<EOF
{"sql_dialect": "postgresql", "host": "$TDG_TEST_PG_HOST", "port": $TDG_TEST_PG_PORT,
 "user": "$TDG_TEST_PG_USER", "password": "$TDG_TEST_PG_PASSWORD",
 "database": "$TDG_TEST_PG_DATABASE", "diffgen_table": "pkgtest_diffgen",
 "tables": [{"table_name": "pkgtest_items", "pk_column": "id"}]}
EOF
check_sync "$(cd "$scratch" && $TAP --config "$scratch/pg.json")"
# shellcheck disable=SC2086
printf '%s\n' "SELECT pkgtest_diffgen_detach('pkgtest_items');" 'DROP TABLE pkgtest_items;' \
    'DROP TABLE pkgtest_diffgen CASCADE;' 'DROP TABLE pkgtest_diffgen_pruned;' \
    'DROP FUNCTION pkgtest_diffgen_attach, pkgtest_diffgen_detach, pkgtest_diffgen_journal,' \
    '    pkgtest_diffgen_key_sql(text, text[]), pkgtest_diffgen_key_sql(text, text[], regclass),' \
    '    pkgtest_diffgen_key_value_sql, pkgtest_diffgen_key_changed_sql, pkgtest_diffgen_notify,' \
    '    pkgtest_diffgen_note_pruned;' |
    $TDG_TEST_PG_ADMIN

step "sync from MariaDB, configured through the environment (--config ENV)"
# shellcheck disable=SC2086
{
    printf 'DROP TABLE IF EXISTS pkgtest_items;\nDROP TABLE IF EXISTS pkgtest_diffgen;\n'
    printf 'DROP TABLE IF EXISTS pkgtest_diffgen_pruned;\n'
    journal_sql mysql
    printf '%s\n' \
        'CREATE TABLE pkgtest_items (id INT PRIMARY KEY, name VARCHAR(50));' \
        "CALL pkgtest_diffgen_attach('pkgtest_items');" \
        "INSERT INTO pkgtest_items VALUES (1, 'one'), (2, 'two');" \
        "UPDATE pkgtest_items SET name = 'uno' WHERE id = 1;" \
        'DELETE FROM pkgtest_items WHERE id = 2;'
} | $TDG_TEST_MYSQL_ADMIN
check_sync "$(cd "$scratch" && env TAP_DIFFGEN_SQL_DIALECT=mariadb \
    TAP_DIFFGEN_HOST="$TDG_TEST_MYSQL_HOST" TAP_DIFFGEN_PORT="$TDG_TEST_MYSQL_PORT" \
    TAP_DIFFGEN_USER="$TDG_TEST_MYSQL_USER" TAP_DIFFGEN_PASSWORD="$TDG_TEST_MYSQL_PASSWORD" \
    TAP_DIFFGEN_DATABASE="$TDG_TEST_MYSQL_DATABASE" TAP_DIFFGEN_DIFFGEN_TABLE=pkgtest_diffgen \
    TAP_DIFFGEN_TABLES='[{"table_name": "pkgtest_items", "pk_column": "id"}]' \
    $TAP --config ENV)"
# shellcheck disable=SC2086
printf '%s\n' 'DROP TABLE pkgtest_items;' 'DROP TABLE pkgtest_diffgen;' \
    'DROP TABLE pkgtest_diffgen_pruned;' 'DROP VIEW pkgtest_diffgen_triggers;' \
    'DROP PROCEDURE pkgtest_diffgen_attach;' 'DROP PROCEDURE pkgtest_diffgen_upgrade_triggers;' |
    $TDG_TEST_MYSQL_ADMIN

# ---------------------------------------------------------------------------------------------
step "a plugin built against the installed tap-diffgen-dev"
cp -r /usr/share/tap-diffgen/examples/skeleton "$scratch/skeleton"
build_skeleton() {
    cmake -S "$scratch/skeleton" -B "$scratch/skeleton-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
        cmake --build "$scratch/skeleton-build"
}
if ! build_skeleton >"$scratch/skeleton.log" 2>&1; then
    cat "$scratch/skeleton.log" >&2
    fail "the skeleton does not build against the installed SDK"
fi
sdk_dir=$(sed -n 's/^TapDiffgenSDK_DIR:PATH=//p' "$scratch/skeleton-build/CMakeCache.txt")
[[ $sdk_dir == "/usr/lib/$MULTIARCH/cmake/TapDiffgenSDK" ]] ||
    fail "the skeleton found the SDK in '$sdk_dir', not in the installed package"
mkdir "$scratch/plugins"
cp "$scratch/skeleton-build/tap-diffgen-dialect-skeleton.so" "$scratch/plugins/"
listing=$($TAP --plugin-dir "$scratch/plugins" --list-plugins)
printf '%s\n' "$listing"
expect_in "$listing" "^skeleton  plugin .*  $scratch/plugins/tap-diffgen-dialect-skeleton.so  " \
    "--plugin-dir must list the skeleton plugin"
/usr/bin/tap-diffgen-conformance --plugin "$scratch/plugins/tap-diffgen-dialect-skeleton.so" --abi-only ||
    fail "the skeleton fails the ABI-level conformance cases"
# A new dialect's own setting, declared in the plugin alone: listed and validated by the tap.
about=$($TAP --plugin-dir "$scratch/plugins" --about)
expect_in "$about" '^  - Name: rows_per_fetch$' "--about must list the skeleton's own setting"
printf '{"sql_dialect": "skeleton", "rows_per_fetch": 0, "tables": [{"table_name": "t", "pk_column": "id"}]}\n' \
    >"$scratch/skeleton.json"
status=0
error=$($TAP --plugin-dir "$scratch/plugins" --config "$scratch/skeleton.json" 2>&1 >/dev/null) || status=$?
printf '%s\n' "$error"
((status == 1)) || fail "a bad rows_per_fetch exited $status, not 1"
expect_in "$error" "0 is less than the minimum of 1 in config\['rows_per_fetch'\]$" \
    "the tap must validate the skeleton's own setting"

step "the SDK's documents, and the paths they name"
for document in /usr/share/doc/tap-diffgen-dev/README.sdk.md /usr/share/doc/tap-diffgen-dev/value-kinds.md \
    /usr/share/tap-diffgen/examples/skeleton/README.md /usr/share/tap-diffgen/examples/sqlite/README.md; do
    [[ -s $document ]] || fail "$document is not installed"
    # Every /usr path in an inline code span, <triplet> as this machine's.
    while IFS= read -r path; do
        path=${path//<triplet>/$MULTIARCH}
        [[ $path == *'<'* ]] && continue
        [[ -e $path ]] || fail "$document names $path, which is not installed"
    done < <(grep -oE '`/usr/[^` ]+`' "$document" | tr -d '`' | sort -u)
done
printf 'README.sdk.md, value-kinds.md and the examples name only installed paths\n'

step "the SQLite driver's installed sources, built against tap-diffgen-dev, pass every case"
cp -r /usr/share/tap-diffgen/examples/sqlite "$scratch/sqlite"
# As one translation unit: 20 s instead of 68 s on two cores.
if ! { cmake -S "$scratch/sqlite" -B "$scratch/sqlite-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0 &&
    cmake --build "$scratch/sqlite-build"; } >"$scratch/sqlite.log" 2>&1; then
    cat "$scratch/sqlite.log" >&2
    fail "the SQLite example does not build against the installed SDK"
fi
: >"$scratch/conformance.db"
status=0
report=$(TDG_CONFORMANCE_OPTIONS="{\"database\":\"$scratch/conformance.db\"}" \
    /usr/bin/tap-diffgen-conformance --plugin "$scratch/sqlite-build/tap-diffgen-dialect-sqlite.so" \
    --overrides "$scratch/sqlite/conformance" \
    --setup-command "sqlite3 -bail $scratch/conformance.db" 2>"$scratch/sqlite-conformance.log") ||
    status=$?
printf '%s\n' "$report"
((status == 0)) || fail "the SQLite example fails the installed conformance cases"
for case in uuid json edge-values dialect-types keyset cancel-statement horizon; do
    expect_in "$report" "^ok live/$case: " "the installed cases must hold $case"
done

# The value and paging cases that catch what passed before, run by the installed runner from the
# installed cases against the installed drivers. (cancel-statement and horizon, which wait on
# the server, run against the same drivers' code in conformance.postgres and conformance.mysql.)
new_cases=(--case uuid --case json --case edge-values --case dialect-types --case keyset)
step "the installed runner's new cases against the installed postgres plugin"
TDG_CONFORMANCE_OPTIONS="{\"host\":\"$TDG_TEST_PG_HOST\",\"port\":\"$TDG_TEST_PG_PORT\",\"user\":\"$TDG_TEST_PG_USER\",\"password\":\"$TDG_TEST_PG_PASSWORD\",\"database\":\"$TDG_TEST_PG_DATABASE\"}" \
    /usr/bin/tap-diffgen-conformance --plugin postgres --setup-command "$TDG_TEST_PG_ADMIN" \
    "${new_cases[@]}" 2>"$scratch/pg-conformance.log" ||
    fail "the installed postgres plugin fails the installed cases ($scratch/pg-conformance.log)"
step "the installed runner's new cases against the installed mysql plugin"
TDG_CONFORMANCE_OPTIONS="{\"host\":\"$TDG_TEST_MYSQL_HOST\",\"port\":\"$TDG_TEST_MYSQL_PORT\",\"user\":\"$TDG_TEST_MYSQL_USER\",\"password\":\"$TDG_TEST_MYSQL_PASSWORD\",\"database\":\"$TDG_TEST_MYSQL_DATABASE\"}" \
    /usr/bin/tap-diffgen-conformance --plugin mariadb --setup-command "$TDG_TEST_MYSQL_ADMIN" \
    "${new_cases[@]}" 2>"$scratch/mysql-conformance.log" ||
    fail "the installed mysql plugin fails the installed cases ($scratch/mysql-conformance.log)"

# ---------------------------------------------------------------------------------------------
step "purge"
"${APT[@]}" remove --purge "${PACKAGES[@]}"
left=$(installed_packages)
[[ -z $left ]] || fail "still installed after the purge: $left"
for path in "$TAP" /usr/bin/tap-diffgen-conformance "/usr/lib/$MULTIARCH/tap-diffgen" \
    "/usr/lib/$MULTIARCH/cmake/TapDiffgenSDK" /usr/include/tap-diffgen /usr/share/tap-diffgen \
    /usr/share/doc/tap-diffgen /usr/share/doc/tap-diffgen-dev /usr/share/man/man1/tap-diffgen.1.gz; do
    [[ ! -e $path ]] || fail "$path is left after the purge"
done

step "ok"
