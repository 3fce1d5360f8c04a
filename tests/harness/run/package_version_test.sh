#!/bin/sh
# find_package(pio-bench X.Y) against the installed tree follows the module API
# (cmake/pio-bench-config-version.cmake.in, docs/guides/writing-a-module.md "Versions and the module
# API"): the version is 0.<API>.<patch>; a version of this API is found, one of another API (0.4,
# whose line went through APIs 7 to 9), an unknown line or a newer one is refused with the
# reason in CMake's error.
# Usage: BUILD_DIR
set -eu
build=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/install" >/dev/null
api=$(sed -n 's/.*kApiVersion = \([0-9]*\);.*/\1/p' "$work/install/include/pio/version.hpp")
version=$(sed -n 's/^set(PACKAGE_VERSION "\([0-9.]*\)")$/\1/p' \
  "$work/install/lib/cmake/pio-bench/pio-bench-config-version.cmake")
line=${version%.*}
mkdir "$work/p"
cat > "$work/p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(p C CXX)
find_package(pio-bench ${ASK} REQUIRED)
message(STATUS "found pio-bench ${pio-bench_VERSION} module API ${PIO_BENCH_MODULE_API}")
CM
failed=0; passed=0
# configure ASK: prints CMake's output to $work/out, returns its status
configure() {
  rm -rf "$work/b"
  cmake -S "$work/p" -B "$work/b" -DASK="$1" -DCMAKE_PREFIX_PATH="$work/install" >"$work/out" 2>&1
}
expect_found() {
  if configure "$1" && grep -q "found pio-bench $version module API $api" "$work/out"; then
    passed=$((passed + 1))
  else
    echo "FAIL: find_package(pio-bench $1) did not find $version (API $api):"; cat "$work/out"
    failed=$((failed + 1))
  fi
}
# expect_refused ASK TEXT...: refused, and CMake's message holds every TEXT
expect_refused() {
  ask=$1; shift
  if configure "$ask"; then
    echo "FAIL: find_package(pio-bench $ask) accepted $version:"; cat "$work/out"
    failed=$((failed + 1)); return
  fi
  flat=$(tr '\n' ' ' < "$work/out" | tr -s ' ')
  for text in "compatible with requested version \"$ask\"" "version: $version (module API $api; " "$@"; do
    case $flat in
    *"$text"*) ;;
    *) echo "FAIL: find_package(pio-bench $ask): no '$text' in:"; cat "$work/out"
       failed=$((failed + 1)); return ;;
    esac
  done
  passed=$((passed + 1))
}
expect_found ""
expect_found "$line"
expect_found "$version"
[ "$api" -ne 1 ] && expect_refused 0.1 "0.1 asked for has module API 1: port the module" \
  "docs/guides/writing-a-module.md, 'Migrating between module API versions') and ask for $line)"
[ "$api" -ne 5 ] && expect_refused 0.2 "0.2 asked for has module API 5: port the module"
# 0.4 went through module APIs 7, 8 and 9: a module written for it is refused, whichever it has.
expect_refused 0.4 "0.4 asked for has module API 7 to 9: port the module"
# From API 10 on the release line is the API: the package's own line only.
[ "$line" = "0.$api" ] || { echo "FAIL: version $version is not 0.$api.<patch> (module API $api)"; failed=$((failed + 1)); }
expect_refused "0.$((api + 1))" "older than the 0.$((api + 1)) asked for"
expect_refused 0.9 "no pio-bench 0.9 release is known"
expect_refused 9.0 "older than the 9.0 asked for"
echo "package_version: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
