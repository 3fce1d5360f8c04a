#!/usr/bin/python3
"""pio-nightly under a terminal's Ctrl-C, with the real mpiexec and pio-harness (issue 45's way):
the job runs as a terminal's foreground process group (its own session here), a night of a
30 s null block starts, and SIGINT goes to the whole group at once. The job must exit 130 within
seconds, its mpiexec and ranks must be gone, the results must say "interrupted" and baseline/
must be as it was (seeded by an earlier night).

  nightly_interrupt_test.py MPIEXEC NP HARNESS MODULE_DIR"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                      "tools"))


def fail(message):
    print(f"nightly_interrupt_test: FAILED: {message}")
    sys.exit(1)


def main(mpiexec, np, harness, modules):
    work = tempfile.mkdtemp(prefix="nightly-interrupt-")
    try:
        conf = os.path.join(work, "night.conf")
        env = dict(os.environ, MPIEXEC=f"{mpiexec} -n {np}", PIO_HARNESS=harness,
                   PIO_COMPARE=os.path.join(TOOLS, "pio-compare"), PIO_MODULE_PATH=modules,
                   MPIR_CVAR_POLLS_BEFORE_YIELD="1", HWLOC_COMPONENTS="-pci")
        job = os.path.join(work, "job")

        def night(budget):
            with open(conf, "w", encoding="utf-8") as f:
                f.write(f'TestFile "{work}/t.dat"\n<ap_module>\n  ModuleName null\n  Label slow\n'
                        f"  DelayMs 10\n  TimeBudget {budget}\n</ap_module>\n")
            return subprocess.Popen([os.path.join(TOOLS, "pio-nightly"), conf, job], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                    start_new_session=True)

        first = night(0.2)
        out, _ = first.communicate(timeout=120)
        if first.returncode == 6 and "FLAGGED" in out:
            # Flagged (oversubscribed ranks, a loaded machine): pio-nightly never seeds with it,
            # so the baseline is seeded by hand, as an administrator would after reading it.
            run = [r for r in sorted(glob.glob(os.path.join(job, "runs", "*.json")))
                   if not r.endswith(".compare.json")][-1]
            shutil.copy(run, os.path.join(job, "baseline", os.path.basename(run)))
        elif first.returncode != 0 or "first night: baseline/ seeded" not in out:
            fail(f"the first night did not seed the baseline (exit {first.returncode}):\n{out}")
        before = sorted(os.listdir(os.path.join(job, "baseline")))

        def results():
            return [r for r in sorted(glob.glob(os.path.join(job, "runs", "*.json")))
                    if not r.endswith(".compare.json")]

        p = night(30)
        end = time.time() + 60
        while time.time() < end:  # until the run has written its results: it is under way
            if len(results()) == 2 and os.path.getsize(results()[-1]) > 0:
                break
            time.sleep(0.1)
        else:
            p.kill()
            fail("the second night's run never started")
        time.sleep(1)
        t0 = time.time()
        os.killpg(p.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        try:
            out, _ = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            fail("pio-nightly did not stop within 60 s of Ctrl-C")
        took = time.time() - t0
        left = subprocess.run(["pgrep", "-f", conf], capture_output=True, text=True).stdout
        if left.strip():
            fail(f"processes of the run survived the job's Ctrl-C: {left}")
        if p.returncode != 130:
            fail(f"exit {p.returncode}, not 130:\n{out}")
        if "pio-nightly: interrupted (SIGINT)" not in out:
            fail(f"no 'interrupted' message:\n{out}")
        runs = results()
        with open(runs[-1], encoding="utf-8") as f:
            doc = json.load(f)
        if doc.get("status") != "interrupted":
            fail(f"the results say {doc.get('status')!r}, not 'interrupted'")
        if os.path.exists(runs[-1][:-5] + ".compare.txt"):
            fail("the interrupted night was compared")
        if sorted(os.listdir(os.path.join(job, "baseline"))) != before:
            fail("baseline/ changed")
        print(f"nightly_interrupt_test: {np} ranks: stopped {took:.1f} s after Ctrl-C, exit 130, "
              "results interrupted, baseline untouched, nothing left")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
