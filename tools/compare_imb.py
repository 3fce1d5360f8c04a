#!/usr/bin/python3
"""Ratio table of pio-bench's IMB-MPI1 kernels against IMB-MPI1 itself (docs/imb.md).

Reads IMB's text output (one file per round) and pio-harness's JSON results (one file per
round, same order) and prints, per kernel, process count and message length, the median over
rounds of t_avg(pio) / t_avg(IMB) with its min and max, and both medians in microseconds.

  compare_imb.py --imb imb.1.txt imb.2.txt --pio pio.1.json pio.2.json [--min-bytes 1024]

The comparison needs an IMB-MPI1 binary only to make its input (tools/compare-imb.sh runs both
interleaved); nothing in the build or the tests needs IMB.
"""
import argparse
import json
import re
import statistics
import sys


def parse_imb(path):
    """{(kernel, procs, bytes): t_avg_us} from IMB's tables (IMB 3.2 User Guide §6)."""
    out = {}
    name, procs, cols = None, None, None
    with open(path) as f:
        for line in f:
            m = re.match(r"# Benchmarking (?:Multi-)?(\S+)", line)
            if m:
                name, procs, cols = m.group(1), None, None
                continue
            m = re.match(r"# #processes = (\d+)", line)
            if m:
                procs = int(m.group(1))
                continue
            if line.strip().startswith("#bytes") or line.strip().startswith("#repetitions"):
                cols = line.split()
                continue
            if name is None or cols is None or procs is None or line.startswith("#"):
                continue
            words = line.split()
            if len(words) != len(cols):
                if not words:
                    cols = None
                continue
            row = dict(zip(cols, words))
            x = int(row.get("#bytes", 0))
            t = float(row.get("t_avg[usec]", row.get("t[usec]", "nan")))
            out[(name, procs, x)] = t
    return out


def parse_pio(path):
    """{(kernel, procs, bytes): t_avg_us} from pio-harness's JSON results."""
    out = {}
    with open(path) as f:
        doc = json.load(f)
    for m in doc.get("modules", []):
        for t in m.get("tests", []):
            op = (t.get("summary") or {}).get("op")
            bench = (t.get("params") or {}).get("benchmark")
            if not op or not bench or t.get("groups", 1) != 1:
                continue
            x = (t.get("comm") or {}).get("message_bytes", 0)
            out[(bench, t["procs"], x)] = op["t_avg_us"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--imb", nargs="+", required=True, help="IMB-MPI1 outputs, one per round")
    ap.add_argument("--pio", nargs="+", required=True, help="pio JSON results, one per round")
    ap.add_argument("--min-bytes", type=int, default=1024,
                    help="lengths counted in the overall median (default 1024)")
    a = ap.parse_args()
    imb = [parse_imb(p) for p in a.imb]
    pio = [parse_pio(p) for p in a.pio]
    keys = sorted(set().union(*imb) & set().union(*pio))
    if not keys:
        sys.exit("compare_imb.py: no kernel, process count and length in both inputs")
    print(f"{'kernel':<15}{'np':>4}{'bytes':>10}{'IMB t_avg':>12}{'pio t_avg':>12}"
          f"{'ratio':>8}{'min':>8}{'max':>8}{'rounds':>7}")
    big = []
    for k in keys:
        ratios = [p[k] / i[k] for i, p in zip(imb, pio) if k in i and k in p and i[k] > 0]
        ti = statistics.median([i[k] for i in imb if k in i])
        tp = statistics.median([p[k] for p in pio if k in p])
        if not ratios:
            print(f"{k[0]:<15}{k[1]:>4}{k[2]:>10}{ti:>12.2f}{tp:>12.2f}{'-':>8}")
            continue
        r = statistics.median(ratios)
        if k[2] >= a.min_bytes:
            big.append(r)
        print(f"{k[0]:<15}{k[1]:>4}{k[2]:>10}{ti:>12.2f}{tp:>12.2f}{r:>8.2f}"
              f"{min(ratios):>8.2f}{max(ratios):>8.2f}{len(ratios):>7}")
    if big:
        print(f"\nmedian ratio over {len(big)} rows with >= {a.min_bytes} bytes: "
              f"{statistics.median(big):.2f} (min {min(big):.2f}, max {max(big):.2f})")


if __name__ == "__main__":
    main()
