#!/bin/bash
# pio-bench against fio on small and large random and sequential reads and writes 
# (docs/measurements/performance.md, "pio against fio"; a benchmark, not a test).
#
# For each place (tmpfs: /dev/shm; ext4's page cache: /var/tmp; O_DIRECT on ext4: /var/tmp with
# direct I/O), transfer size B in SIZES, pattern in PATTERNS, the same I/O two ways, interleaved
# over ROUNDS rounds (pio first in odd rounds, fio first in even ones), every engine of the
# cell in one run of each tool, in an order that rotates from round to round:
#   fio  Debian's fio (apt-get install fio; the peer, outside the repository): NUMJOBS jobs, each
#        on a file of its own of PER_RANK bytes (--directory, fallocate=none, as pio's files are
#        new), rw=randread|randwrite|read|write, bs=B; engines psync (iodepth 1) and io_uring at
#        iodepth 1, 8 and 32 (fio's defaults otherwise: no fixedbufs, registerfiles or
#        sqthread_poll); mem_align=4096 (buffers page-aligned, as pio's: fio aligns them only
#        for O_DIRECT otherwise); norandommap=1 for random patterns (offsets with repeats, as
#        pio's); unlink=1 for writes (a job's files go when it ends, as a pio block's do);
#        direct=1 for O_DIRECT; invalidate=0 (fio drops the page cache of its files before a
#        job by default, pio reads the file it just prepared from the cache). One job group
#        per engine (stonewall), JSON output; IOPS as fio reports it for the group (both jobs).
#   pio  pio-harness at NUMJOBS ranks: randread / randwrite as random_offsets (a file per rank,
#        FileSize PER_RANK, WorkUnits PER_RANK / B: IO500's ior-rnd4K; offsets drawn with
#        repeats, fio's without), read / write as sequential (write: a file per rank; read: the
#        ranks read one shared file, each all of it, as fio's jobs do here: filename= one file
#        per engine for rw=read); TimingScope phase; Interface posix for
#        psync, Interface io_uring with QueueDepth 1, 8, 32; ODirect on for O_DIRECT. IOPS =
#        transfers of all ranks / the phase's time.
# A read's file is written untimed first by both tools (fio lays it out, pio prepares it), and
# read from the page cache by both. fio drops a file it has just laid out from the cache
# (filesetup.c: __file_invalidate_cache after extend_file, whatever invalidate says), so the
# script puts fio's files back in the page cache before its timed run, as LAYOUT says:
#   written    (default) rewritten in writes of the transfer size (dd conv=notrunc), as pio's
#              prepare writes its file: both tools read pages that writes of B bytes cached;
#   readahead  read once (cat): pages the kernel's readahead cached, in larger folios than a
#              4 KiB write makes, which a 4 KiB read finds faster (docs/measurements/
#              performance.md: 0.95-1.01 us per read against 1.65-2.17 on ext4).
#   shared     (reads only) the same pages for both, pio first (KeepFiles), then fio's jobs
#              read pio's files: randread: pio writes each rank's file whole (sequential, Mode
#              write, in writes of B), reads it at random (random_offsets under FilesFrom), fio's
#              jobs read those files (filename_format=<engine>.$jobnum); read: fio's jobs read
#              the one file pio's ranks prepared and read (filename=<engine>). On tmpfs a file's
#              read speed depends on the memory it landed on (tools/dev/tmpfs-placement.sh),
#              which only this compares like for like.
# Per cell: the median of the per-round pio/fio IOPS ratios with their spread (min..max), and
# each side's median IOPS. Target (issue 43): at least 0.95 in every cell.
#
# Usage: tools/dev/bench-fio.sh [BUILD_DIR]
# Env:   ROUNDS=3  NUMJOBS=2  SIZES="4K 64K"  PATTERNS="randread randwrite read write"
#        PLACES="tmpfs ext4 direct"  PER_RANK=64M  LAYOUT=written|readahead  FIO=fio
#        TIMEOUT=600  BIND=1 (pio's ranks and fio's jobs one per core; 0: unbound)
#        RAW=file (JSON lines)  ENGINES="psync uring1 uring8 uring32" (a subset, in this order)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
ROUNDS=${ROUNDS:-3}
NUMJOBS=${NUMJOBS:-2}
SIZES=${SIZES:-"4K 64K"}
PATTERNS=${PATTERNS:-"randread randwrite read write"}
PLACES=${PLACES:-"tmpfs ext4 direct"}
PER_RANK=${PER_RANK:-64M}
LAYOUT=${LAYOUT:-written}
case $LAYOUT in written | readahead) ;; shared)
  for p in $PATTERNS; do
    case $p in randread | read) ;; *) echo "bench-fio: LAYOUT=shared is for the reads (PATTERNS randread read)" >&2; exit 2 ;; esac
  done ;;
*) echo "bench-fio: LAYOUT is written, readahead or shared" >&2; exit 2 ;; esac
FIO=${FIO:-$(command -v fio || echo fio)}
TIMEOUT=${TIMEOUT:-600}
HARNESS=$BUILD/harness/pio-harness
PY=/usr/bin/python3
CORES=$(nproc)
BENCH=bench-fio
. "$ROOT/tools/dev/bench-lib.sh"
export HWLOC_COMPONENTS=-pci
for exe in "$HARNESS" "$FIO"; do
  [ -x "$exe" ] || { echo "$BENCH: $exe not found (build pio; apt-get install fio)" >&2; exit 2; }
done
WORK=$(mktemp -d)
RAW=${RAW:-$WORK/raw.jsonl}
: > "$RAW"
read -r -a ENGINES <<< "${ENGINES:-psync uring1 uring8 uring32}"
dir_of() { case $1 in tmpfs) echo /dev/shm/pio-bench-fio ;; *) echo /var/tmp/pio-bench-fio ;; esac; }
cleanup() {
  rm -rf "$WORK" /dev/shm/pio-bench-fio /var/tmp/pio-bench-fio
}
trap cleanup EXIT

order() { # round -> the engines rotated by it
  local n=${#ENGINES[@]} k
  for k in $(seq 0 $((n - 1))); do echo "${ENGINES[$(((k + $1) % n))]}"; done
}

fio_run() { # place size pattern round
  local place=$1 size=$2 pattern=$3 round=$4 dir direct=0 e
  dir=$(dir_of "$place")
  [ "$place" = direct ] && direct=1
  [ "$LAYOUT" = shared ] || { rm -rf "$dir" && mkdir -p "$dir"; }
  {
    echo "[global]"
    echo "directory=$dir"
    echo "rw=$pattern"
    echo "bs=$size"
    echo "size=$PER_RANK"
    echo "numjobs=$NUMJOBS"
    echo "direct=$direct"
    echo "fallocate=none"
    # fio drops a file's page cache before a job by default (invalidate=1); pio reads what it
    # wrote just before, from the page cache: keep it there too (O_DIRECT bypasses it anyway).
    echo "invalidate=0"
    # Page-aligned buffers, as pio's (and IOR's) are: fio aligns them only for O_DIRECT. A
    # page-cache copy's speed moves with the destination's alignment here (fio alone, ext4: 64 KiB
    # reads -10 % page-aligned, 4 KiB +6 %; docs/measurements/performance.md).
    echo "mem_align=4096"
    # Random offsets drawn with repeats, as pio's (and IOR -z's) are: fio's random map otherwise
    # touches every block once (for writes 37 % more distinct pages than pio dirties).
    case $pattern in rand*) echo "norandommap=1" ;; esac
    # A writer's files deleted when its job ends, as pio deletes a block's files after the
    # block: otherwise the four engines' dirty pages add up and the kernel throttles the later
    # writers. Not for the reads, whose files are laid out before the run (--create_only would
    # delete them at once).
    case $pattern in *write) echo "unlink=1" ;; esac
    # bound as run_mpi binds pio's ranks: one job per core
    if [ "$NUMJOBS" -le "$CORES" ] && [ "${BIND:-1}" != 0 ]; then
      echo "cpus_allowed=0-$((CORES - 1))"
      echo "cpus_allowed_policy=split"
    fi
    echo "group_reporting"
    echo "stonewall"
    echo "new_group"
    for e in $(order "$round"); do
      echo "[$e]"
      # rw=read: the jobs read one file whole, as pio's ranks read their shared file
      if [ "$LAYOUT" = shared ]; then # pio's files of this engine
        [ "$pattern" = read ] && echo "filename=$e" || echo "filename_format=$e.\$jobnum"
      elif [ "$pattern" = read ]; then
        echo "filename=$e.shared"
      fi
      case $e in
      psync) echo "ioengine=psync" ;;
      uring*) echo "ioengine=io_uring"; echo "iodepth=${e#uring}" ;;
      esac
    done
  } > "$WORK/job.fio"
  settle "$(dirname "$dir")"
  if [ "$LAYOUT" = shared ]; then # fio must read pio's files, not lay out files of its own
    local f
    for e in $(order "$round"); do
      for f in $([ "$pattern" = read ] && echo "$e" || seq -f "$e.%g" 0 $((NUMJOBS - 1))); do
        [ -f "$dir/$f" ] || { echo "$BENCH: LAYOUT=shared: pio left no $dir/$f for fio to read" >&2; exit 1; }
      done
    done
  fi
  # A read's files: laid out first (fio drops a file it just laid out from the page cache), then
  # put back in the cache as LAYOUT says (not for O_DIRECT).
  if [ "${pattern#rand}" = read ] && [ "$direct" = 0 ] && [ "$LAYOUT" != shared ]; then
    timeout -k 10 "$TIMEOUT" "$FIO" --create_only=1 "$WORK/job.fio" >/dev/null 2>"$WORK/fio.err" ||
      { echo "$BENCH: fio's layout failed:" >&2; cat "$WORK/fio.err" >&2; exit 1; }
    local f
    [ -n "$(ls -A "$dir")" ] || { echo "$BENCH: fio's layout left no files in $dir" >&2; exit 1; }
    for f in "$dir"/*; do
      if [ "$LAYOUT" = written ]; then
        dd if=/dev/zero of="$f" bs="$(bytes_of "$size")" count=$(($(stat -c %s "$f") / $(bytes_of "$size"))) \
          conv=notrunc status=none
      else
        cat "$f" >/dev/null
      fi
    done
  fi
  if ! timeout -k 10 "$TIMEOUT" "$FIO" --output-format=json --output="$WORK/fio.json" \
    "$WORK/job.fio" >/dev/null 2>"$WORK/fio.err"; then
    echo "$BENCH: fio failed:" >&2; cat "$WORK/fio.err" >&2; exit 1
  fi
  $PY - "$WORK/fio.json" "$place" "$size" "$pattern" "$round" >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
place, size, pattern, rnd = sys.argv[2:6]
side = "write" if "write" in pattern else "read"
for j in d["jobs"]:
    print(json.dumps({"place": place, "size": size, "pattern": pattern, "round": int(rnd),
                      "engine": j["jobname"], "side": "fio", "iops": j[side]["iops"]}))
PYEOF
  rm -rf "$dir"
}

# One <ap_module> block of B-byte units over PER_RANK bytes per rank, phase-timed.
conf_block() { # module label mode where_line size direct interface_lines
  cat <<CONF
<ap_module>
  ModuleName $1
  Label $2
  Mode $3
$4
  BufferSizes $5
  FileSize $PER_RANK
  WorkUnits $(($(bytes_of "$PER_RANK") / $(bytes_of "$5")))
  TimingScope phase
  ODirect $6
$7
</ap_module>
CONF
}

pio_block() { # engine size pattern dir direct
  local e=$1 size=$2 pattern=$3 dir=$4 direct=$5 module mode iface where="  TestFile $dir/$1"
  case $pattern in
  randread) module=random_offsets mode=read ;;
  randwrite) module=random_offsets mode=write ;;
  read) module=sequential mode=read ;;
  write) module=sequential mode=write ;;
  esac
  case $e in
  psync) iface="  Interface posix" ;;
  uring*) iface="  Interface io_uring
  QueueDepth ${e#uring}" ;;
  esac
  if [ "$LAYOUT" = shared ] && [ "$pattern" = randread ]; then # each rank's file written whole first
    conf_block sequential "w_$e" write "$where" "$size" "$direct" "  Interface posix"
    where="  FilesFrom w_$e"
  fi
  conf_block "$module" "$e" "$mode" "$where" "$size" "$direct" "$iface"
}

pio_run() { # place size pattern round
  local place=$1 size=$2 pattern=$3 round=$4 dir direct=off e
  dir=$(dir_of "$place")
  [ "$place" = direct ] && direct=on
  rm -rf "$dir" && mkdir -p "$dir"
  {
    echo "TestFile $dir/unused"
    [ "$LAYOUT" = shared ] && echo "KeepFiles" # fio reads them next
    for e in $(order "$round"); do pio_block "$e" "$size" "$pattern" "$dir" "$direct"; done
  } > "$WORK/c.conf"
  rm -f "$WORK/r.json"
  settle "$(dirname "$dir")"
  run_mpi "$NUMJOBS" "$HARNESS" -c "$WORK/c.conf" -M "$BUILD/modules" -r "$WORK/r.json" \
    --quiet >/dev/null
  $PY - "$WORK/r.json" "$place" "$size" "$pattern" "$round" >> "$RAW" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
place, size, pattern, rnd = sys.argv[2:6]
bs = {"4K": 4096, "64K": 65536}.get(size) or int(size)
for m in d["modules"]:
    t = m["tests"][0]
    if t.get("error"):
        sys.exit("bench-fio: pio-harness: %s" % t["error"])
    if m["label"].startswith("w_"):  # LAYOUT=shared: the write that lays the file out
        continue
    p = t["reps"][0]["phases"][0]
    print(json.dumps({"place": place, "size": size, "pattern": pattern, "round": int(rnd),
                      "engine": m["label"], "side": "pio",
                      "iops": p["bytes"] / bs / p["aggregate_time_s"]}))
PYEOF
  [ "$LAYOUT" = shared ] || rm -rf "$dir"
}

echo "$BENCH: ROUNDS=$ROUNDS NUMJOBS=$NUMJOBS SIZES=\"$SIZES\" PATTERNS=\"$PATTERNS\"" \
  "PLACES=\"$PLACES\" PER_RANK=$PER_RANK LAYOUT=$LAYOUT fio: $("$FIO" --version)"
echo "load before: $(uptime | sed 's/.*load average: //')"
start=$(date +%s)
for round in $(seq "$ROUNDS"); do
  for place in $PLACES; do
    for size in $SIZES; do
      for pattern in $PATTERNS; do
        if [ "$LAYOUT" = shared ]; then # fio reads the files pio leaves
          pio_run "$place" "$size" "$pattern" "$round"
          fio_run "$place" "$size" "$pattern" "$round"
        elif [ $((round % 2)) -eq 1 ]; then
          pio_run "$place" "$size" "$pattern" "$round"
          fio_run "$place" "$size" "$pattern" "$round"
        else
          fio_run "$place" "$size" "$pattern" "$round"
          pio_run "$place" "$size" "$pattern" "$round"
        fi
      done
    done
  done
  echo "round $round done after $(($(date +%s) - start)) s, load $(uptime | sed 's/.*load average: //')"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
$PY - "$RAW" <<'PYEOF'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
key = lambda r: (r["place"], r["size"], r["pattern"], r["engine"])
cells = list(dict.fromkeys(key(r) for r in rows))
print("| place | size | pattern | engine | pio IOPS | fio IOPS | pio/fio median (min..max) |")
print("|---|---|---|---|---|---|---|")
for c in cells:
    by = {}
    for r in rows:
        if key(r) == c:
            by.setdefault(r["round"], {})[r["side"]] = r["iops"]
    pairs = [v for v in by.values() if "pio" in v and "fio" in v]
    ratio = [v["pio"] / v["fio"] for v in pairs]
    print("| %s | %s | %s | %s | %.0f | %.0f | %.2f (%.2f..%.2f) |" % (
        c + (st.median(v["pio"] for v in pairs), st.median(v["fio"] for v in pairs),
             st.median(ratio), min(ratio), max(ratio))))
PYEOF
