#!/bin/sh
# io500_short_test.sh MPIEXEC HARNESS MODULE_DIR SOURCE_DIR
set -eu
mpiexec=$1 harness=$2 modules=$3 src=$4
dir=$(mktemp -d "${TMPDIR:-/tmp}/pio-io500-XXXXXX")
trap 'rm -rf "$dir"' EXIT
cd "$dir"
IO500_DIR=$dir IO500_WRITE_S=1 IO500_ITEMS=2000 IO500_UNITS=64 IO500_HARD_UNITS=256 \
  IO500_EASY_FILE=128M IO500_RND_UNITS=2048 IO500_RESULTS=$dir/io500.json \
  "$mpiexec" -n 2 "$harness" -M "$modules" -c "$src/conf/io500.conf" --quiet > out.txt 2> err.txt ||
  { cat out.txt err.txt; echo "FAIL: the harness failed"; exit 1; }
"$src/tools/pio-io500" io500.json > score.txt
cat score.txt
fail=0
for p in ior-easy-write mdtest-easy-write ior-hard-write mdtest-hard-write find ior-easy-read \
         mdtest-easy-stat ior-hard-read mdtest-hard-stat mdtest-easy-delete mdtest-hard-read \
         mdtest-hard-delete; do
  grep -Eq "^\[RESULT\] +$p +[0-9]" score.txt || { echo "FAIL: no $p"; fail=1; }
done
# ior-rnd4K-easy-read: listed last, in GiB/s, not scored (IO500's "[      ]" line).
grep -B1 "^\[SCORE \]" score.txt | head -n 1 | grep -Eq "^\[      \] +ior-rnd4K-easy-read +[0-9.]+ GiB/s" ||
  { echo "FAIL: no unscored ior-rnd4K-easy-read line before the score"; fail=1; }
# The ior writes ran under IO500's stonewall: every phase records both times and the counts.
/usr/bin/python3 - io500.json <<'PY' || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
for label in ("ior-easy-write", "ior-hard-write", "ior-rnd4K-easy-read"):
    block = next(b for b in doc["modules"] if b["label"] == label)
    for t in block["tests"]:
        for r in t["reps"]:
            for p in r["phases"]:
                ok = (p["end_check"] == "wear_out" and p["units"] == p["units_at_stop"]["max"]
                      and abs(p["stonewall_time_s"] + p["wear_out_time_s"]
                              - p["aggregate_time_s"]) < 1e-6)
                if not ok:
                    sys.exit("FAIL: %s phase %s: %s" % (label, p["label"], p))
# IO500's order, one block per phase, sharing files as IO500's phases do (FilesFrom).
order = ["ior-easy-write", "mdtest-easy-write", "ior-hard-write", "mdtest-hard-write", "find",
         "ior-easy-read", "mdtest-easy-stat", "ior-hard-read", "mdtest-hard-stat",
         "mdtest-easy-delete", "mdtest-hard-read", "mdtest-hard-delete", "ior-rnd4K-easy-read"]
labels = [b["label"] for b in doc["modules"]]
if labels != order:
    sys.exit("FAIL: blocks %s, IO500's order %s" % (labels, order))
chain = {"ior-easy-read": "ior-easy-write", "ior-hard-read": "ior-hard-write",
         "mdtest-hard-write": "mdtest-easy-write", "find": "mdtest-hard-write",
         "mdtest-easy-stat": "find", "mdtest-hard-stat": "mdtest-easy-stat",
         "mdtest-easy-delete": "mdtest-hard-stat", "mdtest-hard-read": "mdtest-easy-delete",
         "mdtest-hard-delete": "mdtest-hard-read", "ior-rnd4K-easy-read": "ior-easy-write"}
for b in doc["modules"]:
    if b.get("files_from") != chain.get(b["label"]):
        sys.exit("FAIL: %s: files_from %s, expected %s" % (b["label"], b.get("files_from"),
                                                          chain.get(b["label"])))
    if b.get("error") or any(t.get("error") for t in b["tests"]):
        sys.exit("FAIL: %s failed: %s" % (b["label"], b))
# The reads read every unit the writes completed (no more: the writes were stonewalled).
units = {b["label"]: b["tests"][0]["reps"][0]["phases"][0]["units"] for b in doc["modules"]}
for r, w in (("ior-easy-read", "ior-easy-write"), ("ior-hard-read", "ior-hard-write")):
    if units[r] != units[w]:
        sys.exit("FAIL: %s read %d units, %s wrote %d" % (r, units[r], w, units[w]))
# ior-rnd4K reads ior-easy's files with 4 KiB units of its own: not capped at ior-easy's 2 MiB units.
rnd = next(b for b in doc["modules"] if b["label"] == "ior-rnd4K-easy-read")
easy_w = next(b for b in doc["modules"] if b["label"] == "ior-easy-write")
if rnd["tests"][0]["file"] != easy_w["tests"][0]["file"]:
    sys.exit("FAIL: ior-rnd4K read %s, ior-easy wrote %s" % (rnd["tests"][0]["file"],
                                                         easy_w["tests"][0]["file"]))
if units["ior-rnd4K-easy-read"] <= units["ior-easy-write"]:
    sys.exit("FAIL: ior-rnd4K ran %d units, capped at ior-easy's %d" % (
        units["ior-rnd4K-easy-read"], units["ior-easy-write"]))
# Each metadata phase works on the items its creates made: stat/read/delete count them all.
md = {b["label"]: b for b in doc["modules"] if b["module"] == "metadata"}
for tree in ("easy", "hard"):
    made = md["mdtest-%s-write" % tree]["tests"][0]["reps"][0]["bytes"]
    for l in md:
        if l.startswith("mdtest-%s-" % tree) and l != "mdtest-%s-write" % tree:
            got = md[l]["tests"][0]["reps"][0]["bytes"]
            if got != made:
                sys.exit("FAIL: %s worked on %d items, mdtest-%s-write made %d" % (l, got, tree,
                                                                                 made))
# The metadata phases after the creates start on written-back files (Writeback on): a flush
# before each phase that is not a create, recorded in the test's params and the figure's table.
for l, b in md.items():
    t = b["tests"][0]
    create = t["params"]["phase"] == "create"
    if t["params"]["writeback"] != ("off" if create else "on"):
        sys.exit("FAIL: %s writeback param %s" % (l, t["params"]["writeback"]))
    wb = [x for x in (b.get("figure") or {}).get("tables", []) if x["name"].startswith("writeback")]
    if create == bool(wb):
        sys.exit("FAIL: %s writeback table %s" % (l, wb))
    # IO500's -Y on the creates.
    if create and t["params"].get("create_sync") != "on":
        sys.exit("FAIL: %s: create_sync is %s" % (l, t["params"].get("create_sync")))
# -X on mdtest-hard-read and -R on the ior reads are Verify timed; the rest verify nothing.
timed = {"mdtest-hard-read", "ior-easy-read", "ior-hard-read"}
for b in doc["modules"]:
    if b["verify"] != ("timed" if b["label"] in timed else "off"):
        sys.exit("FAIL: %s: verify is %s" % (b["label"], b["verify"]))
# IOR's default API, as IO500 runs it: POSIX.
for b in doc["modules"]:
    if b["module"] != "metadata" and b["interface"] != "posix":
        sys.exit("FAIL: %s: interface %s, IO500's IOR runs POSIX" % (b["label"], b["interface"]))
easy = next(b for b in doc["modules"] if b["label"] == "ior-easy-write")
if easy["tests"][0]["file_use"] != "file-per-process":
    sys.exit("FAIL: ior-easy-write is not file per process: %s" % easy["tests"][0]["file_use"])
PY
grep -q "kIOPS" score.txt || { echo "FAIL: no kIOPS"; fail=1; }
grep -q "NOT a valid IO500 result" score.txt || { echo "FAIL: short mode not marked"; fail=1; }
grep -Eq "TOTAL [0-9]*\.[0-9]*[1-9]" score.txt || { echo "FAIL: no positive score"; fail=1; }
grep -q "ops/s" out.txt || { echo "FAIL: console shows no ops/s"; fail=1; }
left=$(ls -A "$dir" | grep -v -e '^io500.json$' -e '^out.txt$' -e '^err.txt$' -e '^score.txt$' || true)
[ -z "$left" ] || { echo "FAIL: left behind: $left"; fail=1; }
exit $fail
