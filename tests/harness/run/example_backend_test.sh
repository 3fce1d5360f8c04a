#!/bin/sh
# A site's I/O backend (docs/examples/mmap_backend: `Interface mmap`, written against the SDK's
# pio/io headers) built out of tree against the *installed* pio-bench, listed by
# --list-interfaces with its option and capabilities, and run by the installed pio-harness at 1
# and 2 ranks: a pattern written and read with Verify on (every byte checked) and the metadata
# family's phases, the pattern's file byte-identical to the one Interface posix writes; its option
# validated at its line; then installed with `cmake --install` where the harness finds it.
# Usage: SOURCE_DIR BUILD_DIR MPIEXEC
set -eu
src=$1; build=$2; mpiexec=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
harness=$work/install/bin/pio-harness
cmake --install "$build" --prefix "$work/install" >/dev/null
cp -r "$src/docs/examples/mmap_backend" "$work/example"
cmake -S "$work/example" -B "$work/example/build" -DCMAKE_PREFIX_PATH="$work/install" >/dev/null
cmake --build "$work/example/build" >/dev/null
"$harness" --list-interfaces -M "$work/example/build" > "$work/list"
for want in "^mmap  ($work/example/build/mmap_backend.so)" "^    MmapPopulate *on|off" \
            "^  capabilities: metadata$" "^posix  (" "^mpiio  ("; do
  grep -q "$want" "$work/list" || { echo "FAIL: --list-interfaces lacks '$want':"; cat "$work/list"; exit 1; }
done

cd "$work/example"
for n in 1 2; do
  rm -rf mmap-* posix-*
  "$mpiexec" -n $n "$harness" -c example.conf --keep-files -r "$work/m$n.json"
  # The same write through Interface posix, for a byte-for-byte comparison of the files.
  printf 'Verify on\nInterface posix\n<ap_module>\n  ModuleName "Simple Strided (write)"\n  TestFile posix-strided.write\n  BufferSizes 4K 64K\n  WorkUnits 4\n</ap_module>\n' > posix.conf
  "$mpiexec" -n $n "$harness" -c posix.conf --keep-files -r "$work/p$n.json"
  /usr/bin/python3 - "$work/m$n.json" "$n" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
mods = r["modules"]
assert len(mods) == 3, "expected 3 blocks, got %d" % len(mods)
for m in mods:
    assert m["error"] is None, m["error"]
    assert m["interface"] == "mmap", m["interface"]
    assert m["verify"] == "on", m["verify"]
    for t in m["tests"]:
        assert t["error"] is None, t["error"]
assert mods[0]["interface_settings"] == {"MmapPopulate": "off"}, mods[0]["interface_settings"]
assert mods[1]["interface_settings"] == {"MmapPopulate": "on"}, mods[1]["interface_settings"]
for m in mods[:2]:
    assert [t["label"] for t in m["tests"]] == ["4K", "64K"], [t["label"] for t in m["tests"]]
    for t in m["tests"]:
        assert t["reps"][0]["units"] == 4 and t["reps"][0]["bytes"] == n * 4 * t["buffer_size"], t
for t in mods[2]["tests"]:
    assert t["reps"][0]["ops"] >= 50 * n, (t["label"], t["reps"][0]["ops"])
assert os.path.getsize("mmap-strided.write") == n * 4 * 65536, os.path.getsize("mmap-strided.write")
# Every item and directory was removed through the backend (the test directory itself is the
# harness's, kept by --keep-files).
assert os.listdir("mmap-metadata") == [], os.listdir("mmap-metadata")
PY
  cmp mmap-strided.write posix-strided.write ||
    { echo "FAIL: at $n ranks the file written through mmap differs from posix's"; exit 1; }
done

# The backend's option is validated from its own table, at its line.
printf 'ModulePath build\nInterface mmap\nMmapPopulate maybe\n<ap_module>\n  ModuleName null\n</ap_module>\n' > bad.conf
if "$harness" -c bad.conf --check > "$work/bad.out" 2>&1; then
  echo "FAIL: MmapPopulate maybe was accepted"; exit 1
fi
grep -q "bad.conf:3: MmapPopulate: 'maybe' is not on/off" "$work/bad.out" ||
  { echo "FAIL: the bad option's message:"; cat "$work/bad.out"; exit 1; }

# `cmake --install` puts it in the installed harness's module directory.
cmake --install "$work/example/build" >/dev/null
"$harness" --list-interfaces | grep -q "^mmap  ($work/install/lib/pio-bench/modules/mmap_backend.so)" ||
  { echo "FAIL: the installed harness does not find the installed backend"; exit 1; }
echo "example_backend: 1 passed, 0 failed"
