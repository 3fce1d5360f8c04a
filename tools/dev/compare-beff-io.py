#!/usr/bin/python3
"""Side by side: the original b_eff_io 2.1 (R. Rabenseifner, HLRS) and pio-bench's beff_io.

  compare-beff-io.py table ORIG_PREFIX PIO_RESULTS.json [ORIG_PREFIX PIO_RESULTS.json ...]
      reads the original's <prefix>.sum (and <prefix>.prot for its wall time) and pio's results
      file (the b_eff_io figure under modules[].figure) and prints, per pair and as the median
      over pairs, the table of docs/reference/beff_io.md: b_eff_io by each tool's definition, both
      through the original's formula, the original's data through the paper formula, wall time, and
      the bandwidth per access method and pattern type (MB/s = 10^6 B/s).

  compare-beff-io.py run --orig PATH/b_eff_io --pio PATH/pio-harness --dir DIR --np 2 -T 60
                         --mb 6144 --rounds 3 [--out OUTDIR]
      runs both in DIR, interleaved with the order alternating (original, pio, pio, original,
      ...), each with the same memory per process (-MB for the original, MemoryPerNode = MB x np for pio, so M_PART =
      MB / 128 for both), one partition of np processes (-N np), the same T; then prints the
      table. The original is built by the user outside this repository (mpicc -o b_eff_io
      b_eff_io.c -lm); the tests never need it.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

METHODS = ("write", "rewrite", "read")
MIB_IN_MB = 1.048576


def parse_sum(prefix):
    """The original's summary: per partition the total-<method> rows (MB/s per type) and
    b_eff_io; the wall time from the .prot file when it is there."""
    with open(prefix + ".sum") as f:
        text = f.read()
    parts = {}
    for m in re.finditer(r"^\s*(\d+) PEs\s+total-(\w+)\s+(.*)$", text, re.M):
        procs, method, cells = int(m.group(1)), m.group(2), m.group(3).split()
        row = {}
        for t, c in enumerate(cells):
            if c != "-":
                row[t] = float(c)
        parts.setdefault(procs, {})[method] = row
    for m in re.finditer(r"b_eff_io of these measurements =\s*([\d.]+) MB/s on (\d+) processes",
                         text):
        parts.setdefault(int(m.group(2)), {})["b_eff_io"] = float(m.group(1))
    best = re.search(r"^\s*b_eff_io =\s*([\d.]+) MB/s on (\d+) processes", text, re.M)
    out = {"parts": parts, "b_eff_io": float(best.group(1)) if best else None,
           "procs": int(best.group(2)) if best else None, "wall": None}
    try:
        with open(prefix + ".prot") as f:
            w = re.search(r"total execution time is\s*([\d.]+) sec", f.read())
            out["wall"] = float(w.group(1)) if w else None
    except OSError:
        pass
    return out


def parse_pio(path):
    """pio's b_eff_io figure: per partition and method the type bandwidths, in MB/s."""
    with open(path) as f:
        res = json.load(f)
    fig = None
    for mod in res.get("modules", []):
        if mod.get("figure") and mod["figure"].get("name") == "b_eff_io":
            fig = mod["figure"]
    if fig is None:
        sys.exit(path + ": no b_eff_io figure")
    values = {v["name"]: v for v in fig["values"]}
    scale = MIB_IN_MB if values["b_eff_io"]["unit"] == "MiB/s" else 1.0
    parts = {}
    for t in fig["tables"]:
        if t["name"] != "types":
            continue
        cols = t["columns"]
        for row in t["rows"]:
            r = dict(zip(cols, row))
            bw = r.get("MB/s", r.get("MiB/s", 0.0) * MIB_IN_MB)
            parts.setdefault(int(r["partition"]), {}).setdefault(r["method"], {})[
                int(r["type"])] = bw
    procs = int(values["processes"]["value"])
    P = "P%d " % procs
    return {"parts": parts, "procs": procs,
            "b_eff_io": values["b_eff_io"]["value"] * scale,
            "definition": "original" if values.get("definition_original", {}).get("value", 0)
            else "paper",
            "by_original": values.get(P + "b_eff_io by original formula", {}).get("value", 0) *
            scale,
            "by_paper": values.get(P + "b_eff_io by paper formula", {}).get("value", 0) * scale,
            "wall": values.get(P + "wall_time", {}).get("value")}


def weighted(row):
    """(2 b0 + b1 + ... + b4) / 6 over the types present."""
    w = sum(2 if t == 0 else 1 for t in row)
    return sum((2 if t == 0 else 1) * bw for t, bw in row.items()) / w if w else 0.0


def original_formula(part):
    """b_eff_io 2.1: sqrt((w0 + ... + w4 + rw0) / 6 * (2 r0 + r1 + ... + r4) / 6)."""
    w = list(part.get("write", {}).values())
    rw0 = part.get("rewrite", {}).get(0)
    wr = (sum(w) + (rw0 or 0)) / (len(w) + (1 if rw0 is not None else 0))
    return (wr * weighted(part.get("read", {}))) ** 0.5


def paper_formula(part):
    """The paper definition: 25 % write + 25 % rewrite + 50 % read, type 0 double in each."""
    return (0.25 * weighted(part.get("write", {})) + 0.25 * weighted(part.get("rewrite", {})) +
            0.5 * weighted(part.get("read", {})))


def pair_rows(orig, pio):
    """The comparison rows of one pair: (label, original, pio)."""
    procs = pio["procs"]
    op = orig["parts"].get(procs, {})
    pp = pio["parts"].get(procs, {})
    rows = [("b_eff_io, each by its own definition (%s for pio)" % pio["definition"],
             orig["parts"].get(procs, {}).get("b_eff_io", orig["b_eff_io"]), pio["b_eff_io"]),
            ("both through the original's formula", original_formula(op), original_formula(pp)),
            ("both through the paper formula", paper_formula(op), paper_formula(pp)),
            ("wall time [s]", orig["wall"], pio["wall"])]
    for m in METHODS:
        for t in range(5):
            o, p = op.get(m, {}).get(t), pp.get(m, {}).get(t)
            if o is not None or p is not None:
                rows.append(("%s type %d [MB/s]" % (m, t), o, p))
    return rows


def fmt(v):
    return "–" if v is None else ("%.1f" % v)


def print_table(pairs):
    per = [pair_rows(o, p) for o, p in pairs]
    for i, rows in enumerate(per):
        print("\n## pair %d (%d processes)" % (i + 1, pairs[i][1]["procs"]))
        print("| | original 2.1 | pio-bench | pio / original |")
        print("|---|---|---|---|")
        for label, o, p in rows:
            ratio = "%.2f" % (p / o) if o and p else "–"
            print("| %s | %s | %s | %s |" % (label, fmt(o), fmt(p), ratio))
    if len(per) > 1:
        print("\n## median over %d pairs (ratio: median of the per-pair ratios, min-max)" %
              len(per))
        print("| | original 2.1 | pio-bench | pio / original |")
        print("|---|---|---|---|")
        for k, (label, _, _) in enumerate(per[0]):
            os_ = [r[k][1] for r in per if r[k][1] is not None]
            ps = [r[k][2] for r in per if r[k][2] is not None]
            rs = [r[k][2] / r[k][1] for r in per if r[k][1] and r[k][2]]
            ratio = ("%.2f (%.2f-%.2f)" % (statistics.median(rs), min(rs), max(rs))
                     if rs else "–")
            print("| %s | %s | %s | %s |" % (
                label, fmt(statistics.median(os_)) if os_ else "–",
                fmt(statistics.median(ps)) if ps else "–", ratio))


def run(args):
    env = dict(os.environ, HWLOC_COMPONENTS="-pci", MPIR_CVAR_POLLS_BEFORE_YIELD="1")
    # Both run with DIR as working directory, so relative executable paths must be resolved here.
    args.orig, args.pio = os.path.abspath(args.orig), os.path.abspath(args.pio)
    out = os.path.abspath(args.out or args.dir)
    os.makedirs(out, exist_ok=True)
    pairs = []
    for r in range(args.rounds):
        prefix = os.path.join(out, "orig%d" % r)
        orig_cmd = ["mpiexec", "-n", str(args.np), args.orig, "-MB", str(args.mb), "-MT",
                    str(args.mb * args.np), "-N", str(args.np), "-T", str(args.T), "-p",
                    args.dir, "-f", prefix]
        conf = os.path.join(out, "pio%d.conf" % r)
        results = os.path.join(out, "pio%d.json" % r)
        with open(conf, "w") as f:
            f.write("TestFile %s/pio_beff\nResultsFile %s\nOverwrite on\n<ap_module>\n"
                    "ModuleName beff_io\nScheduledTime %d\nMemoryPerNode %dM\n%s</ap_module>\n" %
                    (os.path.abspath(args.dir), results, args.T, args.mb * args.np,
                     "".join(x + "\n" for x in args.pio_directive)))
        pio_cmd = ["mpiexec", "-n", str(args.np), args.pio, "-c", conf]
        # The first run of a pair can pay what the second does not (on this VM, tmpfs memory
        # touched for the first time costs a host page fault), so the order alternates:
        # original first in odd rounds, pio first in even ones.
        walls = {}
        order = [("orig", orig_cmd), ("pio", pio_cmd)]
        for name, cmd in (order if r % 2 == 0 else order[::-1]):
            print("# round %d: %s" % (r + 1, " ".join(cmd)), flush=True)
            t0 = time.time()
            subprocess.run(cmd, env=env, check=True, cwd=args.dir, stdout=subprocess.DEVNULL)
            walls[name] = time.time() - t0
        wall_o, wall_p = walls["orig"], walls["pio"]
        o, p = parse_sum(prefix), parse_pio(results)
        o["wall"] = o["wall"] or wall_o
        p["wall"] = p["wall"] or wall_p
        print("#   original %.1f MB/s in %.0f s, pio %.1f MB/s in %.0f s" %
              (o["b_eff_io"], wall_o, p["b_eff_io"], wall_p), flush=True)
        pairs.append((o, p))
    print_table(pairs)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table", help="compare existing results")
    t.add_argument("files", nargs="+", help="ORIG_PREFIX PIO_JSON pairs")
    r = sub.add_parser("run", help="run both interleaved, then compare")
    r.add_argument("--orig", required=True, help="the original's b_eff_io executable")
    r.add_argument("--pio", required=True, help="pio-harness")
    r.add_argument("--dir", required=True, help="the directory to measure (both tools)")
    r.add_argument("--out", help="where results go (default: --dir)")
    r.add_argument("--np", type=int, default=2)
    r.add_argument("-T", type=int, default=60, help="scheduled time in seconds")
    r.add_argument("--mb", type=int, default=6144, help="memory per process in MiB (-MB)")
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--pio-directive", action="append", default=[],
                   help="an extra beff_io directive line, e.g. 'Definition paper'")
    args = ap.parse_args()
    if args.cmd == "table":
        if len(args.files) % 2:
            sys.exit("give ORIG_PREFIX PIO_JSON pairs")
        pairs = [(parse_sum(args.files[i]), parse_pio(args.files[i + 1]))
                 for i in range(0, len(args.files), 2)]
        print_table(pairs)
    else:
        run(args)


if __name__ == "__main__":
    main()
