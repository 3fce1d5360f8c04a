#!/bin/sh
# A metadata run killed mid-create (docs/reference/metadata.md "Safety"): rank 0, the owner of the
# test directory's record, is sent SIGKILL (no handler runs) or SIGTERM (its handler removes what it
# can and must keep the record of the non-empty directory), its guardian killed first, as when
# the node is lost. The next run removes every item and directory the dead run made, by the
# tree rule in the record, then runs. With one foreign file planted in the tree the next run
# refuses, names it, and touches nothing. With its guardian alive, SIGKILL to rank 0 leaves
# nothing: the guardian empties the tree and says so.
# Usage: MPIEXEC N HARNESS MODDIR
set -u
mpiexec=$1; n=$2; harness=$3; moddir=$4
dir=$(mktemp -d)
bg=""
cleanup() { [ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
top=$dir/md
passed=0
fail() { echo "FAIL: $*"; exit 1; }
conf() { # conf NAME MODE ITEMS (a fresh results file each time)
  rm -f "$dir/$1.json"
  cat > "$dir/$1.conf" <<CONF
ModulePath $moddir
ResultsFile $dir/$1.json
<ap_module>
  ModuleName metadata
  TestFile $top
  Mode $2
  Items $3
  Depth 1
  Branching 3
  FileSize 100
  Phases create stat remove
</ap_module>
CONF
}
items() { find "$top" -type f 2>/dev/null | wc -l; }
snapshot() { # every entry with its type, size and inode, and the record
  (cd "$dir" && find md -printf '%p %y %s %i\n' | sort && cat md.pio-owner)
}
crash() { # crash MODE SIGNAL [guardian]: a run with far more items than it gets to make, rank 0
  # killed (and its guardian first, unless the third argument is "guardian")
  conf big "$1" 200000
  "$mpiexec" -n "$n" "$harness" -c "$dir/big.conf" > "$dir/big.out" 2>&1 &
  bg=$!
  t=0
  while [ "$(items)" -lt 40 ]; do
    kill -0 "$bg" 2>/dev/null || fail "$1: the run ended before it was killed: $(cat "$dir/big.out")"
    sleep 0.05; t=$((t + 1))
    [ $t -lt 1200 ] || fail "$1: no items after 60 s: $(cat "$dir/big.out")"
  done
  pid=$(sed -n 's/^pid //p' "$top.pio-owner")
  [ -n "$pid" ] || fail "$1: no owner record with a pid"
  guardian=$(pgrep -P "$pid" pio-guardian)
  [ -n "$guardian" ] || fail "$1: rank 0 (pid $pid) has no guardian process"
  [ "${3:-}" = guardian ] || kill -KILL "$guardian"
  kill -"$2" "$pid"
  t=0
  while kill -0 "$bg" 2>/dev/null; do
    sleep 0.1; t=$((t + 1))
    [ $t -lt 600 ] || fail "$1: the killed run did not end"
  done
  wait "$bg"; bg=""
  [ "${3:-}" = guardian ] && return
  left=$(items)
  [ "$left" -ge 40 ] || fail "$1 $2: the killed run must leave its items (found $left)"
  [ -f "$top.pio-owner" ] || fail "$1 $2: the record of the non-empty directory must stay"
}
rerun() { # rerun NAME MODE: the next run of the same path; prints its exit code
  conf "$1" "$2" 7
  "$mpiexec" -n "$n" "$harness" -c "$dir/$1.conf" > "$dir/$1.out" 2> "$dir/$1.err"
  echo $?
}

for case in "hard KILL" "easy TERM" "easy KILL" "hard TERM"; do
  set -- $case
  crash "$1" "$2"
  rc=$(rerun again "$1")
  [ "$rc" -eq 0 ] ||
    fail "$1 $2: the next run must clean up and run: rc $rc $(cat "$dir/again.out" "$dir/again.err")"
  # The note is on stderr (a stream of its own: mpiexec interleaves the two at any byte).
  grep -q "note: removed $top and the [0-9]* entries below it" "$dir/again.err" ||
    fail "$1 $2: no note of the removal: $(cat "$dir/again.err")"
  [ ! -e "$top" ] && [ ! -e "$top.pio-owner" ] || fail "$1 $2: left behind: $(ls -R "$dir")"
  passed=$((passed + 1))
done

# Rank 0 killed with its guardian alive: the guardian empties the tree by its rule (mpiexec
# returns once it is done) and says so; nothing is left, the next run has nothing to remove.
crash easy KILL guardian
[ ! -e "$top" ] && [ ! -e "$top.pio-owner" ] ||
  fail "KILL, guardian alive: left behind: $(ls -A "$dir") $(cat "$dir/big.out")"
grep -q "rank 0's cleanup process removed $top and the [0-9]* entries below it" "$dir/big.out" ||
  fail "KILL, guardian alive: the tree's removal is not said: $(cat "$dir/big.out")"
rc=$(rerun again easy)
[ "$rc" -eq 0 ] && ! grep -q "note: removed $top" "$dir/again.err" ||
  fail "KILL, guardian alive: the next run: rc $rc $(cat "$dir/again.err")"
passed=$((passed + 1))

# A foreign file in the dead run's tree: refused, named, nothing touched; moved out, all goes.
crash hard KILL
foreign=$top/shared/dir.2/notes.txt
echo "the user's notes" > "$foreign"
before=$(snapshot)
rc=$(rerun refused hard)
[ "$rc" -ne 0 ] || fail "foreign: the run must refuse"
grep -q "holds $foreign (a name the rule does not make)" "$dir/refused.err" ||
  fail "foreign: the entry is not named: $(cat "$dir/refused.err")"
grep -q "pio-harness removed nothing" "$dir/refused.err" || fail "foreign: no 'removed nothing'"
[ "$(snapshot)" = "$before" ] || fail "foreign: the tree was touched"
mv "$foreign" "$dir/notes.txt"
rc=$(rerun after hard)
[ "$rc" -eq 0 ] || fail "foreign moved out: rc $rc $(cat "$dir/after.out" "$dir/after.err")"
[ ! -e "$top" ] && [ "$(cat "$dir/notes.txt")" = "the user's notes" ] || fail "foreign moved out"
passed=$((passed + 1))
echo "passed $passed of 6"
