#!/bin/sh
# Ctrl-C to the whole job (docs/reference/reliability.md, "Interrupted runs"): SIGINT delivered the
# way
# `timeout -s INT` delivers it (and a terminal, when mpiexec runs under timeout), to mpiexec and
# then to its whole process group, so that MPICH's mpiexec sees it twice (as at a second Ctrl-C):
# it forwards the first to every rank and kills every rank (SIGKILL) at the second. Whether a rank's handler runs in
# between is a race a loaded machine decides; "stopped" takes the worst case for certain: the
# ranks are stopped (SIGSTOP) before the signal, so they die without running a line. A data
# pattern, b_eff_io in its shared-pointer type (ROMIO's .shfp file present) and the metadata
# family (a tree of items, with running and with stopped ranks), each interrupted once it is
# writing: nothing of the run is left when mpiexec returns (the ranks' guardians finish what the
# ranks could not), the results say interrupted, and no message claims a removal that did not
# happen. Usage: MPIEXEC N HARNESS MODDIR
set -u
mpiexec=$1; n=$2; harness=$3; moddir=$4
dir=$(mktemp -d)
bg=""
cleanup() { [ -n "$bg" ] && kill -KILL "-$bg" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
passed=0
fail() { echo "FAIL: $*"; exit 1; }

# start NAME: the harness under mpiexec, in a process group of its own (setsid: mpiexec leads it)
start() {
  setsid "$mpiexec" -n "$n" "$harness" -c "$dir/$1.conf" > "$dir/$1.out" 2>&1 &
  bg=$!
}
# until NAME WHAT COMMAND...: waits (at most 120 s) until COMMAND succeeds, the run still going
until_true() {
  name=$1; what=$2; shift 2
  t=0
  until "$@"; do
    kill -0 "$bg" 2>/dev/null || fail "$name: the run ended before $what: $(cat "$dir/$name.out")"
    sleep 0.1; t=$((t + 1))
    [ $t -lt 1200 ] || fail "$name: no $what after 120 s: $(cat "$dir/$name.out")"
  done
}
# interrupt NAME once|twice: SIGINT to mpiexec's process group, as a terminal's Ctrl-C (once:
# mpiexec forwards it to the ranks, their handlers and guardians clean up, mpiexec returns once
# they are done); or to mpiexec and then to its group, as timeout -s INT or a second Ctrl-C
# delivers it (twice: mpiexec kills the ranks at the second), the ranks stopped first (SIGSTOP:
# they die without running a line, the worst case of a loaded machine). Then waits for mpiexec
# (at most 120 s) and, after twice, for the ranks' guardians to end: mpiexec does not wait for
# them once it has killed the ranks.
interrupt() {
  ranks=$(for proxy in $(pgrep -P "$bg"); do pgrep -P "$proxy"; done)
  [ -n "$ranks" ] || fail "$1: no ranks found under mpiexec $bg"
  guardians=$(for rank in $ranks; do pgrep -P "$rank" pio-guardian; done)
  [ "$(echo "$guardians" | wc -w)" -eq "$n" ] || fail "$1: not one guardian per rank: $guardians"
  if [ "$2" = once ]; then
    kill -INT "-$bg"
  else
    kill -STOP $ranks
    kill -INT "$bg"
    # Two signals sent at once merge into one: the second goes once mpiexec acted on the first.
    until_true "$1" "Ctrl-C forwarded" grep -q "Sending Ctrl-C to processes" "$dir/$1.out"
    kill -INT "-$bg"
  fi
  t=0
  while kill -0 "$bg" 2>/dev/null; do
    sleep 0.1; t=$((t + 1))
    [ $t -lt 1200 ] || fail "$1: mpiexec did not end after SIGINT: $(cat "$dir/$1.out")"
  done
  wait "$bg"; bg=""
  [ "$2" = once ] && return
  for g in $guardians; do # ended: gone, or a zombie of an init that does not reap
    t=0
    while [ -n "$(ps -o stat= -p "$g" | grep -v Z)" ]; do
      sleep 0.1; t=$((t + 1))
      [ $t -lt 1200 ] || fail "$1: guardian $g did not end"
    done
  done
}
# judge NAME: nothing of the run left; the results interrupted; no untrue message
judge() {
  left=$(cd "$dir" && ls -A | grep -E '\.dat|^tree$|pio-owner|pio-tmp|shfp' || true)
  [ -z "$left" ] || fail "$1: left behind: $left $(cat "$dir/$1.out")"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = (d["status"], d.get("signal"), d["exit_code"])
assert got in [("interrupted", "SIGINT", 130), ("interrupted", "SIGKILL", 137)], got
' "$dir/$1.json" || fail "$1: the results do not say interrupted: $(cat "$dir/$1.out")"
  ! grep -q "the files this rank created are removed" "$dir/$1.out" ||
    fail "$1: a rank claims its files removed without naming them: $(cat "$dir/$1.out")"
  passed=$((passed + 1))
}

# 1. A data pattern, interrupted while it writes its file (the record stamped open), its ranks
# stopped: they die without running their handlers; their guardians remove the file and its
# record, and rank 0's marks the results.
cat > "$dir/pattern.conf" <<CONF
TestFile $dir/pattern.dat
ModulePath $moddir
ResultsFile $dir/pattern.json
StepTimeout 0
<ap_module>
  ModuleName simple_strided
  BufferSizes 64K
  WorkUnits 100000
</ap_module>
CONF
start pattern
until_true pattern "open test file" grep -qs "^file open" "$dir/pattern.dat.pio-owner"
interrupt pattern twice
judge pattern

# 2. b_eff_io's type 1 (shared file pointers): interrupted with ROMIO's .shfp file present, its
# ranks stopped.
cat > "$dir/beff.conf" <<CONF
TestFile $dir/beff.dat
ModulePath $moddir
ResultsFile $dir/beff.json
StepTimeout 0
<ap_module>
  ModuleName beff_io
  ScheduledTime 120
  PatternTypes 1
  SharedPointers on
  MPart 1M
</ap_module>
CONF
shfp() { ls -A "$dir" | grep -q '^\.beff\.dat\.type1\.shfp\.'; }
start beff
until_true beff "shared-pointer file" shfp
interrupt beff twice
judge beff

# 3. The metadata family: interrupted in create with items of every rank in the tree, by one
# Ctrl-C (the ranks say what they left, the guardian of rank 0, which claimed the tree, empties it
# and says so before mpiexec returns), then by two with the ranks stopped.
cat > "$dir/tree.conf" <<CONF
ModulePath $moddir
ResultsFile $dir/tree.json
StepTimeout 0
<ap_module>
  ModuleName metadata
  TestFile $dir/tree
  Items 400000
  FileSize 0
</ap_module>
CONF
items() { [ "$(find "$dir/tree" -type f 2>/dev/null | head -n 200 | wc -l)" -ge 200 ]; }
for times in once twice; do
  rm -f "$dir/tree.json"
  start tree
  until_true tree "items" items
  interrupt tree $times
  judge tree
  [ $times = twice ] && break
  grep -q "rank 0 was interrupted (SIGINT) in module metadata.*; left $dir/tree (a directory of items" "$dir/tree.out" ||
    fail "tree: rank 0 does not say what it left: $(cat "$dir/tree.out")"
  grep -q "removed $dir/tree and the [0-9]* entries below it" "$dir/tree.out" ||
    fail "tree: the tree's removal is not said: $(cat "$dir/tree.out")"
done

echo "group_interrupt.n$n: $passed passed, 0 failed"
