#!/usr/bin/python3
"""Side by side: the original b_eff 3.6 (R. Rabenseifner, G. Schulz, HLRS) and pio-bench's beff.

  compare-beff.py table ORIG_PREFIX PIO_RESULTS.json [ORIG_PREFIX PIO_RESULTS.json ...]
      reads the original's <prefix>.sum (b_eff, Table 1 row, wall time) and <prefix>.short (its
      "b_eff per message length" section, SECTION-BY-MSGLNG: logavg over patterns of the maximum
      over methods and repetitions at each L) and pio's results file (the b_eff figure under
      modules[].figure) and prints per pair and as the median over pairs: b_eff, b_eff at L_max,
      ping-pong at L_max, wall time, and the per-length curve, each with pio / original (median
      of the pairs' ratios and their min..max). MB/s = 10^6 B/s in both.

  compare-beff.py run --orig PATH/b_eff --pio PATH/pio-harness --modules DIR --np 2
                      --rounds 5 [--random 30] [--out OUTDIR]
      runs both, interleaved with the order alternating (original, pio, pio, original, ...),
      pio on a config like conf/beff.conf with RandomPatterns as the original's MAX_RANDOM (30),
      then prints the table. Build the original outside this repository with the same L_max as
      pio detects (mpicc -O2 -D MEMORY_PER_PROCESSOR=<MB per process> -o b_eff b_eff.c -lm);
      the tests never need it. The load average is printed with every run.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time


def parse_orig(prefix):
    """The original's b_eff, Table 1 cells, wall time and per-length curve (MB/s)."""
    with open(prefix + ".sum") as f:
        text = f.read()
    out = {"b_eff": None, "at_lmax": None, "ping_pong": None, "wall": None, "lmax": None,
           "curve": {}}
    m = re.search(r"^b_eff =\s*([\d.]+) MB/s", text, re.M)
    if m:
        out["b_eff"] = float(m.group(1))
    # accumulated | procs b_eff Lmax(MB) b_eff@Lmax rings@Lmax lat lat lat ping-pong
    m = re.search(r"^accumulated \|\s*(\d+)\s+([\d.]+)\s+(\d+) MB\s+([\d.]+)\s+([\d.]+)\s+"
                  r"([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", text, re.M)
    if m:
        out["at_lmax"] = float(m.group(4))
        out["ping_pong"] = float(m.group(9))
    m = re.search(r"Total execution wall clock time =\s*([\d.]+) seconds", text)
    if m:
        out["wall"] = float(m.group(1))
    with open(prefix + ".short") as f:
        short = f.read()
    sec = re.search(r"SECTION-BY-MSGLNG-BEGIN(.*?)SECTION-BY-MSGLNG-END", short, re.S)
    if sec:
        for line in sec.group(1).splitlines():
            cells = line.split()
            if len(cells) >= 2 and cells[0].isdigit():
                try:
                    out["curve"][int(cells[0])] = float(cells[1])
                except ValueError:
                    pass
    if out["curve"]:
        out["lmax"] = max(out["curve"])
    return out


def parse_pio(path):
    """pio's b_eff figure: b_eff, values at L_max, the per-length curve (MB/s), wall time."""
    with open(path) as f:
        res = json.load(f)
    fig = None
    wall = None
    for mod in res.get("modules", []):
        if mod.get("figure") and mod["figure"].get("name") == "b_eff":
            fig = mod["figure"]
            try:  # the block's wall time from its ISO timestamps
                t = [datetime.datetime.strptime(mod[k], "%Y-%m-%dT%H:%M:%S.%fZ")
                     for k in ("started", "finished")]
                wall = (t[1] - t[0]).total_seconds()
            except (KeyError, ValueError):
                wall = None
    if fig is None:
        sys.exit(path + ": no b_eff figure")
    values = {v["name"]: v["value"] for v in fig["values"]}
    curve = {}
    for t in fig["tables"]:
        if t["name"].startswith("b_eff per message length"):
            cols = t["columns"]
            for row in t["rows"]:
                r = dict(zip(cols, row))
                curve[int(r["L"])] = float(r["b_eff MB/s"])
    return {"b_eff": values.get("b_eff"), "at_lmax": values.get("b_eff at L_max"),
            "ping_pong": values.get("ping-pong bandwidth at L_max"), "wall": wall,
            "lmax": values.get("L_max"), "curve": curve}


def spread(values):
    """'median (min..max)' of the values, or '-'."""
    v = [x for x in values if x is not None]
    if not v:
        return "-"
    return "%.3f (%.2f..%.2f)" % (statistics.median(v), min(v), max(v))


def ratios(pairs, key):
    return [p[key] / o[key] for o, p in pairs if o.get(key) and p.get(key)]


def table(pairs, loads=None):
    """Prints per pair, then the medians and the pio/original ratios."""
    print("%-5s %-9s %10s %10s %10s %8s   %s" % ("pair", "side", "b_eff", "at L_max",
                                               "ping-pong", "wall s", "load"))
    for i, (o, p) in enumerate(pairs):
        load = loads[i] if loads and i < len(loads) else ""
        for side, d in (("original", o), ("pio", p)):
            print("%-5d %-9s %10s %10s %10s %8s   %s" % (
                i + 1, side, fmt(d["b_eff"]), fmt(d["at_lmax"]), fmt(d["ping_pong"]),
                fmt(d["wall"], "%.0f"), load))
    print()
    print("pio / original, median over %d pairs (min..max of the pairs' ratios):" % len(pairs))
    for key, name in (("b_eff", "b_eff"), ("at_lmax", "b_eff at L_max"),
                      ("ping_pong", "ping-pong at L_max"), ("wall", "wall time")):
        print("  %-20s %s" % (name, spread(ratios(pairs, key))))
    print()
    # The 21 lengths by index: L_max (and the 8 lengths below it) may differ by rounding.
    n = min(min(len(o["curve"]), len(p["curve"])) for o, p in pairs)
    print("b_eff per message length, MB/s: medians over pairs, pio / original per pair")
    print("%10s %10s %12s %12s   %s" % ("L orig", "L pio", "original", "pio",
                                       "pio/original median (min..max)"))
    for k in range(n):
        lo = [sorted(o["curve"].items())[k] for o, _ in pairs]
        lp = [sorted(p["curve"].items())[k] for _, p in pairs]
        rr = [b[1] / a[1] for a, b in zip(lo, lp) if a[1] > 0]
        print("%10d %10d %12.1f %12.1f   %s" % (lo[0][0], lp[0][0],
                                                statistics.median(x[1] for x in lo),
                                                statistics.median(x[1] for x in lp), spread(rr)))


def fmt(v, f="%.0f"):
    return "-" if v is None else f % v


PIO_CONF = """<ap_module>
  ModuleName beff
  ModuleReps 3
  RandomPatterns {random}
</ap_module>
"""


def load_avg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run(args):
    os.makedirs(args.out, exist_ok=True)
    conf = os.path.join(args.out, "beff.conf")
    with open(conf, "w") as f:
        f.write("TestFile " + os.path.join(args.out, "unused") + "\n" +
                PIO_CONF.format(random=args.random))
    env = dict(os.environ, HWLOC_COMPONENTS="-pci")
    pairs, loads = [], []
    for r in range(args.rounds):
        order = ("orig", "pio") if r % 2 == 0 else ("pio", "orig")
        got = {}
        load = load_avg()
        for side in order:
            t0 = time.time()
            if side == "orig":
                prefix = os.path.join(args.out, "orig%d" % (r + 1))
                cmd = ["timeout", "-k", "10", str(args.timeout), "mpiexec", "-n", str(args.np),
                       args.orig, "-f", prefix]
            else:
                prefix = os.path.join(args.out, "pio%d.json" % (r + 1))
                cmd = ["timeout", "-k", "10", str(args.timeout), "mpiexec", "-n", str(args.np),
                       args.pio, "-c", conf, "-M", args.modules, "-r", prefix]
            subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                           cwd=args.out)
            wall = time.time() - t0
            got[side] = parse_orig(prefix) if side == "orig" else parse_pio(prefix)
            if got[side]["wall"] is None or side == "pio":
                got[side]["wall"] = wall
            print("round %d %-4s %6.0f s  b_eff %s MB/s  load %s" % (
                r + 1, side, wall, fmt(got[side]["b_eff"]), load), flush=True)
        pairs.append((got["orig"], got["pio"]))
        loads.append(load + " -> " + load_avg())
    print()
    table(pairs, loads)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+", help="ORIG_PREFIX PIO_RESULTS.json pairs")
    r = sub.add_parser("run")
    r.add_argument("--orig", required=True)
    r.add_argument("--pio", required=True)
    r.add_argument("--modules", required=True, help="pio's module directory")
    r.add_argument("--np", type=int, default=2)
    r.add_argument("--rounds", type=int, default=5)
    r.add_argument("--random", type=int, default=30)
    r.add_argument("--timeout", type=int, default=900)
    r.add_argument("--out", default="compare-beff-out")
    a = ap.parse_args()
    if a.cmd == "table":
        if len(a.files) % 2:
            sys.exit("give ORIG_PREFIX PIO_RESULTS.json pairs")
        pairs = [(parse_orig(a.files[i]), parse_pio(a.files[i + 1]))
                 for i in range(0, len(a.files), 2)]
        table(pairs)
    else:
        a.out = os.path.abspath(a.out)
        run(a)


if __name__ == "__main__":
    main()
