#!/bin/bash
# Parity benchmark of pio-harness against IOR's MPI-IO calls (docs/measurements/performance.md; not
# a test).
#
# The same bytes and offsets three ways, interleaved over ROUNDS rounds in an order that
# rotates from round to round:
#   pio-phase  pio-harness, simple_strided, strip = buffer (offset (unit * ranks + rank) * B),
#              FileView off, TimingScope phase (one B1 before the units, one B2 after)
#   pio-unit   the same with TimingScope unit (B1 and B2 around every unit, the default)
#   hand       tools/dev/overhead/hand_io: the MPI-IO calls IOR makes for
#              `ior -a MPIIO -b B -t B -s S -g -w -r`, timed as IOR times them
#   hand-unit  the same calls with the harness's per-unit synchronisation
#   ior        the real IOR (only when IOR=/path/to/ior is given), same arguments
# for write and read, 64 KiB and 1 MiB transfers, PER_RANK bytes per rank.
# Transfer time only (no open/close): pio's aggregate time of the phase; hand's and IOR's
# max-over-ranks end minus min-over-ranks start of the transfer loop (IOR's wrRdTime, taken
# from its JSON summary as transfers / iops, which carries more digits). Each side is scored by
# its median bandwidth over the rounds, with the min..max over rounds; the ratios compare
# medians, and "rounds" gives the range of the per-round ratios (neighbouring runs).
# Then the harness's cost per unit beyond its two barriers, with the null module; and the
# harness's cost per unit of a phase-scope window, 4 KiB random reads against a pread loop.
#
# Usage: tools/dev/bench-overhead.sh [BUILD_DIR] [DIR...]        (default DIR: /dev/shm)
# Env:   IOR=/path/to/ior  ROUNDS=7  RANKS="2"  SIZES="64K 1M"  PER_RANK=128M  REPS=1
#        TIMEOUT=300 (seconds per mpiexec)  RAW=file (keep every measurement as JSON lines)
#        RND_UNITS=65536 (units per rank of the 4 KiB random-read cell)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
shift || true
DIRS=("$@")
[ ${#DIRS[@]} -gt 0 ] || DIRS=(/dev/shm)
ROUNDS=${ROUNDS:-7}
RANKS=${RANKS:-2}
SIZES=${SIZES:-"64K 1M"}
PER_RANK=${PER_RANK:-128M}
REPS=${REPS:-1}
TIMEOUT=${TIMEOUT:-300}
RND_UNITS=${RND_UNITS:-65536}
IOR=${IOR:-}
HARNESS=$BUILD/harness/pio-harness
HAND=$BUILD/tools/dev/overhead/hand_io
PY=/usr/bin/python3
CORES=$(nproc)
BENCH=bench-overhead
. "$ROOT/tools/dev/bench-lib.sh"
export HWLOC_COMPONENTS=-pci

for exe in "$HARNESS" "$HAND" ${IOR:+"$IOR"}; do
  [ -x "$exe" ] || { echo "bench-overhead: $exe not found or not executable (build it first)" >&2; exit 2; }
done
WORK=$(mktemp -d)
RAW=${RAW:-$WORK/raw.jsonl}
: > "$RAW"
cleanup() {
  rm -rf "$WORK"
  for d in "${DIRS[@]}"; do rm -f "$d"/pio-bench-overhead.* "$d"/pio-bench-overhead-rnd.* "$d"/pio-bench-overhead-hand.*; done
}
trap cleanup EXIT

record() { # where ranks size side round mode transfer_s own_s bytes
  printf '{"where":"%s","ranks":%s,"size":"%s","side":"%s","round":%s,"mode":"%s","transfer_s":%s,"own_s":%s,"bytes":%s}\n' "$@" >> "$RAW"
}

pio_run() { # where ranks size scope round file units
  local where=$1 n=$2 size=$3 scope=$4 round=$5 file=$6 units=$7
  cat > "$WORK/c.conf" <<CONF
TestFile $file
FileView off
<ap_module>
  ModuleName simple_strided
  Mode write
  TimingScope $scope
  ModuleReps $REPS
  BufferSizes $size
  WorkUnits $units
</ap_module>
<ap_module>
  ModuleName simple_strided
  Mode read
  TimingScope $scope
  ModuleReps $REPS
  BufferSizes $size
  WorkUnits $units
</ap_module>
CONF
  rm -f "$WORK/r.json" "$file"
  run_mpi "$n" "$HARNESS" --quiet -c "$WORK/c.conf" -M "$BUILD/modules" -r "$WORK/r.json" >/dev/null
  $PY - "$WORK/r.json" "$where" "$n" "$size" "pio-$scope" "$round" >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
where, n, size, side, rnd = sys.argv[2:7]
for m in d["modules"]:
    mode = "write" if m["tests"][0]["params"]["mode"] == "write" else "read"
    for r in m["tests"][0]["reps"]:
        print(json.dumps({"where": where, "ranks": int(n), "size": size, "side": side,
                          "round": int(rnd), "mode": mode, "transfer_s": r["aggregate_time_s"],
                          "own_s": r["rank_time_s"]["max"], "bytes": r["bytes"]}))
PYEOF
}

hand_run() { # where ranks size scope round file units
  local where=$1 n=$2 size=$3 scope=$4 round=$5 file=$6 units=$7 side=hand
  [ "$scope" = unit ] && side=hand-unit
  rm -f "$file"
  run_mpi "$n" "$HAND" ior "$file" "$(bytes_of "$size")" "$units" "$REPS" "$scope" > "$WORK/h.txt"
  while read -r mode t own b; do
    record "$where" "$n" "$size" "$side" "$round" "$mode" "$t" "$own" "$b"
  done < "$WORK/h.txt"
}

ior_run() { # where ranks size round file units
  local where=$1 n=$2 size=$3 round=$4 file=$5 units=$6
  rm -f "$file" "$WORK/ior.json"
  run_mpi "$n" "$IOR" -a MPIIO -b "$size" -t "$size" -s "$units" -g -w -r -i "$REPS" -o "$file" \
    -O summaryFormat=JSON -O "summaryFile=$WORK/ior.json" >/dev/null
  $PY - "$WORK/ior.json" "$where" "$n" "$size" "$round" "$(bytes_of "$size")" "$units" >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
where, n, size, rnd, b, units = sys.argv[2:8]
transfers = int(units) * int(n)
for r in d["tests"][0]["Results"]:
    # wrRdTime has 4 decimals; iops = transfers / wrRdTime carries more.
    print(json.dumps({"where": where, "ranks": int(n), "size": size, "side": "ior",
                      "round": int(rnd), "mode": r["access"], "transfer_s": transfers / r["iops"],
                      "own_s": None, "bytes": transfers * int(b)}))
PYEOF
}

per_rank=$(bytes_of "$PER_RANK")
start=$(date +%s)
echo "bench-overhead: ROUNDS=$ROUNDS RANKS=\"$RANKS\" SIZES=\"$SIZES\" PER_RANK=$PER_RANK REPS=$REPS" \
  "dirs: ${DIRS[*]}${IOR:+ IOR=$IOR}"
echo "load before: $(uptime | sed 's/.*load average: //')"
for round in $(seq "$ROUNDS"); do
  for where in "${DIRS[@]}"; do
    for n in $RANKS; do
      for size in $SIZES; do
        file=$where/pio-bench-overhead.$n
        units=$((per_rank / $(bytes_of "$size")))
        # The sides in an order that rotates from round to round: on tmpfs a file's speed
        # follows the order files were created in (tools/dev/tmpfs-placement.sh), so a fixed
        # order would favour one side in every round.
        sides=(pio-phase pio-unit hand-phase hand-unit)
        [ -n "$IOR" ] && sides+=(ior)
        for k in "${!sides[@]}"; do
          case ${sides[$(((k + round) % ${#sides[@]}))]} in
          pio-phase) pio_run "$where" "$n" "$size" phase "$round" "$file" "$units" ;;
          pio-unit) pio_run "$where" "$n" "$size" unit "$round" "$file" "$units" ;;
          hand-phase) hand_run "$where" "$n" "$size" phase "$round" "$file" "$units" ;;
          hand-unit) hand_run "$where" "$n" "$size" unit "$round" "$file" "$units" ;;
          ior) ior_run "$where" "$n" "$size" "$round" "$file" "$units" ;;
          esac
        done
        rm -f "$file"
      done
    done
  done
done
echo "load after:  $(uptime | sed 's/.*load average: //')   ($(($(date +%s) - start)) s)"
echo

$PY - "$RAW" <<'PYEOF'
import collections, json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
MiB = 1 << 20
# side -> cell -> round -> [bandwidths of the round's repetitions]
bw = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
own = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    cell = (r["where"], r["mode"], r["ranks"], r["size"])
    bw[r["side"]][cell][r["round"]].append(r["bytes"] / MiB / r["transfer_s"])
    if r["own_s"]:
        own[r["side"]][cell].append(r["bytes"] / r["ranks"] / MiB / r["own_s"])
def per_round(side, cell):  # round -> median over the round's repetitions
    return {k: statistics.median(v) for k, v in bw[side][cell].items()}
def score(side, cell):
    v = list(per_round(side, cell).values())
    return (statistics.median(v), min(v), max(v)) if v else None
def ratio(a, b, cell):
    sa, sb = score(a, cell), score(b, cell)
    if not sa or not sb:
        return "-"
    ra, rb = per_round(a, cell), per_round(b, cell)
    rr = [ra[k] / rb[k] for k in ra if k in rb]
    return "%.3f (%.2f..%.2f)" % (sa[0] / sb[0], min(rr), max(rr))
cells = sorted({c for s in bw for c in bw[s]}, key=lambda c: (c[0], c[1] != "write", c[2], c[3]))
sides = [s for s in ("pio-phase", "pio-unit", "hand", "hand-unit", "ior") if s in bw]
print("Bandwidth MiB/s of the transfer time: median over rounds (min..max)")
print("%-10s %-5s %2s %4s " % ("where", "mode", "np", "size") +
      " ".join("%-22s" % s for s in sides))
for c in cells:
    out = []
    for s in sides:
        sc = score(s, c)
        out.append("%-22s" % ("%.0f (%.0f..%.0f)" % sc if sc else "-"))
    print("%-10s %-5s %2d %4s " % (c[0][-10:], c[1], c[2], c[3]) + " ".join(out))
print()
print("Ratios of medians (range of per-round ratios); target for reads 0.97..1.03")
heads = ["phase/hand", "unit/hand-unit", "unit/phase"] + (["phase/ior", "hand/ior"] if "ior" in bw else [])
print("%-10s %-5s %2s %4s " % ("where", "mode", "np", "size") + " ".join("%-20s" % h for h in heads))
for c in cells:
    out = [ratio("pio-phase", "hand", c), ratio("pio-unit", "hand-unit", c), ratio("pio-unit", "pio-phase", c)]
    if "ior" in bw:
        out += [ratio("pio-phase", "ior", c), ratio("hand", "ior", c)]
    print("%-10s %-5s %2d %4s " % (c[0][-10:], c[1], c[2], c[3]) + " ".join("%-20s" % o for o in out))
print()
print("Per-rank own time (slowest rank's sum of its transfer calls), MiB/s per rank, median;")
print("and the per-unit barrier's cost: (unit - phase aggregate time) / units, µs, median")
print("%-10s %-5s %2s %4s %12s %12s %8s %14s %14s" % ("where", "mode", "np", "size", "pio own", "hand own", "pio/hand", "pio barrier µs", "hand barrier µs"))
def tmed(side, cell):
    return statistics.median([r["transfer_s"] for r in rows if r["side"] == side and
                              (r["where"], r["mode"], r["ranks"], r["size"]) == cell])
for c in cells:
    po, ho = own["pio-phase"].get(c), own["hand"].get(c)
    size_b = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[c[3][-1].upper()] * int(c[3][:-1])
    nunits = next(r["bytes"] for r in rows if (r["where"], r["mode"], r["ranks"], r["size"]) == c) // c[2] // size_b
    pb = (tmed("pio-unit", c) - tmed("pio-phase", c)) / nunits * 1e6
    hb = (tmed("hand-unit", c) - tmed("hand", c)) / nunits * 1e6
    print("%-10s %-5s %2d %4s %12.0f %12.0f %8.3f %14.2f %14.2f" % (
        c[0][-10:], c[1], c[2], c[3], statistics.median(po), statistics.median(ho),
        statistics.median(po) / statistics.median(ho), pb, hb))
PYEOF

# µs per unit of one harness run: the median over its repetitions of aggregate time / units.
pio_us_per_unit() { # ranks conf json
  run_mpi "$1" "$HARNESS" --quiet -c "$2" -M "$BUILD/modules" -r "$3" >/dev/null
  $PY -c 'import json,sys,statistics; d=json.load(open(sys.argv[1])); print(statistics.median(r["aggregate_time_s"]/r["units"] for r in d["modules"][0]["tests"][0]["reps"])*1e6)' "$3"
  rm -f "$3"
}
# One line of a per-unit cell: each side's median (min..max) over rounds, and pio - hand per round.
per_unit_line() { # ranks pio_1..pio_k hand_1..hand_k
  $PY -c 'import sys,statistics as s; n=int(sys.argv[1]); k=(len(sys.argv)-2)//2
p=[float(x) for x in sys.argv[2:2+k]]; h=[float(x) for x in sys.argv[2+k:]]
d=[a-b for a,b in zip(p,h)]
print("%-6d %20s %20s %26s" % (n, "%.3f (%.3f..%.3f)" % (s.median(p), min(p), max(p)),
      "%.3f (%.3f..%.3f)" % (s.median(h), min(h), max(h)),
      "%.3f (%.3f..%.3f)" % (s.median(d), min(d), max(d))))' "$@"
}

# Rounds of pio on a config against a hand loop, alternating which goes first, per rank count.
per_unit_cell() { # conf hand_command (called with the rank count)
  local conf=$1 hand=$2 n round pios hands
  for n in $RANKS; do
    pios=()
    hands=()
    for round in $(seq "$ROUNDS"); do
      if [ $((round % 2)) = 1 ]; then
        pios+=("$(pio_us_per_unit "$n" "$conf" "$WORK/u.json")")
        hands+=("$("$hand" "$n")")
      else
        hands+=("$("$hand" "$n")")
        pios+=("$(pio_us_per_unit "$n" "$conf" "$WORK/u.json")")
      fi
    done
    per_unit_line "$n" "${pios[@]}" "${hands[@]}"
  done
}
null_hand() { run_mpi "$1" "$HAND" barriers 2000 3; }
pread_hand() { # the median of its 5 repetitions
  run_mpi "$1" "$HAND" pread "${DIRS[0]}/pio-bench-overhead-hand" "$RND_UNITS" $((256 << 20)) 5 |
    sort -n | sed -n 3p
}

echo
echo "Harness cost per unit beyond its synchronisation (null module, 2000 units; hand: the same three"
echo "allreduces)"
printf "%-6s %20s %20s %26s\n" ranks "pio µs/unit" "hand µs/unit" "pio - hand per round µs"
cat > "$WORK/n.conf" <<CONF
TestFile $WORK/unused
<ap_module>
  ModuleName null
  ModuleReps 3
  WorkUnits 2000
</ap_module>
CONF
per_unit_cell "$WORK/n.conf" null_hand

echo
echo "Harness cost per unit of a phase-scope window (random_offsets, posix, 4 KiB reads, $RND_UNITS units"
echo "of a 256 MiB file per rank in ${DIRS[0]}, 5 repetitions; hand: hand_io pread, the same preads)"
printf "%-6s %20s %20s %26s\n" ranks "pio µs/unit" "hand µs/unit" "pio - hand per round µs"
cat > "$WORK/p.conf" <<CONF
TestFile $WORK/unused
<ap_module>
  ModuleName random_offsets
  Mode read
  TestFile ${DIRS[0]}/pio-bench-overhead-rnd
  BufferSizes 4K
  FileSize 256M
  WorkUnits $RND_UNITS
  TimingScope phase
  ModuleReps 5
  Interface posix
</ap_module>
CONF
per_unit_cell "$WORK/p.conf" pread_hand
echo "load at end: $(uptime | sed 's/.*load average: //')"
