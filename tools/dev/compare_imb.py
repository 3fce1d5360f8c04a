#!/usr/bin/python3
"""Ratio table of pio-bench's IMB families against IMB-MPI1, IMB-EXT and IMB-IO
(docs/reference/imb.md).

Reads IMB's text output (one file per round) and pio-harness's JSON results (one file per
round, same order) and prints, per benchmark, mode, process count and length, the median over
rounds of t(pio) / t(IMB) with its min and max, and both medians in microseconds.

  compare_imb.py --imb imb.1.txt imb.2.txt --pio pio.1.json pio.2.json [--min-bytes 1024]

Rows are keyed by (benchmark, mode, np, bytes): the benchmark as IMB names it ("Multi-" when
several groups ran at once; IMB-IO's "S_Write_Indv" and the guide's "S_Write_indv" are the
same), the mode of IMB-EXT and IMB-IO ("aggregate", "non-aggregate", "" without one), the
processes per group. t is the time IMB reports: t_avg where it prints t_min / t_max / t_avg,
t_max where it prints one t[usec] (single transfers), t_ovrl for IMB-IO's non-blocking
benchmarks; pio's same statistic (its t_max for t_ovrl). With IMB -multi 1 the slowest group's
row counts (pio reports the slowest group).

The comparison needs an IMB binary only to make its input (tools/dev/compare-imb.sh,
tools/dev/compare-imb-io.sh run both interleaved); nothing in the build or the tests needs IMB.
"""
import argparse
import json
import re
import statistics
import sys

# IMB's column headings and the statistic each one is.
COLUMNS = {"t[usec]": "t_max", "t_min[usec]": "t_min", "t_max[usec]": "t_max",
           "t_avg[usec]": "t_avg", "t_ovrl[usec]": "t_ovrl", "t_pure[usec]": "t_pure",
           "t_CPU[usec]": "t_cpu", "overlap[%]": "overlap", "Mbytes/sec": "mbytes",
           "#bytes": "bytes", "#repetitions": "reps", "Group": "group"}


def key_name(name):
    """The benchmark's name for matching: IMB-IO capitalises the positioning (S_Write_Indv)."""
    return name.lower()


def reported(row):
    """(statistic, value) of the time IMB reports in this row."""
    for stat in ("t_avg", "t_ovrl", "t_max"):
        if stat in row:
            return stat, row[stat]
    return None, None


def parse_imb(path):
    """{(benchmark, mode, np, bytes): row} from IMB's tables (IMB 3.2 User Guide §6); a row has
    "name" (IMB's), "stat" and "t" (the reported time in µs), "reps" and every column read."""
    out = {}
    name = mode = procs = cols = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"# Benchmarking (\S+)", line)
            if m:
                name, mode, procs, cols = m.group(1), "", None, None
                continue
            if name is None:
                continue
            m = re.match(r"# #processes = (\d+)", line)
            if m:
                procs = int(m.group(1))
                continue
            m = re.match(r"# \( (\d+) groups of (\d+) processes", line)
            if m:
                procs = int(m.group(2))
                continue
            m = re.match(r"#\s+MODE: (\S+)", line)
            if m:
                mode = m.group(1).lower()
                continue
            words = line.split()
            if words and words[0] in ("#bytes", "#repetitions", "Group"):
                cols = [COLUMNS.get(w, w) for w in words]
                continue
            if not words or line.startswith("#") or cols is None or procs is None:
                continue
            if len(words) != len(cols):
                name = None  # the table ended (e.g. "# All processes entering MPI_Finalize")
                continue
            try:
                row = {c: float(w) for c, w in zip(cols, words)}
            except ValueError:
                continue
            row["stat"], row["t"] = reported(row)
            if row["t"] is None:
                continue
            row["name"] = name
            key = (key_name(name), mode, procs, int(row.get("bytes", 0)))
            # -multi 1: one row per group; the slowest group's counts (pio reports that one).
            if key not in out or row["t"] > out[key]["t"]:
                out[key] = row
    return out


def parse_pio(path):
    """{(benchmark, mode, np, bytes): row} from pio-harness's JSON results: t_min, t_avg, t_max
    (µs, the slowest group's, best repetition), reps, and the benchmark's name."""
    out = {}
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    for m in doc.get("modules", []):
        for t in m.get("tests", []):
            op = (t.get("summary") or {}).get("op")
            params = t.get("params") or {}
            bench = params.get("benchmark")
            if not op or not bench or t.get("error"):
                continue
            groups = max(1, t.get("groups", 1))
            name = ("Multi-" if groups > 1 else "") + bench
            np = int(params.get("np", t["procs"] // groups))
            comm = t.get("comm") or {}
            key = (key_name(name), params.get("mode", ""), np, comm.get("message_bytes", 0))
            out[key] = {"name": name, "t_min": op["t_min_us"], "t_avg": op["t_avg_us"],
                        "t_max": op["t_max_us"], "reps": comm.get("ops_per_unit", 0)}
    return out


def pio_time(row, stat):
    """pio's value of IMB's statistic: t_ovrl is the overlapped sample's t_max
    (docs/reference/imb.md)."""
    return row["t_max" if stat == "t_ovrl" else stat]


def compare(imb, pio, min_bytes):
    """Rows of the ratio table over rounds (lists of parsed files, same order), and the ratios
    of the rows with at least min_bytes. A row: key, name, stat, IMB and pio median t, the
    ratios of the rounds both have, and whether the repetition counts differed."""
    rows, big = [], []
    keys = sorted(set().union(*imb) & set().union(*pio))
    for k in keys:
        imb_rows = [i[k] for i in imb if k in i]
        stat = imb_rows[0]["stat"]
        ratios = [pio_time(p[k], stat) / i[k]["t"]
                  for i, p in zip(imb, pio) if k in i and k in p and i[k]["t"] > 0]
        ti = statistics.median([r["t"] for r in imb_rows])
        tp = statistics.median([pio_time(p[k], stat) for p in pio if k in p])
        reps = {int(r["reps"]) for r in imb_rows} != {int(p[k]["reps"]) for p in pio if k in p}
        r = statistics.median(ratios) if ratios else None
        if r is not None and k[3] >= min_bytes:
            big.append(r)
        rows.append({"key": k, "name": imb_rows[0]["name"], "stat": stat, "imb": ti, "pio": tp,
                     "ratios": ratios, "ratio": r, "reps_differ": reps})
    return rows, big


def print_table(rows, big, min_bytes, out=None):
    """The ratio table and the median over the rows of at least min_bytes (to out, or stdout)."""
    out = out or sys.stdout
    print(f"{'benchmark':<22}{'mode':<14}{'np':>4}{'bytes':>10}{'t':>7}{'IMB t':>12}"
          f"{'pio t':>12}{'ratio':>9}{'min':>9}{'max':>9}{'rounds':>7}", file=out)
    for row in rows:
        _, mode, np, x = row["key"]
        head = (f"{row['name']:<22}{mode or '-':<14}{np:>4}{x:>10}{row['stat'][2:]:>7}"
                f"{row['imb']:>12.2f}{row['pio']:>12.2f}")
        note = "  #repetitions differ" if row["reps_differ"] else ""
        if row["ratio"] is None:
            print(f"{head}{'-':>9}{note}", file=out)
            continue
        rs = row["ratios"]
        print(f"{head}{row['ratio']:>9.2f}{min(rs):>9.2f}{max(rs):>9.2f}{len(rs):>7}{note}",
              file=out)
    if big:
        print(f"\nmedian ratio over {len(big)} rows with >= {min_bytes} bytes: "
              f"{statistics.median(big):.2f} (min {min(big):.2f}, max {max(big):.2f})", file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--imb", nargs="+", required=True, help="IMB outputs, one per round")
    ap.add_argument("--pio", nargs="+", required=True, help="pio JSON results, one per round")
    ap.add_argument("--min-bytes", type=int, default=1024,
                    help="lengths counted in the overall median (default 1024)")
    a = ap.parse_args(argv)
    if len(a.imb) != len(a.pio):
        sys.exit(f"compare_imb.py: {len(a.imb)} IMB outputs but {len(a.pio)} pio results; "
                 "give one of each per round")
    imb = [parse_imb(p) for p in a.imb]
    pio = [parse_pio(p) for p in a.pio]
    rows, big = compare(imb, pio, a.min_bytes)
    if not rows:
        sys.exit("compare_imb.py: no benchmark, mode, process count and length in both inputs")
    print_table(rows, big, a.min_bytes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
