#!/bin/bash
# Start-up benchmark of pio-harness (docs/measurements/performance.md, "Start-up"; a benchmark, not
# a test).
#
# Two harness builds, BEFORE and AFTER (e.g. main before the broadcast start-up, built in
# another directory, and the current tree), run a config with one null block at each rank count
# (oversubscribed: MPIR_CVAR_POLLS_BEFORE_YIELD=1), interleaved BEFORE AFTER BEFORE AFTER over
# ROUNDS rounds. Per build and rank count, the median (min..max) over rounds of:
#   wall s       launch to exit of `mpiexec -n N pio-harness` (one null unit: start-up dominates)
#   startup s    the results' startup_s: MPI_Init's end to the first block's start, the largest
#                over ranks ("-" for a build that does not record it)
#   rank0 RSS    rank 0's maximum resident set (/usr/bin/time -f %M on rank 0 only)
#   us/unit      the harness's cost per timed unit: null module, UNITS units, median over 3
#                repetitions of aggregate_time_s / units
# and, from one run under strace per build and rank count (not timed), the file-system
# metadata calls (strace -c -e trace=%file,getdents64, every process of the rank, the whole run
# of the one-unit config) of rank 0 and the mean of the other ranks.
# MODULE_COPIES=K adds K copies of the build's module directory to the search path (-M each):
# rank 0 reads K more directories of manifests; with the broadcast start-up the other ranks'
# calls stay the same.
#
# Usage: tools/dev/bench-startup.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR
# Env:   ROUNDS=5  RANKS="2 8 32 64"  UNITS=100 (more make the per-unit cost sharper, and an
#        oversubscribed run of 32 or 64 ranks minutes long: each unit is two barriers)
#        MODULE_COPIES=0  TIMEOUT=300 (s per mpiexec)
#        RAW=file (keep every measurement as JSON lines)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE_BUILD_DIR AFTER_BUILD_DIR" >&2; exit 2; }
BUILDS=("$(cd "$1" && pwd)" "$(cd "$2" && pwd)")
NAMES=(BEFORE AFTER)
ROUNDS=${ROUNDS:-5}
RANKS=${RANKS:-"2 8 32 64"}
UNITS=${UNITS:-100}
MODULE_COPIES=${MODULE_COPIES:-0}
TIMEOUT=${TIMEOUT:-300}
PY=/usr/bin/python3
CORES=$(nproc)
BENCH=bench-startup
. "$(dirname "$0")/bench-lib.sh"
export MPIR_CVAR_POLLS_BEFORE_YIELD=1 HWLOC_COMPONENTS=-pci
for tool in /usr/bin/time strace; do
  command -v $tool >/dev/null || { echo "$BENCH: needs $tool (tools/install-deps.sh)" >&2; exit 2; }
done
WORK=$(mktemp -d /dev/shm/pio-bench-startup.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
RAW_FILE=${RAW:-$WORK/raw.jsonl}
: > "$RAW_FILE"

# Per rank: rank 0's RSS, or every rank's file calls (hydra sets PMI_RANK).
cat > "$WORK/wrap.sh" <<'WRAP'
#!/bin/sh
mode=$1 out=$2
shift 2
case $mode in
rss) [ "${PMI_RANK:-0}" = 0 ] && exec /usr/bin/time -f %M -o "$out.rss" "$@"; exec "$@" ;;
strace) exec strace -f -c -e trace=%file,getdents64 -o "$out.${PMI_RANK:-0}" "$@" ;;
esac
WRAP
chmod +x "$WORK/wrap.sh"

module_args() { # build index -> -M for the build's modules and its copies
  local b=$1 dir=${BUILDS[$1]}/modules
  echo "-M $dir"
  for k in $(seq "$MODULE_COPIES"); do echo "-M $WORK/copies$b/$k"; done
}
for b in 0 1; do # the copies keep the objects' and manifests' times (a manifest is never stale)
  for k in $(seq "$MODULE_COPIES"); do
    mkdir -p "$WORK/copies$b/$k"
    cp -p "${BUILDS[$b]}"/modules/*.so "${BUILDS[$b]}"/modules/*.pio-manifest "$WORK/copies$b/$k/"
  done
done

cat > "$WORK/one.conf" <<CONF
TestFile $WORK/unused
<ap_module>
  ModuleName null
  WorkUnits 1
</ap_module>
CONF
cat > "$WORK/units.conf" <<CONF
TestFile $WORK/unused
<ap_module>
  ModuleName null
  ModuleReps 3
  WorkUnits $UNITS
</ap_module>
CONF

record() { echo "{\"build\": \"$1\", \"ranks\": $2, \"what\": \"$3\", \"value\": $4}" >> "$RAW_FILE"; }

for n in $RANKS; do
  for round in $(seq "$ROUNDS"); do
    for b in 0 1; do
      H=${BUILDS[$b]}/harness/pio-harness
      rm -f "$WORK/r.json" "$WORK/m.rss"
      t0=$(date +%s.%N)
      run_mpi "$n" "$WORK/wrap.sh" rss "$WORK/m" "$H" $(module_args $b) -c "$WORK/one.conf" \
        -r "$WORK/r.json" --quiet >/dev/null
      t1=$(date +%s.%N)
      record "${NAMES[$b]}" "$n" wall_s "$($PY -c "print($t1 - $t0)")"
      record "${NAMES[$b]}" "$n" rss_mib "$($PY -c "print($(cat "$WORK/m.rss") / 1024)")"
      record "${NAMES[$b]}" "$n" startup_s "$($PY -c 'import json,sys
print(json.dumps(json.load(open(sys.argv[1])).get("startup_s")))' "$WORK/r.json")"
      rm -f "$WORK/u.json"
      run_mpi "$n" "$H" $(module_args $b) -c "$WORK/units.conf" -r "$WORK/u.json" --quiet >/dev/null
      record "${NAMES[$b]}" "$n" us_per_unit "$($PY -c 'import json,sys,statistics
d=json.load(open(sys.argv[1]))
print(statistics.median(r["aggregate_time_s"]/r["units"] for r in d["modules"][0]["tests"][0]["reps"])*1e6)' "$WORK/u.json")"
    done
  done
  for b in 0 1; do # file calls: one run under strace (slow; not timed)
    rm -f "$WORK"/s.* "$WORK/r.json"
    run_mpi "$n" "$WORK/wrap.sh" strace "$WORK/s" "${BUILDS[$b]}/harness/pio-harness" \
      $(module_args $b) -c "$WORK/one.conf" -r "$WORK/r.json" --quiet >/dev/null
    $PY - "$WORK" "$n" "${NAMES[$b]}" >> "$RAW_FILE" <<'PYEOF'
import json, sys
work, n, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
calls = []
for r in range(n):  # strace -c's last line: "100.00 ... <calls> <errors> total"
    total = [l.split() for l in open(f"{work}/s.{r}") if l.rstrip().endswith("total")][-1]
    calls.append(int(total[-3] if len(total) >= 6 else total[-2]))
others = calls[1:] or [0]
print(json.dumps({"build": name, "ranks": n, "what": "file_calls_rank0", "value": calls[0]}))
print(json.dumps({"build": name, "ranks": n, "what": "file_calls_other", "value": sum(others) / len(others)}))
PYEOF
  done
done

$PY - "$RAW_FILE" "$ROUNDS" "$MODULE_COPIES" <<'PYEOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"pio-harness start-up, one null block; median (min..max) over {sys.argv[2]} rounds; "
      f"{sys.argv[3]} extra module directories")
what = [("wall_s", "wall s (launch to exit)", "%.3f"), ("startup_s", "startup_s (max over ranks)", "%.4f"),
        ("rss_mib", "rank 0 max RSS MiB", "%.1f"), ("us_per_unit", "us per null unit", "%.2f"),
        ("file_calls_rank0", "file calls, rank 0", "%.0f"),
        ("file_calls_other", "file calls, other ranks (mean)", "%.1f")]
for n in sorted({r["ranks"] for r in rows}):
    print(f"\n{n} ranks")
    print("%-32s %26s %26s" % ("", "BEFORE", "AFTER"))
    for key, label, fmt in what:
        cells = []
        for b in ("BEFORE", "AFTER"):
            v = [r["value"] for r in rows if r["ranks"] == n and r["build"] == b and r["what"] == key
                 and r["value"] is not None]
            cells.append("-" if not v else (fmt % statistics.median(v)) +
                         ("" if len(v) == 1 else " (" + fmt % min(v) + ".." + fmt % max(v) + ")"))
        print("%-32s %26s %26s" % (label, *cells))
PYEOF
echo "load at end: $(uptime | sed 's/.*load average: //')"
