#!/bin/bash
# The file-system lab's campaign (docs/measurements/fslab.md, "Measured"; a benchmark, not a test).
# Three parts, each on the lab's configurations (tools/pio-fslab), from a built tree:
#
#   updown    ROUNDS ups and downs of each of CONFIGS: the set-up and tear-down seconds
#             pio-fslab prints -> OUT/updown.csv and a table of median (min..max)
#   patterns  PATTERNS (the thesis patterns in five modes) at NP ranks on each of CONFIGS,
#             across the client hosts for gluster -> OUT/patterns/<config>.json, then the
#             bandwidth table and its picture (tools/dev/fslab-table.py: OUT/patterns.md, .png)
#   nightly   per configuration of NIGHTLY: SEED nights of pio-nightly with NIGHTLY_CONF that
#             make a new baseline/ (whatever their verdict), NIGHTS A/A nights (each should
#             pass; KEEP=SEED, so each meets the SEED newest good runs), then one night on
#             its changed configuration (ext4-ordered -> ext4-journal, gluster-dist-nocache ->
#             write-behind on, gluster-dist -> write-behind off), which the gate must refuse
#             as not comparable (exit 3), and that night compared with --allow file_system (the
#             performance verdicts of the change) -> OUT/nightly/<config>/, OUT/nightly.txt
#             (gluster-dist, with gluster's default caching, fails its nights across two
#             clients: a re-created file is a stale handle for the other client, ENOENT)
#
# Usage: tools/dev/bench-fslab.sh BUILD_DIR OUT_DIR [updown|patterns|nightly ...]  (default: all)
# Env:   CONFIGS (every loop configuration, gluster-dist, gluster-dist-nocache, gluster-repl,
#        gluster-disp)  ROUNDS=3  NP=2  PATTERNS=docs/examples/fslab-patterns.conf
#        NIGHTLY="ext4-ordered gluster-dist-nocache"  SEED=3  NIGHTS=4
#        NIGHTLY_CONF=docs/examples/fslab-nightly.conf
#        TIMEOUT=900 (s per harness run)  PIO_FSLAB_DIR (the lab's directory)
# The small version the lead reruns on a quiet machine is the default; the bigger one:
#   ROUNDS=5 NIGHTS=8 tools/dev/bench-fslab.sh build /tmp/fslab-campaign
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR OUT_DIR [updown|patterns|nightly ...]" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
shift 2
PARTS=${*:-updown patterns nightly}
CONFIGS=${CONFIGS:-"ext4-ordered ext4-journal xfs xfs-alloc64m btrfs btrfs-nodatacow gluster-dist
  gluster-dist-nocache gluster-repl gluster-disp"}
ROUNDS=${ROUNDS:-3}
NP=${NP:-2}
PATTERNS=$(realpath "${PATTERNS:-$SRC/docs/examples/fslab-patterns.conf}")
NIGHTLY=${NIGHTLY:-"ext4-ordered gluster-dist-nocache"}
NIGHTS=${NIGHTS:-4}
SEED=${SEED:-3}
NIGHTLY_CONF=$(realpath "${NIGHTLY_CONF:-$SRC/docs/examples/fslab-nightly.conf}")
TIMEOUT=${TIMEOUT:-900}
FSLAB=$SRC/tools/pio-fslab
HARNESS=$BUILD/harness/pio-harness
MODULES=$BUILD/modules
export MPIR_CVAR_POLLS_BEFORE_YIELD=1 HWLOC_COMPONENTS=-pci
export PIO_FSLAB_DIR=${PIO_FSLAB_DIR:-/tmp/pio-fslab-campaign}
[ -x "$HARNESS" ] || { echo "$0: no $HARNESS: build first" >&2; exit 2; }

# Whatever happens, nothing of the lab stays up.
trap '"$FSLAB" down --all >/dev/null 2>&1 || true' EXIT

{ echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) cores"; echo "# uptime at start: $(uptime)"; } \
  > "$OUT/machine.txt"

# up CONFIG [pio-fslab up options]: brings it up, prints the seconds pio-fslab measured.
up() {
  local log
  log=$("$FSLAB" up "$@") || { echo "$log" >&2; return 1; }
  sed -n "s/^$1 up in \([0-9.]*\) s.*/\1/p" <<<"$log"
}
down() {
  local log
  log=$("$FSLAB" down "$1") || { echo "$log" >&2; return 1; }
  sed -n "s/^$1 down in \([0-9.]*\) s.*/\1/p" <<<"$log"
}
# harness CONFIG RESULTS CONF [NP]: one run from the configuration's mount point.
harness() {
  local mnt
  mnt=$("$FSLAB" mnt "$1")
  (cd "$mnt" && timeout -k 10 "$TIMEOUT" "$FSLAB" mpiexec "$1" -n "${4:-$NP}" "$HARNESS" \
     -M "$MODULES" -c "$3" -r "$2" --quiet --overwrite >/dev/null)
}

part_updown() {
  echo "config,round,up_s,down_s" > "$OUT/updown.csv"
  for c in $CONFIGS; do
    for r in $(seq 1 "$ROUNDS"); do
      u=$(up "$c")
      d=$(down "$c")
      echo "$c,$r,$u,$d" >> "$OUT/updown.csv"
      echo "updown: $c round $r: up $u s, down $d s"
    done
  done
  /usr/bin/python3 - "$OUT/updown.csv" > "$OUT/updown.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| configuration | up s: median (min..max) | down s: median (min..max) | rounds |")
print("|---|---:|---:|---:|")
for c in dict.fromkeys(r["config"] for r in rows):
    u = [float(r["up_s"]) for r in rows if r["config"] == c]
    d = [float(r["down_s"]) for r in rows if r["config"] == c]
    f = lambda v: f"{statistics.median(v):.2f} ({min(v):.2f}..{max(v):.2f})"
    print(f"| {c} | {f(u)} | {f(d)} | {len(u)} |")
PY
  cat "$OUT/updown.md"
}

part_patterns() {
  mkdir -p "$OUT/patterns"
  for c in $CONFIGS; do
    up "$c" >/dev/null
    rc=0
    harness "$c" "$OUT/patterns/$c.json" "$PATTERNS" || rc=$?
    echo "patterns: $c: exit $rc, results $(/usr/bin/python3 -c 'import json, sys
try: print(json.load(open(sys.argv[1]))["status"])
except (OSError, ValueError): print("missing")' "$OUT/patterns/$c.json")"
    down "$c" >/dev/null
  done
  local runs=()
  for c in $CONFIGS; do [ -s "$OUT/patterns/$c.json" ] && runs+=("$OUT/patterns/$c.json"); done
  /usr/bin/python3 "$SRC/tools/dev/fslab-table.py" "${runs[@]}" -o "$OUT/patterns" > "$OUT/patterns.md"
  cat "$OUT/patterns.md"
}

# The changed configuration of a nightly one: another configuration, or options to up it with.
change_of() {
  case $1 in
  ext4-ordered) echo "ext4-journal" ;;
  gluster-dist) echo "gluster-dist --option performance.write-behind=off" ;;
  gluster-dist-nocache) echo "gluster-dist-nocache --option performance.write-behind=on" ;;
  *) echo "$1" ;;
  esac
}

nightly_run() { # CONFIG DIR: one night of pio-nightly on the configuration that is up
  local mnt
  mnt=$("$FSLAB" mnt "$1")
  (cd "$2" && PIO_SCRATCH=$mnt NP=$NP TIMEOUT=$TIMEOUT KEEP=$SEED PIO_HARNESS=$HARNESS \
     PIO_MODULE_PATH=$MODULES PIO_COMPARE=$SRC/tools/pio-compare \
     MPIEXEC="$FSLAB mpiexec $1 -n $NP" "$SRC/tools/pio-nightly" "$NIGHTLY_CONF" . \
     > night.log 2>&1)
}

part_nightly() {
  : > "$OUT/nightly.txt"
  for c in $NIGHTLY; do
    dir=$OUT/nightly/$c
    rm -rf "$dir"
    mkdir -p "$dir"
    up "$c" >/dev/null
    # A new baseline, as after a deliberate change: SEED nights go into baseline/ whatever
    # their verdict (the first seeds it), so that the A/A nights meet SEED baseline runs.
    for n in $(seq 1 "$SEED"); do
      nightly_run "$c" "$dir" || true
      last=$(ls "$dir"/runs/*.json | tail -n 1)
      [ -e "$dir/baseline/$(basename "$last")" ] || cp "$last" "$dir/baseline/"
      cp "$dir/night.log" "$dir/seed-$n.log"
      echo "nightly: $c seed night $n: $(basename "$last") in baseline/" | tee -a "$OUT/nightly.txt"
    done
    for n in $(seq 1 "$NIGHTS"); do
      rc=0
      nightly_run "$c" "$dir" || rc=$?
      echo "nightly: $c A/A night $n: exit $rc ($(tail -n 1 "$dir/night.log"))" | tee -a "$OUT/nightly.txt"
      cp "$dir/night.log" "$dir/night-$n.log"
    done
    down "$c" >/dev/null
    # shellcheck disable=SC2046 # the changed configuration is a name and its options
    changed=$(change_of "$c")
    up $changed >/dev/null
    rc=0
    nightly_run "${changed%% *}" "$dir" || rc=$?
    cp "$dir/night.log" "$dir/night-changed.log"
    echo "nightly: $c -> $changed: exit $rc ($(grep -m1 '^not comparable' "$dir/night.log" || tail -n 1 "$dir/night.log"))" \
      | tee -a "$OUT/nightly.txt"
    last=$(ls "$dir"/runs/*.json | tail -n 1)
    rc=0
    "$SRC/tools/pio-compare" --allow file_system --all "$dir/baseline" "$last" \
      > "$dir/changed-allowed.txt" 2>&1 || rc=$?
    echo "nightly: $c -> $changed with --allow file_system: exit $rc" | tee -a "$OUT/nightly.txt"
    sed 's/^/    /' "$dir/changed-allowed.txt" >> "$OUT/nightly.txt"
    down "${changed%% *}" >/dev/null
  done
}

for p in $PARTS; do
  "part_$p"
done
echo "# uptime at end: $(uptime)" >> "$OUT/machine.txt"
cat "$OUT/machine.txt"
