#!/bin/sh
# The real pio-harness under mpiexec (docs/reference/reliability.md): every death explained and its
# leftovers recognised, SIGINT/SIGTERM clean up and exit 130/143, an exit() in a module is a
# failure, bad configs (also a module's DirectiveError in the last block) exit 2 on every rank
# before any I/O, ModuleSettleTime does not trip the watchdog, and the watchdog names the stuck
# rank. Usage: MPIEXEC N HARNESS MODDIR
set -u
mpiexec=$1; n=$2; harness=$3; moddir=$4
last=$((n - 1))
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
passed=0
fail() { echo "FAIL: $*"; exit 1; }
ok() { passed=$((passed + 1)); }
run() { # run CONF OUT [args...]: the harness under mpiexec; prints the exit code
  conf=$1; out=$2; shift 2
  "$mpiexec" -n "$n" "$harness" -c "$conf" "$@" > "$out" 2>&1
  echo $?
}
faults() { # faults NAME DIRECTIVES: a config with one test_faults block failing on the last rank
  cat > "$dir/$1.conf" <<CONF
TestFile $dir/$1.dat
ModulePath $moddir
ResultsFile $dir/$1.json
<ap_module>
  ModuleName test_faults
  FailRank $last
  FailTest 1
$2
</ap_module>
<ap_module>
  ModuleName null
</ap_module>
CONF
}
no_leftovers() { # no file of ours may stay in $dir after a run that cleaned up
  left=$(cd "$dir" && ls -A | grep -E '\.dat|pio-owner|pio-tmp' || true)
  [ -z "$left" ] || fail "$1: left behind: $left"
}

# 1. Fatal signals name rank, module, test and method; the leftover is recognised next time.
for case in "Segv SIGSEGV work_unit" "Crash SIGABRT describe_test"; do
  set -- $case
  faults "sig$1" "  FailIn $3
  $1 on"
  rc=$(run "$dir/sig$1.conf" "$dir/sig$1.out")
  [ "$rc" -ne 0 ] || fail "$1: a rank that died must fail the run"
  grep -q "rank $last died of $2" "$dir/sig$1.out" || fail "$1: no rank/signal: $(cat "$dir/sig$1.out")"
  grep -q "in module test_faults, test 2 (t1), step $3" "$dir/sig$1.out" ||
    fail "$1: module, test and method not named: $(cat "$dir/sig$1.out")"
  # A run of the same config without the fault removes the dead run's leftover by itself.
  sed -i "s/$1 on/$1 off/" "$dir/sig$1.conf"
  rm -f "$dir/sig$1.json"
  rc=$(run "$dir/sig$1.conf" "$dir/sig$1.again")
  [ "$rc" -eq 1 ] || fail "$1: the rerun (with its injected exception) must run: rc $rc $(cat "$dir/sig$1.again")"
  no_leftovers "$1 rerun"
  ok
done

# 2. exit() inside a module on one rank is never a success.
faults exit "  FailIn work_unit
  Exit on"
rc=$(run "$dir/exit.conf" "$dir/exit.out")
[ "$rc" -ne 0 ] || fail "exit(0) in a module must not end the run with 0"
grep -q "rank $last called exit() before the run finished in module test_faults, test 2 (t1), step work_unit" \
  "$dir/exit.out" || fail "exit(): not explained: $(cat "$dir/exit.out")"
# The rank that called exit() leaves them "running"; at more than one rank mpiexec's proxy then
# ends rank 0 (SIGTERM, and SIGKILL at once), which marks them interrupted (its handler, or its
# guardian): never complete.
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = (d["status"], d.get("signal"), d["exit_code"])
ok = [("running", None, 0)] if sys.argv[2] == "1" else [("interrupted", "SIGKILL", 137),
                                                        ("interrupted", "SIGTERM", 143)]
assert got in ok, got
' "$dir/exit.json" "$n" || fail "exit(): the results must say the run did not finish"
ok

# 3. SIGTERM, SIGINT and SIGHUP: 143, 130 and 129, nothing of ours left, and the results say
# the run was interrupted, by which signal, with that exit code.
for sig in TERM:143 INT:130 HUP:129; do
  name=${sig%%:*}; code=${sig##*:}
  rm -f "$dir"/*.dat* "$dir/hang$name.json"
  faults "hang$name" "  FailIn work_unit
  FailTest 0
  Hang on"
  sed -i "1i StepTimeout 0" "$dir/hang$name.conf"
  # One rank: the harness itself (a singleton), since mpiexec's own exit code then depends on
  # whether it or the rank saw the signal first.
  if [ "$n" -eq 1 ]; then
    "$harness" -c "$dir/hang$name.conf" > "$dir/hang$name.out" 2>&1 &
  else
    "$mpiexec" -n "$n" "$harness" -c "$dir/hang$name.conf" > "$dir/hang$name.out" 2>&1 &
  fi
  pid=$!
  i=0
  while [ ! -e "$dir/hang$name.dat" ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
  sleep 1
  if [ "$name" = HUP ] && [ "$n" -gt 1 ]; then
    # MPICH's mpiexec dies of SIGHUP and its proxy then SIGKILLs the ranks (the next run removes
    # what they left); a hang-up that reaches the job's processes, as a batch system's does,
    # reaches the ranks: send it to them (the children of mpiexec's proxy).
    for proxy in $(pgrep -P $pid); do kill -HUP $(pgrep -P "$proxy"); done
  else
    kill -"$name" $pid
  fi
  wait $pid
  rc=$?
  # Each rank exits with 128 + signal. What mpiexec itself returns after it was signalled is
  # its own business (MPICH's hydra returns 0 or a rank's code, depending on timing).
  if [ "$n" -eq 1 ]; then
    [ "$rc" -eq "$code" ] || fail "SIG$name: exit $rc, expected $code: $(cat "$dir/hang$name.out")"
  fi
  [ "$(grep -c "SIG$name) in module" "$dir/hang$name.out")" -eq "$n" ] ||
    fail "SIG$name: not every rank cleaned up: $(cat "$dir/hang$name.out")"
  grep -q "SIG$name) in module test_faults" "$dir/hang$name.out" ||
    fail "SIG$name: where the run stopped is not named: $(cat "$dir/hang$name.out")"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = (d["status"], d.get("signal"), d["exit_code"])
assert got == ("interrupted", sys.argv[2], int(sys.argv[3])), got
' "$dir/hang$name.json" "SIG$name" "$code" || fail "SIG$name: results not marked interrupted"
  rm -f "$dir/hang$name.json"
  no_leftovers "SIG$name"
  ok
done

# 3b. A file-size limit (ulimit -f): the write that crosses it fails (EFBIG, never SIGXFSZ) and
# the error names rank, module, test and step; the test files go; the results say failed.
cat > "$dir/fsize.conf" <<CONF
TestFile $dir/fsize.dat
ModulePath $moddir
ResultsFile $dir/fsize.json
<ap_module>
  ModuleName simple_strided
  BufferSizes 4M
  WorkUnits 32
</ap_module>
CONF
# 65536 blocks (32 MiB in dash's 512-byte blocks, 64 MiB in bash's 1 KiB): room for MPICH's
# shared-memory segment at 4 ranks, never for the 128 MiB per rank written.
rc=$( (ulimit -f 65536; run "$dir/fsize.conf" "$dir/fsize.out") )
[ "$rc" -eq 1 ] || fail "ulimit -f: exit $rc, expected 1: $(cat "$dir/fsize.out")"
grep -q "module simple_strided ([^)]*fsize.conf:4), rank [0-9]* on [^:]*: test 1 (4M), rep 0: work_unit: MPI_File_write_at failed" \
  "$dir/fsize.out" && grep -q "File too large" "$dir/fsize.out" ||
  fail "ulimit -f: rank, module, step or the cause not named: $(cat "$dir/fsize.out")"
if grep -q "signal 25\|SIGXFSZ\|File size limit" "$dir/fsize.out"; then
  fail "ulimit -f killed a rank: $(cat "$dir/fsize.out")"
fi
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"]=="failed" and d["exit_code"]==1' \
  "$dir/fsize.json" || fail "ulimit -f: results not marked failed"
rm -f "$dir/fsize.json"
no_leftovers "ulimit -f"
ok

# An HDF5 run ends as it began: libhdf5 hangs a callback on MPI_COMM_SELF that MPI_Finalize calls
# after the harness has unloaded the backend (it died of SIGSEGV at exit, exit 139).
cat > "$dir/h5ok.conf" <<CONF
TestFile $dir/h5ok.dat
ModulePath $moddir
ResultsFile $dir/h5ok.json
<ap_module>
  ModuleName simple_strided
  Interface hdf5
  BufferSizes 4K
  WorkUnits 2
</ap_module>
CONF
rc=$(run "$dir/h5ok.conf" "$dir/h5ok.out")
[ "$rc" -eq 0 ] || fail "an hdf5 run must exit 0: exit $rc: $(cat "$dir/h5ok.out")"
rm -f "$dir/h5ok.json"
no_leftovers "hdf5 run"
ok

# 3b'. The same limit under Interface hdf5 (as a full file system: the write fails on the ranks
# whose share crosses it): a collective write and a chunked one each fail within seconds with
# the cause named, never waiting in HDF5's collective steps for the rank that failed (the
# StepTimeout of 60 s would end such a run with exit 3); the file goes; the next block runs.
cat > "$dir/h5full.conf" <<CONF
TestFile $dir/h5full.dat
ModulePath $moddir
ResultsFile $dir/h5full.json
StepTimeout 60
<ap_module>
  ModuleName simple_strided
  Interface hdf5
  Collective on
  BufferSizes 1M
  WorkUnits 32
</ap_module>
<ap_module>
  ModuleName simple_strided
  Interface hdf5
  H5ChunkSize 64K
  BufferSizes 1M
  WorkUnits 32
</ap_module>
<ap_module>
  ModuleName simple_strided
  BufferSizes 4K
  WorkUnits 4
</ap_module>
CONF
# 32768 blocks: 16 MiB in dash's 512-byte blocks, 32 MiB in bash's; the file grows to 32 MiB per rank.
rc=$( (ulimit -f 32768; run "$dir/h5full.conf" "$dir/h5full.out") )
[ "$rc" -eq 1 ] || fail "hdf5 under ulimit -f: exit $rc, expected 1: $(cat "$dir/h5full.out")"
[ "$(grep -c 'work_unit: H5Dwrite("[^"]*h5full.dat") failed: .*File too large' "$dir/h5full.out")" -ge 2 ] ||
  fail "hdf5 under ulimit -f: the cause is not named for both blocks: $(cat "$dir/h5full.out")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "failed" and d["exit_code"] == 1, d["status"]
blocks = d["modules"]
assert len(blocks) == 3, len(blocks)
assert all(b["tests"][0].get("error") for b in blocks[:2]), "the hdf5 blocks must fail"
assert not blocks[2]["tests"][0].get("error") and blocks[2]["tests"][0]["reps"], "the last block must run"
' "$dir/h5full.json" || fail "hdf5 under ulimit -f: results: $(cat "$dir/h5full.out")"
rm -f "$dir/h5full.json"
no_leftovers "hdf5 under ulimit -f"
ok

# 3c. MPI_Abort in a module names rank, module, test and method; a rerun removes what the
# killed ranks left (their owner records prove the files theirs).
faults abort "  FailIn work_unit
  Abort on"
rc=$(run "$dir/abort.conf" "$dir/abort.out")
[ "$rc" -ne 0 ] || fail "MPI_Abort in a module must fail the run"
grep -q "rank $last called MPI_Abort (error code 3) in module test_faults, test 2 (t1), step work_unit" \
  "$dir/abort.out" || fail "MPI_Abort: not explained: $(cat "$dir/abort.out")"
sed -i "s/Abort on/Abort off/" "$dir/abort.conf"
rm -f "$dir/abort.json"
rc=$(run "$dir/abort.conf" "$dir/abort.again")
[ "$rc" -eq 1 ] || fail "MPI_Abort: the rerun must run: rc $rc $(cat "$dir/abort.again")"
rm -f "$dir/abort.json"
no_leftovers "MPI_Abort rerun"
ok

# 3d. SIGINT during b_eff_io's type 1 (shared file pointers): the test file, its owner record
# and ROMIO's hidden .<name>.shfp.* file are all removed.
cat > "$dir/shfp.conf" <<CONF
TestFile $dir/shfp.dat
ModulePath $moddir
ResultsFile $dir/shfp.json
StepTimeout 0
<ap_module>
  ModuleName beff_io
  ScheduledTime 60
  PatternTypes 1
  SharedPointers on
  MPart 1M
</ap_module>
CONF
"$mpiexec" -n "$n" "$harness" -c "$dir/shfp.conf" > "$dir/shfp.out" 2>&1 &
pid=$!
i=0
while [ -z "$(cd "$dir" && ls -A | grep '^\.shfp\.dat.*\.shfp\.')" ] && [ $i -lt 150 ]; do
  sleep 0.2; i=$((i + 1))
done
if [ $i -ge 150 ]; then
  kill -INT $pid; wait $pid
  fail "b_eff_io type 1 made no shared-pointer file: $(cat "$dir/shfp.out")"
fi
sleep 1  # type 1 runs (its shared-pointer file exists): the signal lands inside it
kill -INT $pid
wait $pid
left=$(cd "$dir" && ls -A | grep -E '^\.?shfp\.dat' || true)
[ -z "$left" ] || fail "SIGINT in b_eff_io type 1 left: $left $(cat "$dir/shfp.out")"
rm -f "$dir/shfp.json"
ok

# 3e. A crash in b_eff_io's first test, rank 0 and its guardian killed (a node lost: nothing
# cleans up): the shared-pointer probe file it made in init_module is stamped in its owner
# record, so the next run of the config removes it and the test file, and runs.
sed -e "s|shfp|crash|g" -e "s|ScheduledTime 60|ScheduledTime 120|" "$dir/shfp.conf" > "$dir/crash.conf"
"$mpiexec" -n "$n" "$harness" -c "$dir/crash.conf" > "$dir/crash.out" 2>&1 &
pid=$!
i=0
until grep -qs "^file open" "$dir/crash.dat.type1.pio-owner" || [ $i -ge 600 ]; do
  sleep 0.1; i=$((i + 1))
done
[ $i -lt 600 ] || { kill -INT $pid; wait $pid; fail "b_eff_io never opened its file: $(cat "$dir/crash.out")"; }
rank0=$(sed -n 's/^pid //p' "$dir/crash.dat.type1.pio-owner")
kill -KILL $(pgrep -P "$rank0" pio-guardian) "$rank0"
wait $pid
[ -e "$dir/crash.dat.beff_io-probe" ] && [ -e "$dir/crash.dat.type1" ] ||
  fail "b_eff_io crash: the probe and the test file should be left: $(ls -A "$dir")"
# The rerun need only run (b_eff_io's shortest schedule): what is asserted is its cleanup.
sed -i "s|ScheduledTime 120|ScheduledTime 1|" "$dir/crash.conf"
rm -f "$dir/crash.json"
rc=$(run "$dir/crash.conf" "$dir/crash.again")
[ "$rc" -eq 0 ] || fail "b_eff_io after a crash: the next run must remove the leftovers and run: rc $rc $(cat "$dir/crash.again")"
grep -q "removed $dir/crash.dat.beff_io-probe, left behind by pio-bench run" "$dir/crash.again" ||
  fail "b_eff_io after a crash: the probe's removal is not said: $(cat "$dir/crash.again")"
rm -f "$dir/crash.json"
no_leftovers "b_eff_io after a crash"
ok

# 4. Bad configs: exit 2 with file:line, before any file is made.
printf 'Overwrite off\n' > "$dir/precious.dat"
long=$(python3 -c 'print("#" + "x" * 4094 + "Overwrite on")')
i=0
for body in "Include self0.conf" "Include /dev/zero" "Include \"\"" "Include $dir" \
    "WorkUnits 4@NUL@ 8" "$long" "StepTimeout nan" "ModuleReps 4294967296"; do
  conf="$dir/self$i.conf"
  {
    echo "TestFile $dir/precious.dat"
    echo "ModulePath $moddir"
    echo "ResultsFile $dir/bad$i.json"
    echo "<ap_module>"
    echo "ModuleName null"
    echo "</ap_module>"
    echo "$body" | sed "s/self0/self$i/" | sed 's/@NUL@/\x00/'
  } > "$conf"
  where=7
  case "$body" in WorkUnits*|ModuleReps*) # inside the block: line 6
    sed -i '6d' "$conf"; echo "</ap_module>" >> "$conf"; where=6;; esac
  rc=$(run "$conf" "$dir/bad$i.out")
  [ "$rc" -eq 2 ] || fail "config '$body' must exit 2, got $rc: $(cat "$dir/bad$i.out")"
  grep -q "self$i.conf:$where" "$dir/bad$i.out" || fail "config '$body': no file:line: $(cat "$dir/bad$i.out")"
  grep -q "(fix: " "$dir/bad$i.out" || fail "config '$body': no fix"
  [ "$(cat "$dir/precious.dat")" = "Overwrite off" ] || fail "config '$body' touched a user file"
  [ ! -e "$dir/bad$i.json" ] || fail "config '$body' wrote results"
  i=$((i + 1))
done
rm -f "$dir/precious.dat"
no_leftovers "bad configs"
ok

# 4b. A value only a module can judge, in the last block: the pre-flight check stops the run
# with exit 2 and file:line before the first block writes its file; --check finds it too; the
# same config without the bad block runs.
cat > "$dir/late.conf" <<CONF
TestFile $dir/late.dat
ModulePath $moddir
ResultsFile $dir/late.json
<ap_module>
  ModuleName simple_strided
  BufferSizes 4K
</ap_module>
<ap_module>
  ModuleName simple_strided
  TestFile $dir/late2.dat
  StripSize 3K
  BufferSizes 4K
</ap_module>
CONF
for check in "" --check; do
  rc=$(run "$dir/late.conf" "$dir/late.out" $check)
  [ "$rc" -eq 2 ] || fail "late bad value $check: exit $rc, expected 2: $(cat "$dir/late.out")"
  grep -q "late.conf:11: StripSize" "$dir/late.out" || fail "late bad value $check: no file:line: $(cat "$dir/late.out")"
  grep -q "(fix: " "$dir/late.out" || fail "late bad value $check: no fix"
  [ ! -e "$dir/late.dat" ] && [ ! -e "$dir/late2.dat" ] || fail "late bad value $check: a test file was made"
  [ ! -e "$dir/late.json" ] || fail "late bad value $check: results were written"
done
no_leftovers "late bad value"
sed -i "8,13d" "$dir/late.conf"
rc=$(run "$dir/late.conf" "$dir/late.out")
[ "$rc" -eq 0 ] || fail "the valid part of late.conf must run: exit $rc: $(cat "$dir/late.out")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"]=="complete" and len(d["modules"])==1' \
  "$dir/late.json" || fail "late.conf without its bad block: results incomplete"
ok

# 5. ModuleSettleTime longer than StepTimeout (twice it) is not a hang.
cat > "$dir/settle.conf" <<CONF
TestFile $dir/settle.dat
ModulePath $moddir
ResultsFile $dir/settle.json
StepTimeout 1
<ap_module>
  ModuleName null
  ModuleSettleTime 2
</ap_module>
CONF
rc=$(run "$dir/settle.conf" "$dir/settle.out")
[ "$rc" -eq 0 ] || fail "ModuleSettleTime 2 with StepTimeout 1 must not trip the watchdog: $(cat "$dir/settle.out")"
ok

# 6. The watchdog names the rank that is stuck, and in which step.
faults stuck "  FailIn before_work_unit
  Hang on"
sed -i "1i StepTimeout 2" "$dir/stuck.conf"
rc=$(run "$dir/stuck.conf" "$dir/stuck.out")
[ "$rc" -ne 0 ] || fail "a stuck rank must fail the run"
grep -q "rank $last made no progress for 2 s (StepTimeout) in module test_faults, test 2 (t1), step before_work_unit" \
  "$dir/stuck.out" || fail "the stuck rank is not named: $(cat "$dir/stuck.out")"
ok

echo "hardening_process.n$n: $passed passed, 0 failed"
