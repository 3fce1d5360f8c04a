#!/bin/bash
# The replay module against the programs it replays (docs/measurements/replay.md, "Measured"; a
# developer benchmark, not a test).
#
# Cases, each a real program on DIR, traced with `strace -f -ttt -T -y`, then its trace replayed
# by pio-harness (module replay, Interface posix, TimingScope phase, Timing asap, Verify off) on a
# file of its own in the same directory:
#   dd-1M-write   dd if=/dev/zero bs=1M,   SIZE bytes          (few large writes)
#   dd-4K-write   dd if=/dev/zero bs=4K,   SMALL bytes         (many small writes)
#   dd-1M-read    dd of=/dev/null bs=1M of the file dd-1M-write left (a read replay: the harness
#                 prepares its own file, untimed, then reads it)
#   mpi-64K-write tests/modules/replay/mpi_writer at RANKS ranks, 64K blocks, MPI_BYTES per rank
#                 (the write phase; replayed at RANKS ranks, TraceRanks exact)
# interleaved over ROUNDS rounds (the program first in odd rounds, the replay first in even).
# Per case, median (min..max) over rounds of:
#   replay/traced  the replay's bandwidth over the traced program's own on the same operations:
#                  replay = bytes / the union of its timed operations; traced = the trace's
#                  bytes / the union of its operations' intervals (strace -T), both as the
#                  replay's figure states them ("replay", "recorded")
#   replay/dd      the replay's bandwidth over dd's own untraced figure (bytes / its elapsed time,
#                  open and close included; dd cases only)
#   cost/op        the replay's own time per operation beyond the I/O: the phase's elapsed time
#                  less its aggregate (timed) time, over the operations (hooks, the operation
#                  store, the loop's bookkeeping)
#   load/line      the block's start to its test's start (reading the trace, sorting, the first
#                  describe) over the trace's lines
# The machine is shared: `uptime` is printed before and after; rerun on a quiet machine.
#
# Usage: tools/dev/bench-replay.sh [BUILD_DIR] [DIR]          (default DIR: /dev/shm)
# Env:   ROUNDS=5  SIZE=64M  SMALL=16M  RANKS=2  MPI_BYTES=8M  TIMEOUT=300  RAW=file (JSON lines)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
DIR=${2:-/dev/shm}
ROUNDS=${ROUNDS:-5}
SIZE=${SIZE:-64M}
SMALL=${SMALL:-16M}
RANKS=${RANKS:-2}
MPI_BYTES=${MPI_BYTES:-8M}
TIMEOUT=${TIMEOUT:-300}
HARNESS=$BUILD/harness/pio-harness
WRITER=$BUILD/tests/modules/replay/replay_mpi_writer
PY=/usr/bin/python3
CORES=$(nproc)
BENCH=bench-replay
. "$ROOT/tools/dev/bench-lib.sh"
export HWLOC_COMPONENTS=-pci
STRACE=$(command -v strace) || { echo "bench-replay: strace not found (tools/install-deps.sh)" >&2; exit 2; }
for exe in "$HARNESS" "$WRITER"; do
  [ -x "$exe" ] || { echo "bench-replay: $exe not found (build first)" >&2; exit 2; }
done
WORK=$(mktemp -d)
RAW=${RAW:-$WORK/raw.jsonl}
: > "$RAW"
BASE=$DIR/pio-bench-replay
cleanup() {
  rm -rf "$WORK"
  rm -f "$BASE".*
}
trap cleanup EXIT

# The program's command for a case; its file is $BASE.<case>.
program() { # case -> argv on stdout, one per line
  case $1 in
  dd-1M-write) printf '%s\n' dd if=/dev/zero "of=$BASE.$1" bs=1M "count=$(($(bytes_of "$SIZE") >> 20))" ;;
  dd-4K-write) printf '%s\n' dd if=/dev/zero "of=$BASE.$1" bs=4K "count=$(($(bytes_of "$SMALL") >> 12))" ;;
  dd-1M-read) printf '%s\n' dd "if=$BASE.dd-1M-write" of=/dev/null bs=1M ;;
  mpi-64K-write) printf '%s\n' mpiexec -n "$RANKS" "$WRITER" "$BASE.$1" 65536 "$(($(bytes_of "$MPI_BYTES") >> 16))" ;;
  esac
}
traced_file() { # case -> the file its trace replays
  case $1 in dd-1M-read) echo "$BASE.dd-1M-write" ;; *) echo "$BASE.$1" ;; esac
}

run_program() { # case round: untraced (dd's own figure), then traced
  local c=$1 round=$2 argv
  mapfile -t argv < <(program "$c")
  [ "$c" = dd-1M-read ] || rm -f "$(traced_file "$c")"
  settle "$DIR"
  if [ "${argv[0]}" = dd ]; then
    local out
    out=$(timeout -k 10 "$TIMEOUT" "${argv[@]}" 2>&1 >/dev/null)
    # "67108864 bytes (67 MB, 64 MiB) copied, 0.0429 s, 1.6 GB/s"
    $PY - "$c" "$round" "$out" >> "$RAW" <<'PYEOF'
import json, re, sys
c, rnd, out = sys.argv[1:4]
m = re.search(r"^(\d+) bytes .* copied, ([0-9.e-]+) s", out, re.M)
print(json.dumps({"case": c, "round": int(rnd), "side": "dd",
                  "MiBps": int(m.group(1)) / float(m.group(2)) / 2**20}))
PYEOF
    [ "$c" = dd-1M-read ] || rm -f "$(traced_file "$c")"
  fi
  settle "$DIR"
  MPIR_CVAR_POLLS_BEFORE_YIELD=1 timeout -k 10 "$TIMEOUT" "$STRACE" -f -ttt -T -y \
    -o "$WORK/$c.log" "${argv[@]}" >/dev/null 2>&1
}

run_replay() { # case round
  local c=$1 round=$2 mode=write
  [ "$c" = dd-1M-read ] && mode=read
  local n=1
  [ "$c" = mpi-64K-write ] && n=$RANKS
  cat > "$WORK/r.conf" <<CONF
TestFile $BASE.replay
Verify off
<ap_module>
  ModuleName replay
  Trace $WORK/$c.log
  TraceFile $(traced_file "$c")
  Mode $mode
  Interface posix
  TimingScope phase
</ap_module>
CONF
  rm -f "$WORK/r.json" "$BASE.replay"
  settle "$DIR"
  run_mpi "$n" "$HARNESS" -c "$WORK/r.conf" -M "$BUILD/modules" -r "$WORK/r.json" --quiet >/dev/null
  $PY - "$WORK/r.json" "$c" "$round" "$(wc -l < "$WORK/$c.log")" >> "$RAW" <<'PYEOF'
import datetime, json, sys
d = json.load(open(sys.argv[1]))
c, rnd, lines = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
m = d["modules"][0]
t = m["tests"][0]
if t.get("error") or m.get("error"):
    sys.exit("bench-replay: pio-harness: %s" % (t.get("error") or m.get("error")))
fig = {v["name"]: v["value"] for v in m["figure"]["values"]}
ph = t["reps"][0]["phases"][0]
stamp = lambda s: datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
print(json.dumps({"case": c, "round": rnd, "side": "replay", "MiBps": fig["replay"],
                  "recorded_MiBps": fig["recorded"], "ops": ph["units"],
                  "cost_per_op_s": (ph["elapsed_time_s"] - ph["aggregate_time_s"]) / ph["units"],
                  "load_per_line_s": (stamp(t["started"]) - stamp(m["started"])) / lines}))
PYEOF
  rm -f "$BASE.replay"
}

CASES="dd-1M-write dd-4K-write dd-1M-read mpi-64K-write"
start=$(date +%s)
echo "bench-replay: ROUNDS=$ROUNDS SIZE=$SIZE SMALL=$SMALL RANKS=$RANKS MPI_BYTES=$MPI_BYTES DIR=$DIR"
echo "load before: $(uptime | sed 's/.*load average: //')"
for round in $(seq "$ROUNDS"); do
  for c in $CASES; do
    # dd-1M-read reads what dd-1M-write left: write it (untimed here) when the case runs alone.
    [ "$c" = dd-1M-read ] && [ ! -f "$BASE.dd-1M-write" ] &&
      dd if=/dev/zero "of=$BASE.dd-1M-write" bs=1M "count=$(($(bytes_of "$SIZE") >> 20))" 2>/dev/null
    if [ $((round % 2)) -eq 1 ]; then
      run_program "$c" "$round"
      run_replay "$c" "$round"
    else
      run_replay "$c" "$round"
      run_program "$c" "$round"
    fi
  done
done
echo "load after:  $(uptime | sed 's/.*load average: //')   ($(($(date +%s) - start)) s)"
echo

$PY - "$RAW" <<'PYEOF'
import collections, json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = collections.defaultdict(dict)  # (case, side) -> round -> row
for r in rows:
    by[(r["case"], r["side"])][r["round"]] = r
def cell(v, fmt):
    return (fmt + " (" + fmt + ".." + fmt + ")") % (statistics.median(v), min(v), max(v)) if v else "-"
print("median (min..max) over rounds; bandwidths in MiB/s")
print("%-14s %5s  %-20s %-20s %-24s %-24s %-20s %-18s" % (
    "case", "ops", "replay/traced", "replay/dd", "replay MiB/s", "traced MiB/s", "cost/op us",
    "load/line us"))
for c in ["dd-1M-write", "dd-4K-write", "dd-1M-read", "mpi-64K-write"]:
    rep = by.get((c, "replay"), {})
    if not rep:
        continue
    dd = by.get((c, "dd"), {})
    ops = statistics.median(r["ops"] for r in rep.values())
    ratio = [r["MiBps"] / r["recorded_MiBps"] for r in rep.values()]
    vs_dd = [rep[k]["MiBps"] / dd[k]["MiBps"] for k in rep if k in dd]
    print("%-14s %5d  %-20s %-20s %-24s %-24s %-20s %-18s" % (
        c, ops, cell(ratio, "%.2f"), cell(vs_dd, "%.2f"),
        cell([r["MiBps"] for r in rep.values()], "%.0f"),
        cell([r["recorded_MiBps"] for r in rep.values()], "%.0f"),
        cell([r["cost_per_op_s"] * 1e6 for r in rep.values()], "%.1f"),
        cell([r["load_per_line_s"] * 1e6 for r in rep.values()], "%.2f")))
PYEOF
echo "load at end: $(uptime | sed 's/.*load average: //')"
