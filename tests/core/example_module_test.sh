#!/bin/sh
# A pattern author's module (docs/examples/segment_module) built out of tree against the
# *installed* pio-bench and run by the installed pio-harness.
# Usage: SOURCE_DIR BUILD_DIR MPIEXEC
set -eu
src=$1; build=$2; mpiexec=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/install" >/dev/null
cp -r "$src/docs/examples/segment_module" "$work/example"
cmake -S "$work/example" -B "$work/example/build" -DCMAKE_PREFIX_PATH="$work/install" >/dev/null
cmake --build "$work/example/build" >/dev/null
cd "$work/example"
"$mpiexec" -n 2 "$work/install/bin/pio-harness" -c example.conf --keep-files -r "$work/r.json"
size=$(stat -c %s my-segments.testfile)
# Last test (64K): 2 ranks x 4 units x 64 KiB.
[ "$size" -eq $((2 * 4 * 65536)) ] || { echo "FAIL: file size $size"; exit 1; }
grep -q '"module": "my_segments"' "$work/r.json" || { echo "FAIL: no results"; exit 1; }
"$work/install/bin/pio-harness" --list-modules -M "$work/example/build" | grep -q my_segments
# The relocated install finds its own modules next to its executable.
"$work/install/bin/pio-harness" --list-modules | grep -q "^simple_strided .*$work/install/lib" ||
  { echo "FAIL: relocated install does not find its modules"; exit 1; }
echo "example_module: 1 passed, 0 failed"
