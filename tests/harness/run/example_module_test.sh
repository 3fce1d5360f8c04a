#!/bin/sh
# A pattern author's module (docs/examples/segment_module: a Geometry and a directive list on the
# installed pattern engine, pio::patterns) built out of tree against the *installed* pio-bench,
# run by the installed pio-harness in all five temporal modes with Verify on, through MPI-IO and
# POSIX (identical files), then installed with `cmake --install` into the directory the
# installed harness searches.
# Usage: SOURCE_DIR BUILD_DIR MPIEXEC
set -eu
src=$1; build=$2; mpiexec=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/install" >/dev/null
cp -r "$src/docs/examples/segment_module" "$work/example"
cmake -S "$work/example" -B "$work/example/build" -DCMAKE_PREFIX_PATH="$work/install" >/dev/null
cmake --build "$work/example/build" >/dev/null
"$work/install/bin/pio-harness" --list-modules -M "$work/example/build" | grep -q "^my_segments " ||
  { echo "FAIL: my_segments not listed from its build directory"; exit 1; }

cd "$work/example"
# Every block ran clean, in its mode, with Verify on (the engine checked every byte it wrote or
# read) through the interface `$2`; each file holds 2 ranks x 4 units x 64 KiB after its header
# (last test, 64K).
check() {
/usr/bin/python3 - "$1" "$2" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
interface = sys.argv[2]
expect = [("write", "my-segments.write", 0), ("read", "my-segments.read", 0),
          ("read-modify-write", "my-segments.rmw", 0), ("re-read", "my-segments.re-read", 0),
          ("re-write", "my-segments.re-write", 512)]
mods = r["modules"]
assert len(mods) == 5, "expected 5 blocks, got %d" % len(mods)
for m, (mode, path, header) in zip(mods, expect):
    assert m["module"] == "my_segments", m["module"]
    assert m["error"] is None, m["error"]
    assert m["verify"] == "on", "Verify is off in block %s" % m["module_name"]
    assert m["interface"] == interface, (m["interface"], interface)
    assert [t["label"] for t in m["tests"]] == ["4K", "64K"], [t["label"] for t in m["tests"]]
    for t in m["tests"]:
        assert t["error"] is None, t["error"]
        assert t["params"]["mode"] == mode, (t["params"], mode)
        assert len(t["reps"]) == 1 and t["reps"][0]["units"] == 4, t["reps"]
        factor = 2 if mode == "read-modify-write" else 1
        assert t["reps"][0]["bytes"] == factor * 2 * 4 * t["buffer_size"], t["reps"][0]
    size = os.path.getsize(path)
    assert size == header + 2 * 4 * 65536, "%s: size %d" % (path, size)
PY
}
"$mpiexec" -n 2 "$work/install/bin/pio-harness" -c example.conf --keep-files -r "$work/r.json"
check "$work/r.json" mpiio
# The same blocks through Interface posix (docs/reference/interfaces.md): the author's Geometry
# needs nothing for it, the engine drives the interface.
mkdir "$work/mpiio" && mv my-segments.* "$work/mpiio/"
printf 'Interface posix\nInclude example.conf\n' > posix.conf
"$mpiexec" -n 2 "$work/install/bin/pio-harness" -c posix.conf --keep-files -r "$work/p.json"
check "$work/p.json" posix
for f in "$work"/mpiio/my-segments.*; do
  cmp "$f" "$(basename "$f")" || { echo "FAIL: $f differs between mpiio and posix"; exit 1; }
done

# `cmake --install` of the module puts it in the installed harness's module directory (the
# package config's PIO_BENCH_MODULE_DIR), where the harness finds it with no ModulePath.
cmake --install "$work/example/build" >/dev/null
[ -f "$work/install/lib/pio-bench/modules/my_segments.so" ] ||
  { echo "FAIL: my_segments.so not installed into $work/install/lib/pio-bench/modules"; exit 1; }
cd "$work"
"$work/install/bin/pio-harness" --list-modules | grep -q "^my_segments .*$work/install/lib" ||
  { echo "FAIL: the installed harness does not find the installed module"; exit 1; }
# The relocated install finds its own modules next to its executable.
"$work/install/bin/pio-harness" --list-modules | grep -q "^simple_strided .*$work/install/lib" ||
  { echo "FAIL: relocated install does not find its modules"; exit 1; }
echo "example_module: 1 passed, 0 failed"
