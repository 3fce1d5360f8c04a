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
# The metadata phases after the creates start on written-back files (Writeback on): a flush per
# phase that is not a create, recorded in the test's params and the figure's writeback table.
md = next(b for b in doc["modules"] if b["label"] == "mdtest")
later = [t["label"] for t in md["tests"] if t["params"]["phase"] != "create"]
flag = {t["label"]: t["params"]["writeback"] for t in md["tests"]}
if len(later) != 6 or any(flag[l] != ("on" if l in later else "off") for l in flag):
    sys.exit("FAIL: mdtest writeback params: %s" % flag)
wb = [t for t in md["figure"]["tables"] if t["name"].startswith("writeback")]
if not wb or [r[0] for r in wb[0]["rows"]] != later:
    sys.exit("FAIL: mdtest writeback table %s, phases %s" % (wb, later))
# IO500's -Y on the creates; -X on mdtest-hard-read and -R on the ior reads are Verify timed,
# the writes and ior-rnd4K-easy-read verify nothing.
for t in md["tests"]:
    if t["params"]["phase"] == "create" and t["params"].get("create_sync") != "on":
        sys.exit("FAIL: mdtest %s: create_sync is %s" % (t["label"], t["params"].get("create_sync")))
timed = {"mdtest", "ior-easy-read", "ior-hard-read"}
for b in doc["modules"]:
    if b["verify"] != ("timed" if b["label"] in timed else "off"):
        sys.exit("FAIL: %s: verify is %s" % (b["label"], b["verify"]))
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
