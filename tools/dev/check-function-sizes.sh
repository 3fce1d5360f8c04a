#!/bin/bash
# No function of the harness longer than 100 lines, but the declarative directive table
# (docs/architecture.md): clang-tidy's readability-function-size over harness/, with the
# build's compile commands (tests/harness runs it: about 30 s on 2 cores).
# Usage: tools/dev/check-function-sizes.sh [BUILD_DIR]   (configure with
#        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, as the top CMakeLists.txt does)
# Env:   LINES=100  ALLOW="make_table"  (functions allowed to be longer: declarative tables)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
LINES=${LINES:-100}
ALLOW=${ALLOW:-make_table}
[ -f "$BUILD/compile_commands.json" ] || {
  echo "check-function-sizes: $BUILD/compile_commands.json missing: configure the build again" >&2
  exit 2
}
command -v clang-tidy >/dev/null || { echo "check-function-sizes: apt-get install clang-tidy" >&2; exit 2; }
out=$(find "$ROOT/harness" -name '*.cpp' -print0 |
  xargs -0 -P "$(nproc)" -n 8 clang-tidy -p "$BUILD" --quiet --checks='-*,readability-function-size' \
    --config="{CheckOptions: [{key: readability-function-size.LineThreshold, value: $LINES}]}" \
    2>/dev/null | grep "warning: function '" || true)
# The check checks itself: the directive table is longer than any rule allows, so a run that does
# not report it did not see the code (clang-tidy could not parse it), and passes nothing.
if [ "$LINES" -le 100 ] && ! echo "$out" | grep -q "function 'make_table'"; then
  echo "check-function-sizes: clang-tidy reported no make_table, the one table known to be longer:" \
    "it did not read harness/ (run it by hand: clang-tidy -p $BUILD harness/config/harness_directives.cpp)" >&2
  exit 1
fi
long=$(echo "$out" | grep -v -E "function '($(echo "$ALLOW" | tr ' ' '|'))'" | grep . || true)
echo "${out:-no function over $LINES lines}" | sed "s|$ROOT/||"
if [ -n "$long" ]; then
  echo "check-function-sizes: functions of harness/ over $LINES lines (split them, or name a table in ALLOW)" >&2
  exit 1
fi
