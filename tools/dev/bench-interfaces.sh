#!/bin/bash
# pio-bench's I/O interfaces against IOR's own backends (docs/reference/interfaces.md; a benchmark,
# not a test).
#
# For each interface X in mpiio posix hdf5, transfer size B in 64K 1M, on each DIR, at RANKS ranks,
# the same bytes two ways, interleaved over ROUNDS rounds with the order alternating (pio first in
# odd rounds, IOR first in even ones):
#   pio  pio-harness, simple_strided with strip = buffer = B (offset (unit * ranks + rank) * B),
#        WorkUnits S, TimingScope phase, FileView off, `Interface X` (mpiio: the default, no line),
#        a write block then a read block of the file the write left
#   ior  `ior -a POSIX|MPIIO|HDF5 -b B -t B -s S -g -w -r` (HDF5: and --hdf5.noFill) on the
#        same directory: the same offsets ((segment * ranks + rank) * B), IOR reading back what
#        it wrote
# S = PER_RANK / B. Transfer time only (no open/close): pio's aggregate time of the phase; IOR's
# wrRdTime (max-over-ranks end minus min-over-ranks start of the transfer loop, -g puts barriers
# around it), taken from its JSON summary as transfers / iops, which carries more digits.
# Per cell: both sides' median bandwidth (min..max over rounds) and the median of the per-round
# pio/IOR ratios of transfer time with their spread (min..max). Target: 0.95..1.05.
# Known difference: IOR's HDF5 backend makes one dataset per segment (S H5Dcreate / H5Dopen
# inside its timed loop), pio one dataset per file (made before the timed phase): see
# docs/reference/interfaces.md, "hdf5". And it leaks one dataspace per transfer (H5Dget_space, never
# closed): docs/measurements/interfaces.md, "Profiled: hdf5 64 KiB reads, one segment per rank".
#
# The IOR peer is built outside the repository (hpc/ior 4.0.0, commit 967a9f65; Debian's
# libhdf5-mpich-dev for HDF5):
#   git --git-dir=<mirror of github.com/hpc/ior> archive 4.0.0 | tar -x -C <peers>/ior-src
#   cd <peers>/ior-src && ./bootstrap
#   ./configure --prefix=<peers>/ior --with-mpiio --with-hdf5 CC=mpicc \
#     CFLAGS="-O2 -I/usr/include/hdf5/mpich" LDFLAGS="-L/usr/lib/x86_64-linux-gnu/hdf5/mpich"
#   make && make install
#
# Usage: tools/dev/bench-interfaces.sh [BUILD_DIR] [DIR...]     (default DIR: /dev/shm /var/tmp)
# Env:   IOR=<peers>/ior/bin/ior (default: ior on PATH)  ROUNDS=5  RANKS=2  SIZES="64K 1M"  PER_RANK=64M
#        INTERFACES="mpiio posix hdf5"  TIMEOUT=300 (seconds per mpiexec)
#        PATTERN=simple_strided|segmented (segmented: pio's segmented pattern against IOR -b PER_RANK
#          -t B -s 1, one segment per rank; for hdf5 the same work: IOR makes one dataset per
#          segment, so -s 1 makes one dataset per file, as pio does)
#        FILEVIEW=off|on (pio's FileView; on: each unit through the Geometry's file view, mpiio only,
#          and IOR with --mpiio.useFileView)
#        RAW=file (keep every measurement as JSON lines)
#        WARMUP=on (an untimed write of the cell's bytes before each pair of runs)
# An interface pio-harness cannot run (its `--check` of the config fails, e.g. a harness without
# the Interface directive) is reported once and its pio column left empty; IOR still runs.
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
INTERFACES=${INTERFACES:-"mpiio posix hdf5"}
FILEVIEW=${FILEVIEW:-off}
PATTERN=${PATTERN:-simple_strided}
case $PATTERN in simple_strided | segmented) ;; *) echo "bench-interfaces: PATTERN is simple_strided or segmented" >&2; exit 2 ;; esac
TIMEOUT=${TIMEOUT:-300}
WARMUP=${WARMUP:-off}
IOR=${IOR:-$(command -v ior || echo ior)}
HARNESS=$BUILD/harness/pio-harness
PY=/usr/bin/python3
CORES=$(nproc)
BENCH=bench-interfaces
. "$ROOT/tools/dev/bench-lib.sh"
export HWLOC_COMPONENTS=-pci

for exe in "$HARNESS" "$IOR"; do
  [ -x "$exe" ] || { echo "bench-interfaces: $exe not found or not executable (build it first; IOR: see this script's header)" >&2; exit 2; }
done
ior_api() { # interface -> IOR's -a
  case $1 in mpiio) echo MPIIO ;; posix) echo POSIX ;; hdf5) echo HDF5 ;;
  *) echo "bench-interfaces: unknown interface '$1' (mpiio, posix, hdf5)" >&2; exit 2 ;; esac
}
WORK=$(mktemp -d)
RAW=${RAW:-$WORK/raw.jsonl}
: > "$RAW"
cleanup() {
  rm -rf "$WORK"
  for d in "${DIRS[@]}"; do rm -f "$d"/pio-bench-interfaces.*; done
}
trap cleanup EXIT


pio_conf() { # interface size units file -> the config on stdout
  local iface=$1 size=$2 units=$3 file=$4 line=""
  [ "$iface" = mpiio ] || line="  Interface $iface"
  cat <<CONF
TestFile $file
FileView $FILEVIEW
<ap_module>
  ModuleName $PATTERN
  Mode write
$line
  TimingScope phase
  BufferSizes $size
  WorkUnits $units
</ap_module>
<ap_module>
  ModuleName $PATTERN
  Mode read
$line
  TimingScope phase
  BufferSizes $size
  WorkUnits $units
</ap_module>
CONF
}

# An untimed write of a cell's bytes, deleted at once, before the cell's two runs: on this
# virtual machine the first writer after a pause was 7x slower than the second, whichever tool.
warm_up() { # where bytes
  dd if=/dev/zero of="$1/pio-bench-interfaces.warm" bs=1M count="$(($2 >> 20))" 2>/dev/null
  rm -f "$1/pio-bench-interfaces.warm"
}

pio_run() { # where ranks interface size round file units
  local where=$1 n=$2 iface=$3 size=$4 round=$5 file=$6 units=$7
  pio_conf "$iface" "$size" "$units" "$file" > "$WORK/c.conf"
  rm -f "$WORK/r.json" "$file"
  settle "$where"
  run_mpi "$n" "$HARNESS" -c "$WORK/c.conf" -M "$BUILD/modules" -r "$WORK/r.json" --quiet >/dev/null
  $PY - "$WORK/r.json" "$where" "$n" "$iface" "$size" "$round" >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
where, n, iface, size, rnd = sys.argv[2:7]
for m in d["modules"]:
    t = m["tests"][0]
    if t.get("error"):
        sys.exit("bench-interfaces: pio-harness: %s" % t["error"])
    mode = "write" if t["params"]["mode"] == "write" else "read"
    for r in t["reps"]:
        print(json.dumps({"where": where, "ranks": int(n), "iface": iface, "size": size,
                          "side": "pio", "round": int(rnd), "mode": mode,
                          "transfer_s": r["aggregate_time_s"], "bytes": r["bytes"]}))
PYEOF
}

ior_run() { # where ranks interface size round file units
  local where=$1 n=$2 iface=$3 size=$4 round=$5 file=$6 units=$7
  local own=()
  [ "$iface" = hdf5 ] && own=(--hdf5.noFill) # as pio's dataset: space allocated, never filled
  # pio's FileView on: IOR through a file view of its own (MPI_File_set_view), the same reads
  [ "$iface" = mpiio ] && [ "$FILEVIEW" = on ] && own=(--mpiio.useFileView)
  rm -f "$file" "$WORK/ior.json"
  settle "$where"
  local shape=(-b "$size" -t "$size" -s "$units")
  [ "$PATTERN" = segmented ] && shape=(-b "$((units * $(bytes_of "$size")))" -t "$size" -s 1)
  run_mpi "$n" "$IOR" -a "$(ior_api "$iface")" "${shape[@]}" -g -w -r -i 1 \
    "${own[@]}" -o "$file" -O summaryFormat=JSON -O "summaryFile=$WORK/ior.json" >/dev/null
  $PY - "$WORK/ior.json" "$where" "$n" "$iface" "$size" "$round" "$(bytes_of "$size")" "$units" \
    >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
where, n, iface, size, rnd, b, units = sys.argv[2:9]
transfers = int(units) * int(n)
for r in d["tests"][0]["Results"]:
    # wrRdTime has 4 decimals; iops = transfers / wrRdTime carries more.
    print(json.dumps({"where": where, "ranks": int(n), "iface": iface, "size": size,
                      "side": "ior", "round": int(rnd), "mode": r["access"],
                      "transfer_s": transfers / r["iops"], "bytes": transfers * int(b)}))
PYEOF
}

per_rank=$(bytes_of "$PER_RANK")
# Which interfaces pio-harness can run: --check of each config (no I/O).
PIO_IFACES=""
for iface in $INTERFACES; do
  ior_api "$iface" >/dev/null
  pio_conf "$iface" 64K 1 "${DIRS[0]}/pio-bench-interfaces.check" > "$WORK/check.conf"
  if out=$(timeout -k 10 "$TIMEOUT" mpiexec -n 1 "$HARNESS" -c "$WORK/check.conf" -M "$BUILD/modules" \
    --check 2>&1); then
    PIO_IFACES="$PIO_IFACES $iface"
  else
    echo "bench-interfaces: pio-harness cannot run Interface $iface (its pio column stays empty):" >&2
    echo "$out" | grep -m3 . | sed 's/^/  /' >&2
  fi
done

start=$(date +%s)
echo "bench-interfaces: ROUNDS=$ROUNDS RANKS=$RANKS SIZES=\"$SIZES\" PER_RANK=$PER_RANK" \
  "INTERFACES=\"$INTERFACES\" FILEVIEW=$FILEVIEW PATTERN=$PATTERN dirs: ${DIRS[*]} IOR=$IOR"
echo "load before: $(uptime | sed 's/.*load average: //')"
for round in $(seq "$ROUNDS"); do
  for where in "${DIRS[@]}"; do
    for n in $RANKS; do
      for iface in $INTERFACES; do
        for size in $SIZES; do
          file=$where/pio-bench-interfaces.$iface
          units=$((per_rank / $(bytes_of "$size")))
          pio=false
          case " $PIO_IFACES " in *" $iface "*) pio=true ;; esac
          [ "$WARMUP" = on ] && warm_up "$where" "$((n * per_rank))"
          if [ $((round % 2)) -eq 1 ]; then
            $pio && pio_run "$where" "$n" "$iface" "$size" "$round" "$file" "$units"
            ior_run "$where" "$n" "$iface" "$size" "$round" "$file" "$units"
          else
            ior_run "$where" "$n" "$iface" "$size" "$round" "$file" "$units"
            $pio && pio_run "$where" "$n" "$iface" "$size" "$round" "$file" "$units"
          fi
          rm -f "$file"
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
MiB = 1 << 20
# side -> cell -> round -> transfer time
t = collections.defaultdict(lambda: collections.defaultdict(dict))
size_of = {}
for r in rows:
    cell = (r["where"], r["iface"], r["mode"], r["ranks"], r["size"])
    t[r["side"]][cell][r["round"]] = r["transfer_s"]
    size_of[(r["side"], cell)] = r["bytes"]
def bw(side, cell):
    v = [size_of[(side, cell)] / MiB / s for s in t[side][cell].values()]
    return "%.0f (%.0f..%.0f)" % (statistics.median(v), min(v), max(v)) if v else "-"
cells = sorted({c for s in t for c in t[s]},
               key=lambda c: (c[0], ["mpiio", "posix", "hdf5"].index(c[1]), c[2] != "write", c[3],
                              c[4][-1], int(c[4][:-1])))
print("Transfer time pio/IOR per round: median (min..max) over rounds; target 0.95..1.05")
print("best: pio's fastest round / IOR's fastest round (IOR's own headline is its Max over")
print("  iterations); where a cell is bimodal (runs fall in a fast or a slow mode, either tool),")
print("  the per-round median measures which tool drew the slow mode, best the work itself")
print("Bandwidth MiB/s of the transfer time: median (min..max) over rounds")
print("%-10s %-6s %-5s %2s %4s  %-20s %-5s %-22s %-22s" % ("where", "iface", "mode", "np", "size",
                                                          "pio/IOR time", "best", "pio MiB/s",
                                                          "IOR MiB/s"))
for c in cells:
    p, i = t["pio"].get(c, {}), t["ior"].get(c, {})
    rr = [p[k] / i[k] for k in p if k in i]
    ratio = "%.3f (%.2f..%.2f)" % (statistics.median(rr), min(rr), max(rr)) if rr else "-"
    best = "%.3f" % (min(p.values()) / min(i.values())) if p and i else "-"
    pb = bw("pio", c) if p else "-"
    ib = bw("ior", c) if i else "-"
    print("%-10s %-6s %-5s %2d %4s  %-20s %-5s %-22s %-22s" % (c[0][-10:], c[1], c[2], c[3],
                                                              c[4], ratio, best, pb, ib))
PYEOF
echo "load at end: $(uptime | sed 's/.*load average: //')"
