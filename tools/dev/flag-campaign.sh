#!/bin/bash
# How often the flags (docs/reference/results.md, "Flags") are raised where they should not be, and
# caught where they should (a developer's measurement, not a test):
#   clean     RUNS runs of a clean shipped config (CONFIG, default conf/quick.conf) at NP ranks
#             (default: the cores, at most 4), each from a scratch directory on a disk (DIR):
#             how many runs raise any flag, and which flags
#   provoked  one run per provocation, each against a clean run of the same size: a read after
#             its write with CacheMode keep (and drop), more ranks than usable cores (taskset),
#             a slow first repetition, repetitions in two groups, a bandwidth beyond the memory
#             copy rate, CPU burners beside the units, CacheMode direct on tmpfs (refused),
#             ReadShift 1 (the neighbour's bytes, checked): how many are caught
# The machine's load is printed before and after (uptime): flags such as heavy_load are the
# machine's state, not the tool's; rerun on a quiet machine to judge the clean count.
#
# Usage: tools/dev/flag-campaign.sh [BUILD_DIR]
# Env:   RUNS=20  NP=<cores, at most 4>  CONFIG=conf/quick.conf  DIR=/var/tmp  TIMEOUT=600
#        KEEP=dir (keep every results file there)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(realpath "${1:-$ROOT/build}")
RUNS=${RUNS:-20}
CORES=$(nproc)
NP=${NP:-$([ "$CORES" -lt 4 ] && echo "$CORES" || echo 4)}
CONFIG=$(realpath "${CONFIG:-$ROOT/conf/quick.conf}")
DIR=${DIR:-/var/tmp}
TIMEOUT=${TIMEOUT:-600}
HARNESS=$BUILD/harness/pio-harness
PY=/usr/bin/python3
BENCH=flag-campaign
. "$ROOT/tools/dev/bench-lib.sh"
export HWLOC_COMPONENTS=-pci

[ -x "$HARNESS" ] || { echo "$BENCH: $HARNESS not found (build first)" >&2; exit 2; }
[ -e "$BUILD/modules/test_timed_units.so" ] ||
  { echo "$BENCH: $BUILD/modules/test_timed_units.so not found (build the tests)" >&2; exit 2; }
WORK=$(mktemp -d "$DIR/pio-flag-campaign-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The flags of a results file: "name name ..." over its tests ("-" when clean).
flags_of() { # results.json
  $PY - "$1" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
names = sorted({f["flag"] for b in doc.get("modules", []) for t in b.get("tests", [])
                for f in t.get("flags", [])})
print(" ".join(names) if names else "-")
EOF
}

# Which tests carry which flag: one indented line per flag ("    wide_spread: block/test, ...").
flag_details() { # results.json
  $PY - "$1" <<'EOF'
import collections, json, sys
doc = json.load(open(sys.argv[1]))
by = collections.defaultdict(list)
for b in doc.get("modules", []):
    for t in b.get("tests", []):
        for f in t.get("flags", []):
            by[f["flag"]].append(f"{b.get('label', '')}/{t.get('label', '')}")
for flag, tests in sorted(by.items()):
    shown = ", ".join(tests[:6]) + (f", ... ({len(tests)} tests)" if len(tests) > 6 else "")
    print(f"    {flag}: {shown}")
EOF
}

harness() { # name ranks config [launcher...]: runs in $WORK/<name>, results $WORK/<name>.json
  local name=$1 n=$2 conf=$3
  shift 3
  local env=()
  [ "$n" -gt "$CORES" ] && env+=(MPIR_CVAR_POLLS_BEFORE_YIELD=1)
  mkdir -p "$WORK/$name"
  (cd "$WORK/$name" && env "${env[@]}" timeout -k 10 "$TIMEOUT" "$@" mpiexec -n "$n" "$HARNESS" \
    -c "$conf" -M "$BUILD/modules" -r "$WORK/$name.json" --quiet >"$WORK/$name.out" \
    2>"$WORK/$name.err") || return $?
}

echo "$BENCH: $(uptime)"
echo "$BENCH: $CORES cores, NP=$NP, RUNS=$RUNS, CONFIG=$CONFIG, scratch $WORK"

# --- clean runs -------------------------------------------------------------------------------
flagged=0
declare -A count=()
for i in $(seq 1 "$RUNS"); do
  if ! harness "clean$i" "$NP" "$CONFIG"; then
    echo "$BENCH: clean run $i failed:" >&2
    tail -5 "$WORK/clean$i.err" >&2
    exit 1
  fi
  f=$(flags_of "$WORK/clean$i.json")
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "clean run $i: flags: $f  (load $load)"
  flag_details "$WORK/clean$i.json"
  if [ "$f" != "-" ]; then
    flagged=$((flagged + 1))
    for x in $f; do count[$x]=$(( ${count[$x]:-0} + 1 )); done
  fi
  [ -z "${KEEP:-}" ] || cp "$WORK/clean$i.json" "$KEEP/"
done
summary=""
for x in "${!count[@]}"; do summary+=" $x:${count[$x]}"; done
echo "clean: $flagged of $RUNS runs raised a flag (runs per flag:${summary:- none})"

# --- provoked runs ----------------------------------------------------------------------------
caught=0
total=0
# expect <name> <flag> <present: 1|0> <results>: one provocation's verdict
expect() {
  local name=$1 flag=$2 want=$3 file=$4 got
  got=$(flags_of "$file")
  local has=0
  [[ " $got " == *" $flag "* ]] && has=1
  total=$((total + 1))
  if [ "$has" = "$want" ]; then
    caught=$((caught + 1))
    echo "  ok   $name: $flag $([ "$want" = 1 ] && echo raised || echo not raised) (flags: $got)"
  else
    echo "  MISS $name: $flag $([ "$want" = 1 ] && echo 'not raised' || echo 'raised') (flags: $got)"
  fi
}
conf() { # name text...: a config file in $WORK
  local name=$1
  shift
  printf '%s\n' "$@" >"$WORK/$name.conf"
  echo "$WORK/$name.conf"
}
echo "provoked (each beside a clean run of the same size):"
for mode in keep drop; do
  c=$(conf "cache_$mode" "TestFile data" "CacheMode $mode" "<ap_module>" \
    'ModuleName "Simple Strided (read)"' "BufferSizes 1M" "WorkUnits 16" "ModuleReps 3" "</ap_module>")
  harness "cache_$mode" "$NP" "$c"
done
expect "read after write, CacheMode keep" page_cache 1 "$WORK/cache_keep.json"
expect "read after write, CacheMode drop" page_cache 0 "$WORK/cache_drop.json"

timed() { # name extra-lines...
  local name=$1
  shift
  conf "$name" "<ap_module>" "ModuleName test_timed_units" "UnitSeconds 0.05" "ModuleReps 6" "$@" \
    "</ap_module>"
}
c=$(timed units)
harness units "$NP" "$c"
harness pinned 2 "$c" taskset -c 0 env MPIR_CVAR_POLLS_BEFORE_YIELD=1
expect "2 ranks on one core (taskset -c 0)" oversubscribed 1 "$WORK/pinned.json"
expect "the same, NP=$NP on $CORES cores" oversubscribed $([ "$NP" -gt "$CORES" ] && echo 1 || echo 0) \
  "$WORK/units.json"
for f in warm_up bimodal memory_bandwidth; do expect "clean units" "$f" 0 "$WORK/units.json"; done
c=$(timed slow "FirstRepSeconds 0.25")
harness slow "$NP" "$c"
expect "first repetition 5x slower" warm_up 1 "$WORK/slow.json"
c=$(timed two "RepSeconds 0.02 0.4")
harness two "$NP" "$c"
expect "repetitions of 60 ms and 1.2 s" bimodal 1 "$WORK/two.json"
expect "repetitions of 60 ms and 1.2 s" wide_spread 1 "$WORK/two.json"
c=$(timed beyond "ReturnBytes 1099511627776")
harness beyond "$NP" "$c"
expect "1 TiB per 50 ms unit" memory_bandwidth 1 "$WORK/beyond.json"
c=$(timed busy "BurnThreads $((2 * CORES))")
harness busy "$NP" "$c"
if [ -r /proc/pressure/cpu ]; then
  expect "$((2 * CORES)) spinning threads per rank" heavy_load 1 "$WORK/busy.json"
else
  echo "  skip heavy_load: no /proc/pressure/cpu here"
fi
if [ "$(grep -c '^Swap' /proc/meminfo)" -gt 0 ] && [ "$(awk '/SwapTotal/ {print $2}' /proc/meminfo)" = 0 ]; then
  echo "  skip swapping: the machine has no swap to provoke"
fi

total=$((total + 1))
c=$(conf direct "TestFile /dev/shm/pio-flag-campaign-direct" "Interface posix" "CacheMode direct" \
  "<ap_module>" 'ModuleName "Simple Strided (read)"' "</ap_module>")
if harness direct "$NP" "$c"; then
  echo "  MISS CacheMode direct on tmpfs ran"
elif grep -q "is on tmpfs" "$WORK/direct.err"; then
  caught=$((caught + 1))
  echo "  ok   CacheMode direct on tmpfs refused: $(grep -m1 -o 'CacheMode direct cannot.*tmpfs' "$WORK/direct.err")"
else
  echo "  MISS CacheMode direct on tmpfs failed without the reason (see $WORK/direct.err)"
fi

total=$((total + 1))
c=$(conf shift "TestFile data" "<ap_module>" "ModuleName test_neighbour" "Label w" "</ap_module>" \
  "<ap_module>" "ModuleName test_neighbour" "Mode read" "FilesFrom w" "ReadShift 1" "ExpectFrom 1" \
  "</ap_module>")
if harness shift "$NP" "$c"; then
  caught=$((caught + 1))
  echo "  ok   ReadShift 1: every rank read the bytes of the rank after it (checked)"
else
  echo "  MISS ReadShift 1 (see $WORK/shift.err)"
fi

echo "provoked: $caught of $total caught"
echo "$BENCH: $(uptime)"
