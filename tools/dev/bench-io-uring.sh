#!/bin/bash
# The io_uring backend against the posix backend on 4 KiB random reads
# (docs/measurements/performance.md, "io_uring against posix"; a benchmark, not a test).
#
# For each DIR, ROUNDS rounds of one pio-harness run whose blocks read the same pattern through
# Interface posix and Interface io_uring at each QueueDepth of DEPTHS, in an order that rotates
# from round to round: random_offsets, Mode read, BufferSizes 4K, a file of FILE_SIZE per rank,
# WorkUnits = FILE_SIZE / 4 KiB (as many reads as the file has blocks, drawn at random, IO500's
# ior-rnd4K), TimingScope phase (so units overlap at QueueDepth > 1). Each block prepares its own
# file untimed and reads it from the page cache (tmpfs; ext4's page cache), or from the device
# with ODIRECT=on (O_DIRECT through both backends; not on tmpfs).
# Per cell: the median IOPS (min..max over rounds), the median of the per-round ratios to posix's
# IOPS in the same run with their spread, and io_uring's median p50 / p99 latency.
#
# Usage: tools/dev/bench-io-uring.sh [BUILD_DIR] [DIR...]     (default DIR: /dev/shm /var/tmp)
# Env:   ROUNDS=5  RANKS=2  DEPTHS="1 8 32"  FILE_SIZE=64M  ODIRECT=off  TIMEOUT=600
#        RAW=file (keep every measurement as JSON lines)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
shift || true
DIRS=("$@")
[ ${#DIRS[@]} -gt 0 ] || DIRS=(/dev/shm /var/tmp)
ROUNDS=${ROUNDS:-5}
RANKS=${RANKS:-2}
DEPTHS=${DEPTHS:-"1 8 32"}
FILE_SIZE=${FILE_SIZE:-64M}
ODIRECT=${ODIRECT:-off}
TIMEOUT=${TIMEOUT:-600}
HARNESS=$BUILD/harness/pio-harness
PY=/usr/bin/python3
CORES=$(nproc)
BENCH=bench-io-uring
. "$ROOT/tools/dev/bench-lib.sh"
export HWLOC_COMPONENTS=-pci
[ -x "$HARNESS" ] || { echo "$BENCH: $HARNESS not found (build first)" >&2; exit 2; }
WORK=$(mktemp -d)
RAW=${RAW:-$WORK/raw.jsonl}
: > "$RAW"
cleanup() {
  rm -rf "$WORK"
  for d in "${DIRS[@]}"; do rm -f "$d"/pio-bench-io-uring.*; done
}
trap cleanup EXIT
units=$(($(bytes_of "$FILE_SIZE") / 4096))

block() { # label interface-lines dir
  cat <<CONF
<ap_module>
  ModuleName random_offsets
  Label $1
  Mode read
  TestFile $3/pio-bench-io-uring.$1
  BufferSizes 4K
  FileSize $FILE_SIZE
  WorkUnits $units
  TimingScope phase
  ODirect $ODIRECT
$2
</ap_module>
CONF
}

cells=(posix)
for d in $DEPTHS; do cells+=("qd$d"); done
echo "$BENCH: ROUNDS=$ROUNDS RANKS=$RANKS DEPTHS=\"$DEPTHS\" FILE_SIZE=$FILE_SIZE ODIRECT=$ODIRECT" \
  "dirs: ${DIRS[*]}"
echo "load before: $(uptime | sed 's/.*load average: //')"
for round in $(seq "$ROUNDS"); do
  for where in "${DIRS[@]}"; do
    {
      echo "TestFile $where/pio-bench-io-uring.unused"
      n=${#cells[@]}
      for k in $(seq 0 $((n - 1))); do # rotate the order from round to round
        c=${cells[$(((k + round) % n))]}
        if [ "$c" = posix ]; then
          block posix "  Interface posix" "$where"
        else
          block "$c" "  Interface io_uring
  QueueDepth ${c#qd}" "$where"
        fi
      done
    } > "$WORK/c.conf"
    rm -f "$WORK/r.json"
    settle "$where"
    run_mpi "$RANKS" "$HARNESS" -c "$WORK/c.conf" -M "$BUILD/modules" -r "$WORK/r.json" \
      --quiet >/dev/null
    $PY - "$WORK/r.json" "$where" "$round" >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["modules"]:
    t = m["tests"][0]
    if t.get("error"):
        sys.exit("bench-io-uring: pio-harness: %s" % t["error"])
    p = t["reps"][0]["phases"][0]
    lat = p.get("latency") or {}
    print(json.dumps({"where": sys.argv[2], "round": int(sys.argv[3]), "cell": m["label"],
                      "iops": p["bytes"] / 4096 / p["aggregate_time_s"],
                      "p50_us": lat.get("percentiles_us", {}).get("p50"),
                      "p99_us": lat.get("percentiles_us", {}).get("p99")}))
PYEOF
  done
done
echo "load after: $(uptime | sed 's/.*load average: //')"
$PY - "$RAW" "${cells[@]}" <<'PYEOF'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cells = sys.argv[2:]
def span(v): return "%.0f (%.0f..%.0f)" % (st.median(v), min(v), max(v))
print("| where | cell | IOPS median (min..max) | / posix median (min..max) | p50 us | p99 us |")
print("|---|---|---|---|---|---|")
for where in dict.fromkeys(r["where"] for r in rows):
    base = {r["round"]: r["iops"] for r in rows if r["where"] == where and r["cell"] == "posix"}
    for c in cells:
        rs = [r for r in rows if r["where"] == where and r["cell"] == c]
        ratio = [r["iops"] / base[r["round"]] for r in rs]
        p50 = [r["p50_us"] for r in rs if r["p50_us"] is not None]
        p99 = [r["p99_us"] for r in rs if r["p99_us"] is not None]
        print("| %s | %s | %s | %.2f (%.2f..%.2f) | %s | %s |" % (
            where, c, span([r["iops"] for r in rs]), st.median(ratio), min(ratio), max(ratio),
            "%.1f" % st.median(p50) if p50 else "-", "%.1f" % st.median(p99) if p99 else "-"))
PYEOF
