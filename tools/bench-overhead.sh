#!/bin/bash
# Speed check of issue 2 (not a test): in one run, contiguous 1 MiB writes and reads through
# pio-harness (simple_strided, strip = buffer, stride = strip x processes, no file view) and
# through a minimal hand-written MPI-IO loop doing the same calls (tools/overhead/hand_io.cpp),
# for 1, 2, 4 ranks on /dev/shm and on a disk directory; prints pio/hand (target >= 0.97).
# Then the harness's own cost per work unit with the null module (µs per unit beyond the same barrier in a hand loop).
# Usage: tools/bench-overhead.sh [BUILD_DIR] [DISK_DIR]   (env: UNITS, REPS, ROUNDS, RANKS)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
DISK=${2:-$ROOT/bench-scratch}
UNITS=${UNITS:-64}
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-3}
RANKS=${RANKS:-"1 2 4"}
HARNESS=$BUILD/harness/pio-harness
HAND=$BUILD/tools/overhead/hand_io
export HWLOC_COMPONENTS=-pci
# More ranks than cores: MPICH's busy polling makes every sync cost a scheduler quantum, for
# the harness and the hand loop alike; yielding at once keeps both measurable.
for n in $RANKS; do
  if [ "$n" -gt "$(nproc)" ]; then
    export MPIR_CVAR_POLLS_BEFORE_YIELD=${MPIR_CVAR_POLLS_BEFORE_YIELD:-1}
    echo "note: $n ranks > $(nproc) cores: MPIR_CVAR_POLLS_BEFORE_YIELD=$MPIR_CVAR_POLLS_BEFORE_YIELD"
    break
  fi
done
mkdir -p "$DISK"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; rm -f "$DISK"/pio-bench-overhead.*' EXIT

max() { /usr/bin/python3 -c "import sys; print(max(float(sys.argv[1]), float(sys.argv[2])))" "$1" "$2"; }
best_bw() { # results.json module-index -> best repetition bandwidth (MiB/s)
  /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["modules"][int(sys.argv[2])]; print(max(r["bandwidth_MiBps"] for r in m["tests"][0]["reps"]))' "$1" "$2"
}

printf "%-6s %-6s %5s %12s %12s %8s %16s\n" where mode ranks "pio MiB/s" "hand MiB/s" "pio/hand" "hand+Barrier MiB/s"
for where in /dev/shm "$DISK"; do
  for n in $RANKS; do
    file=$where/pio-bench-overhead.$n
    cat > "$WORK/c.conf" <<CONF
TestFile $file
FileView off
<ap_module>
  ModuleName simple_strided
  Mode write
  ModuleReps $REPS
  BufferSizes 1M
  WorkUnits $UNITS
</ap_module>
<ap_module>
  ModuleName simple_strided
  Mode read
  ModuleReps $REPS
  BufferSizes 1M
  WorkUnits $UNITS
</ap_module>
CONF
    # Alternate pio and hand runs so that load changing over time hits both alike; keep each
    # side's best repetition over all rounds.
    pio_w=0; pio_r=0; hand_w=0; hand_r=0; bar_w=0; bar_r=0
    for round in $(seq "$ROUNDS"); do
      rm -f "$WORK/r.json"
      mpiexec -n "$n" "$HARNESS" -c "$WORK/c.conf" -M "$BUILD/modules" -r "$WORK/r.json" >/dev/null
      pio_w=$(max "$pio_w" "$(best_bw "$WORK/r.json" 0)")
      pio_r=$(max "$pio_r" "$(best_bw "$WORK/r.json" 1)")
      hand_w=$(max "$hand_w" "$(mpiexec -n "$n" "$HAND" write "$file" 1048576 "$UNITS" "$REPS" allreduce)")
      hand_r=$(max "$hand_r" "$(mpiexec -n "$n" "$HAND" read "$file" 1048576 "$UNITS" "$REPS" allreduce)")
      bar_w=$(max "$bar_w" "$(mpiexec -n "$n" "$HAND" write "$file" 1048576 "$UNITS" "$REPS" barrier)")
      bar_r=$(max "$bar_r" "$(mpiexec -n "$n" "$HAND" read "$file" 1048576 "$UNITS" "$REPS" barrier)")
      rm -f "$file"
    done
    rm -f "$file"
    label=$([ "$where" = /dev/shm ] && echo shm || echo disk)
    for m in write read; do
      p=$([ $m = write ] && echo "$pio_w" || echo "$pio_r")
      h=$([ $m = write ] && echo "$hand_w" || echo "$hand_r")
      b=$([ $m = write ] && echo "$bar_w" || echo "$bar_r")
      printf "%-6s %-6s %5s %12.1f %12.1f %8.3f %16.1f\n" "$label" $m "$n" "$p" "$h" \
        "$(/usr/bin/python3 -c "print($p/$h)")" "$b"
    done
  done
done

echo
printf "%-6s %16s %16s %16s\n" ranks "pio µs/unit" "hand µs/unit" "harness cost µs"
for n in $RANKS; do
  cat > "$WORK/n.conf" <<CONF
TestFile $WORK/unused
<ap_module>
  ModuleName null
  ModuleReps $REPS
  WorkUnits 2000
</ap_module>
CONF
  rm -f "$WORK/n.json"
  mpiexec -n "$n" "$HARNESS" -c "$WORK/n.conf" -M "$BUILD/modules" -r "$WORK/n.json" >/dev/null
  pio=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(min(r["aggregate_time_s"]/r["units"] for r in d["modules"][0]["tests"][0]["reps"])*1e6)' "$WORK/n.json")
  bar=$(mpiexec -n "$n" "$HAND" barriers /dev/null 1 2000 "$REPS" allreduce)
  printf "%-6s %16.2f %16.2f %16.2f\n" "$n" "$pio" "$bar" "$(/usr/bin/python3 -c "print($pio-$bar)")"
done
