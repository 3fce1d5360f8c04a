#!/bin/bash
# pio-tune's measurement campaign (docs/measurements/tuning.md, "Measured on this machine"; a
# developer script, not a test):
#   1. ext4: a file system image under $OUT (created with mkfs.ext4, loop-mounted, removed at the
#      end), pio-tune on docs/examples/tuning.conf within $BUDGET: the proven speed-up over the
#      defaults and the budget used
#   2. tmpfs: the same on a directory under /dev/shm
#   3. search efficiency: every point of docs/examples/tuning-small.conf on the ext4 image
#      (pio-tune --sampler grid), then TPE and random search replayed on the recorded grid over
#      $SEEDS seeds each (tools/dev/tune-efficiency.py): trials to within 5 % of the grid's best
# `uptime` is recorded before and after each step ($OUT/uptime.txt): the machine is shared.
#
# Usage: tools/dev/tune-campaign.sh [BUILD_DIR]     (as root: losetup and mount)
# Env:   BUDGET=15m  RANKS=2  SEEDS=20  OUT=/tmp/tune-campaign  IMAGE_SIZE=2G
#        STEPS="ext4 tmpfs grid"  ROUNDS=3 (confirmation rounds)  NICE=0 (nice level of the runs)
#        MPIEXEC (the launcher's words; default: each rank bound to a core when the ranks do not
#        outnumber the cores, docs/reference/results.md, "Conditions")
# A quiet rerun: NICE=10 BUDGET=15m tools/dev/tune-campaign.sh build
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
BUDGET=${BUDGET:-15m}
RANKS=${RANKS:-2}
SEEDS=${SEEDS:-20}
ROUNDS=${ROUNDS:-3}
OUT=${OUT:-/tmp/tune-campaign}
IMAGE_SIZE=${IMAGE_SIZE:-2G}
STEPS=${STEPS:-"ext4 tmpfs grid"}
NICE=${NICE:-0}
if [ "$RANKS" -le "$(nproc)" ]; then MPIEXEC=${MPIEXEC:-mpiexec -bind-to core}; else MPIEXEC=${MPIEXEC:-mpiexec}; fi
PY=/usr/bin/python3
HARNESS=$BUILD/harness/pio-harness
export HWLOC_COMPONENTS=-pci MPIR_CVAR_POLLS_BEFORE_YIELD=1

mkdir -p "$OUT"
MNT=$OUT/mnt-ext4
SHM=$(mktemp -d -p /dev/shm tune-campaign.XXXXXX)
LOOP=""
cleanup() {
  mountpoint -q "$MNT" && umount "$MNT"
  [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
  rm -f "$OUT/ext4.img"
  rm -rf "$SHM"
}
trap cleanup EXIT
trap 'exit 130' INT TERM # through the EXIT trap: nothing stays mounted

stamp() { echo "$(date -u +%FT%TZ) $1: $(uptime)" | tee -a "$OUT/uptime.txt"; }

mount_ext4() {
  [ -n "$LOOP" ] && return
  truncate -s "$IMAGE_SIZE" "$OUT/ext4.img"
  mkfs.ext4 -q -F "$OUT/ext4.img"
  LOOP=$(losetup --find --show "$OUT/ext4.img")
  mkdir -p "$MNT"
  mount "$LOOP" "$MNT"
  echo "ext4: $LOOP on $MNT ($(findmnt -no OPTIONS "$MNT"))" | tee -a "$OUT/uptime.txt"
}

tune() { # tune <name> <scratch dir> <config> [pio-tune options...]
  local name=$1 dir=$2 conf=$3
  shift 3
  rm -rf "${OUT:?}/$name"
  stamp "$name start ($MPIEXEC)"
  (cd "$dir" && PIO_SCRATCH=$dir nice -n "$NICE" $PY "$ROOT/tools/pio-tune" -c "$conf" \
    -n "$RANKS" -o "$OUT/$name" --harness "$HARNESS" --rounds "$ROUNDS" --mpiexec "$MPIEXEC" \
    "$@") |
    tee "$OUT/$name.txt"
  stamp "$name end"
}

for step in $STEPS; do
  case $step in
  ext4)
    mount_ext4
    tune ext4 "$MNT" "$ROOT/docs/examples/tuning.conf" --budget "$BUDGET" --seed 1
    ;;
  tmpfs)
    tune tmpfs "$SHM" "$ROOT/docs/examples/tuning.conf" --budget "$BUDGET" --seed 1
    ;;
  grid)
    mount_ext4
    tune grid "$MNT" "$ROOT/docs/examples/tuning-small.conf" --sampler grid --budget 24h \
      --seed 1 --candidates 1
    $PY "$ROOT/tools/dev/tune-efficiency.py" "$OUT/grid" --seeds "$SEEDS" | tee "$OUT/efficiency.txt"
    $PY "$ROOT/tools/dev/tune-efficiency.py" "$OUT/grid" --seeds "$SEEDS" --json > "$OUT/efficiency.json"
    ;;
  *) echo "tune-campaign: unknown step $step (ext4, tmpfs, grid)" >&2; exit 2 ;;
  esac
done
echo "results in $OUT (summary.json, trials.csv, recommendation.conf per step; uptime.txt)"
