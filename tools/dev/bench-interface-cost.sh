#!/bin/bash
# What each I/O interface costs against raw POSIX for a pattern with a file view (a benchmark,
# not a test; docs/measurements/performance.md, "Interface cost: nested_strided").
#
# nested_strided (thesis §3.4.1, Fig. 3.6: each rank's strip of a simple strided access is itself
# strided: InnerCount rows of b bytes per tile, OuterCount tiles per unit), FileView on,
# TimingScope phase, at RANKS ranks, for each buffer size in SIZES and each COLLECTIVE setting,
# written and then read back, through each interface:
#   posix  one pwrite/pread per extent (InnerCount x OuterCount extents per rank and unit)
#   mpiio  one MPI_File_write_at(_all)/read_at(_all) per unit through the Geometry's file view
#   hdf5   one H5Dwrite/H5Dread per unit, a hyperslab union of the unit's extents
# Interleaved over ROUNDS rounds with the interface order rotating each round. Per cell: each
# interface's median bandwidth (MiB/s, transfer time of the phase: B1 end to B2 end, max over
# ranks) with min..max over rounds, and the median of the per-round ratios of transfer time
# interface/posix with their min..max (> 1: the interface costs more than raw POSIX).
#
# Usage: tools/dev/bench-interface-cost.sh [BUILD_DIR] [DIR...]      (default DIR: /dev/shm /var/tmp)
# Env:   ROUNDS=5  RANKS=2  SIZES="64K 1M"  PER_RANK=64M  COLLECTIVE="off on"
#        INNER=4  OUTER=2  TIMEOUT=300  RAW=file (keep every measurement as JSON lines)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
shift || true
DIRS=("$@")
[ ${#DIRS[@]} -gt 0 ] || DIRS=(/dev/shm /var/tmp)
ROUNDS=${ROUNDS:-5}
RANKS=${RANKS:-2}
SIZES=${SIZES:-"64K 1M"}
PER_RANK=${PER_RANK:-64M}
COLLECTIVE=${COLLECTIVE:-"off on"}
INNER=${INNER:-4}
OUTER=${OUTER:-2}
TIMEOUT=${TIMEOUT:-300}
HARNESS=$BUILD/harness/pio-harness
PY=/usr/bin/python3
CORES=$(nproc)
BENCH=bench-interface-cost
IFACES=(posix mpiio hdf5)
. "$ROOT/tools/dev/bench-lib.sh"
export HWLOC_COMPONENTS=-pci

[ -x "$HARNESS" ] || { echo "$BENCH: $HARNESS not found (build first)" >&2; exit 2; }
WORK=$(mktemp -d)
RAW=${RAW:-$WORK/raw.jsonl}
: > "$RAW"
cleanup() {
  rm -rf "$WORK"
  for d in "${DIRS[@]}"; do rm -f "$d"/pio-bench-cost.*; done
}
trap cleanup EXIT

pio_conf() { # interface size units collective file -> config on stdout
  local iface=$1 size=$2 units=$3 coll=$4 file=$5
  for mode in write read; do
    cat <<CONF
<ap_module>
  ModuleName nested_strided
  Mode $mode
  Interface $iface
  Collective $coll
  TimingScope phase
  BufferSizes $size
  InnerCount $INNER
  OuterCount $OUTER
  WorkUnits $units
</ap_module>
CONF
  done | sed "1i TestFile $file\nFileView on\nVerify off"
}

pio_run() { # where iface size coll round units
  local where=$1 iface=$2 size=$3 coll=$4 round=$5 units=$6
  local file=$where/pio-bench-cost.$iface
  pio_conf "$iface" "$size" "$units" "$coll" "$file" > "$WORK/c.conf"
  rm -f "$WORK/r.json" "$file"
  run_mpi "$RANKS" "$HARNESS" -c "$WORK/c.conf" -M "$BUILD/modules" -r "$WORK/r.json" --quiet >/dev/null
  $PY - "$WORK/r.json" "$where" "$iface" "$size" "$coll" "$round" >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
where, iface, size, coll, rnd = sys.argv[2:7]
for m in d["modules"]:
    t = m["tests"][0]
    if t.get("error"):
        sys.exit("bench-interface-cost: pio-harness: %s" % t["error"])
    for r in t["reps"]:
        print(json.dumps({"where": where, "iface": iface, "size": size, "collective": coll,
                          "mode": t["params"]["mode"], "round": int(rnd),
                          "transfer_s": r["aggregate_time_s"], "bytes": r["bytes"]}))
PYEOF
  rm -f "$file"
}

per_rank=$(bytes_of "$PER_RANK")
start=$(date +%s)
echo "$BENCH: ROUNDS=$ROUNDS RANKS=$RANKS SIZES=\"$SIZES\" PER_RANK=$PER_RANK COLLECTIVE=\"$COLLECTIVE\"" \
  "InnerCount=$INNER OuterCount=$OUTER dirs: ${DIRS[*]}"
echo "load before: $(uptime | sed 's/.*load average: //')"
for round in $(seq "$ROUNDS"); do
  for where in "${DIRS[@]}"; do
    for size in $SIZES; do
      units=$((per_rank / $(bytes_of "$size")))
      for coll in $COLLECTIVE; do
        for k in 0 1 2; do # the order rotates with the round
          pio_run "$where" "${IFACES[$(((k + round) % 3))]}" "$size" "$coll" "$round" "$units"
        done
      done
    done
  done
done
echo "load after:  $(uptime | sed 's/.*load average: //')   ($(($(date +%s) - start)) s)"
echo

$PY - "$RAW" <<'PYEOF'
import collections, json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
t = collections.defaultdict(dict)   # (cell, iface) -> round -> seconds
nbytes = {}
for r in rows:
    cell = (r["where"], r["size"], r["collective"], r["mode"])
    t[(cell, r["iface"])][r["round"]] = r["transfer_s"]
    nbytes[cell] = r["bytes"]
cells = sorted({c for c, _ in t}, key=lambda c: (c[0], c[1][-1], int(c[1][:-1]), c[2], c[3] != "write"))
def span(v, f):
    return (f % statistics.median(v)) + " (" + (f % min(v)) + ".." + (f % max(v)) + ")"
print("| where | size | collective | mode | posix MiB/s | mpiio MiB/s | hdf5 MiB/s | mpiio/posix time | hdf5/posix time |")
print("|---|---|---|---|---|---|---|---|---|")
for c in cells:
    bw = [span([nbytes[c] / (1 << 20) / s for s in t[(c, i)].values()], "%.0f")
          if t.get((c, i)) else "-" for i in ("posix", "mpiio", "hdf5")]
    ratios = []
    for i in ("mpiio", "hdf5"):
        base, other = t.get((c, "posix"), {}), t.get((c, i), {})
        v = [other[k] / base[k] for k in base if k in other]
        ratios.append(span(v, "%.2f") if v else "-")
    print("| " + " | ".join(list(c) + bw + ratios) + " |")
PYEOF
