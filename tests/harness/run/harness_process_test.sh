#!/bin/sh
# The real pio-harness under mpiexec: a crash in a later module keeps the earlier results and
# the exit is non-zero; a config error exits 2 on every rank; live progress is on by default on
# rank 0's standard error (a pipe under mpiexec) and off with --quiet. Usage: MPIEXEC N HARNESS
# MODDIR
set -u
mpiexec=$1; n=$2; harness=$3; moddir=$4
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/crash.conf" <<CONF
TestFile $dir/crash.dat
ModulePath $moddir
ResultsFile $dir/crash.json
<ap_module>
  ModuleName null
  WorkUnits 2
</ap_module>
<ap_module>
  ModuleName test_faults
  FailIn work_unit
  FailTest 1
  FailRank 0
  Crash on
</ap_module>
CONF
"$mpiexec" -n "$n" "$harness" -c "$dir/crash.conf" > "$dir/out" 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "a crashing module must make the run exit non-zero"
python3 - "$dir/crash.json" <<'PY' || fail "results of completed tests were not kept"
import json, sys
d = json.load(open(sys.argv[1]))
null = d["modules"][0]
assert null["module"] == "null" and null["tests"][0]["reps"], "null results lost"
faults = d["modules"][1]
assert faults["tests"][0]["reps"] and faults["tests"][0]["error"] is None, "test 0 results lost"
# The crash happened mid-run: rank 0's handler marked the document with the signal.
assert (d["status"], d["signal"], d["exit_code"]) == ("interrupted", "SIGABRT", 134), d["status"]
PY

printf 'TestFile %s/x\nNoSuchDirective 1\n' "$dir" > "$dir/bad.conf"
"$mpiexec" -n "$n" "$harness" -c "$dir/bad.conf" > "$dir/out2" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "config error must exit 2 (got $rc)"
grep -q "bad.conf:2" "$dir/out2" || fail "config error must name file:line: $(cat "$dir/out2")"
# StepTimeout: a rank stuck in a module must not leave the others waiting forever.
cat > "$dir/hang.conf" <<CONF
TestFile $dir/hang.dat
ModulePath $moddir
ResultsFile $dir/hang.json
StepTimeout 2
<ap_module>
  ModuleName null
  WorkUnits 2
</ap_module>
<ap_module>
  ModuleName test_faults
  FailIn work_unit
  FailRank 0
  Hang on
</ap_module>
CONF
start=$(date +%s)
"$mpiexec" -n "$n" "$harness" -c "$dir/hang.conf" > "$dir/out3" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))
[ "$rc" -ne 0 ] || fail "a hung rank must make the run exit non-zero"
grep -q "made no progress for 2 s (StepTimeout) in module test_faults" "$dir/out3" ||
  fail "the watchdog must say where the rank was stuck: $(cat "$dir/out3")"
[ "$elapsed" -lt 60 ] || fail "the run took ${elapsed}s to end after a hang"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["modules"][0]["tests"][0]["reps"]' "$dir/hang.json" ||
  fail "results measured before the hang were lost"

# Live progress by default (docs/reference/results.md, "Live progress"): rank 0 alone prints a line
# per block start on standard error, never on standard output; --quiet prints none.
cat > "$dir/two.conf" <<CONF
TestFile $dir/two.dat
ModulePath $moddir
ResultsFile $dir/two.json
<ap_module>
  ModuleName null
  Label first
  TimeBudget 0.5
</ap_module>
<ap_module>
  ModuleName null
  Label second
  WorkUnits 2
</ap_module>
CONF
"$mpiexec" -n "$n" "$harness" -c "$dir/two.conf" > "$dir/out4" 2> "$dir/err4" ||
  fail "the two-block run failed: $(cat "$dir/out4" "$dir/err4")"
[ "$(grep -c '^pio-harness: progress: \[1/2\] first (null): started, elapsed ' "$dir/err4")" -eq 1 ] &&
  [ "$(grep -c '^pio-harness: progress: \[2/2\] second (null): started, elapsed ' "$dir/err4")" -eq 1 ] ||
  fail "one progress line per block start from rank 0 expected on standard error: $(cat "$dir/err4")"
! grep -q "progress:" "$dir/out4" || fail "progress lines on standard output: $(cat "$dir/out4")"
"$mpiexec" -n "$n" "$harness" -c "$dir/two.conf" --overwrite --quiet > "$dir/out5" 2> "$dir/err5" ||
  fail "the --quiet run failed: $(cat "$dir/out5" "$dir/err5")"
! grep -q "progress:" "$dir/err5" || fail "--quiet printed progress: $(cat "$dir/err5")"
echo "harness_process: 4 passed, 0 failed"
