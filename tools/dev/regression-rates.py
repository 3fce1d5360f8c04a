#!/usr/bin/python3
"""Night-level rates of pio-compare's gate over recorded runs (docs/guides/regression.md).

  regression-rates.py --aa a01.json a02.json ... [--slow s01.json ...] [--inject 2]
                      [--baseline-runs 3] [--threshold 5% --floor-us 1]

A/A: every A run from the (k+1)-th on is a night, compared with the k A runs before it; a night
fails when pio-compare would exit 1. Runs that did not complete (status, exit code) are left
out, as pio-nightly never puts them in a baseline. A/slow: each slow run is compared with the k
A runs recorded just before it (by file modification time); it is detected when pio-compare
exits 1. --inject F: every A night again with the bandwidth of every file I/O repetition divided
by F (a slowdown of exactly F on this machine's real noise). Prints the rates, the tests that
fired, and each slow run's I/O slowdown (pooled baseline median / its median). The baseline here
rolls (the k runs before each night); pio-nightly's is its first KEEP good nights. To run nights
through pio-nightly itself, with provoked slowdowns: measure-nightly-gate.py."""
import copy
import argparse
import os
import sys

_here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # tools/, for piotools
sys.path.insert(0, _here)

from piotools import cli, compare, results  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--aa", nargs="+", required=True, metavar="RUN", help="A runs, in time order")
    ap.add_argument("--slow", nargs="*", default=[], metavar="RUN", help="slowed runs")
    ap.add_argument("--inject", type=float, help="slow every A night's I/O tests by this factor")
    ap.add_argument("--baseline-runs", type=int, default=3, help="k (default 3)")
    ap.add_argument("--threshold", type=cli.fraction, default=compare.DEFAULTS["threshold"])
    ap.add_argument("--floor-us", type=float, default=compare.DEFAULTS["floor_us"])
    a = ap.parse_args(argv)
    k = a.baseline_runs
    aa = []
    for d in results.load_many(a.aa):
        if d.get("status") == "complete" and d.get("exit_code") == 0:
            aa.append(d)
        else:
            print(f"left out {os.path.basename(d['_path'])}: status {d.get('status')}, exit "
                  f"code {d.get('exit_code')}")
    opts = dict(threshold=a.threshold, floor_us=a.floor_us)

    def night(base, cand):
        rep = compare.compare_runs(base, cand, **opts)
        fired = [f"{r['name']} {r['change'] * 100:+.0f}%" for r in rep["rows"]
                 if r["verdict"] == "regression"]
        return compare.exit_status(rep), fired, rep

    fails = 0
    nights = 0
    for i in range(k, len(aa)):
        status, fired, _ = night(aa[i - k:i], aa[i])
        nights += 1
        fails += status == compare.EXIT_REGRESSION
        print(f"A/A {os.path.basename(aa[i]['_path'])}: exit {status}"
              + (f"  ({'; '.join(fired)})" if fired else ""))
    if nights:
        print(f"A/A night-level false alarms: {fails} of {nights} ({fails / nights:.0%})")
    if a.inject:
        hit = flagged = tested = 0
        for i in range(k, len(aa)):
            slow = copy.deepcopy(aa[i])
            for b in slow["modules"]:
                for t in b["tests"]:
                    for r in t["reps"]:
                        if not r.get("op"):
                            r["bandwidth_MiBps"] /= a.inject
            status, fired, rep = night(aa[i - k:i], slow)
            hit += status == compare.EXIT_REGRESSION
            io = [r for r in rep["rows"] if r.get("higher_is_better") and "change" in r]
            tested += len(io)
            flagged += sum(r["verdict"] == "regression" for r in io)
        print(f"{a.inject:g}x slower I/O injected: nights detected {hit} of {len(aa) - k}; "
              f"I/O tests flagged {flagged} of {tested}")
    if a.slow:
        by_time = sorted(aa, key=lambda d: os.path.getmtime(d["_path"]))
        hit = 0
        flagged = tested = 0
        for p in a.slow:
            s = results.load(p)
            before = [d for d in by_time if os.path.getmtime(d["_path"]) < os.path.getmtime(p)]
            if len(before) < k:
                continue
            status, fired, rep = night(before[-k:], s)
            hit += status == compare.EXIT_REGRESSION
            io = [r for r in rep["rows"] if r.get("higher_is_better") and "change" in r]
            tested += len(io)
            flagged += sum(r["verdict"] == "regression" for r in io)
            slow = sorted(1 / (1 + r["change"]) for r in io)
            print(f"A/slow {os.path.basename(p)}: exit {status}, I/O slowdown (baseline median / "
                  f"slow median) {', '.join(f'{x:.2f}' for x in slow)}"
                  + (f"  ({'; '.join(fired)})" if fired else ""))
        print(f"A/slow nights detected: {hit} of {len(a.slow)}; I/O tests flagged: {flagged} "
              f"of {tested}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
