#!/usr/bin/python3
"""The patterns' bandwidth across file-system configurations (tools/dev/bench-fslab.sh): one results
document per configuration, named after it (ext4-journal.json ...). Prints a Markdown table, a
row per test (block / test label) and a column per configuration with the median bandwidth in
MiB/s, then each configuration's file-system key (what pio-compare requires to be equal); draws
the same as a heat map, colour by bandwidth relative to the row's best configuration (log
scale), each cell labelled with its MiB/s, as fslab-bandwidth.png (and .svg) in -o DIR.

  fslab-table.py RESULTS.json... [-o DIR]"""
import argparse
import os
import sys

import numpy as np

# tools/, for piotools (a developer script: run from the source tree, not installed).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from piotools import fsconfig, results  # noqa: E402


def medians(doc):
    """{(block label, test label): median MiB/s} of the tests that ran without error."""
    out = {}
    for t in results.tests(doc):
        metric, values, _ = t.metric()
        if t.error or not values or metric != "bandwidth_MiBps":
            continue
        out[(t.block_label, t.label)] = float(np.median(values))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("-o", "--out", default=".")
    a = ap.parse_args(argv)
    docs = results.load_many(a.runs)
    names = [os.path.splitext(os.path.basename(d["_path"]))[0] for d in docs]
    cols = [medians(d) for d in docs]
    rows = list(dict.fromkeys(k for c in cols for k in c))
    table = np.array([[c.get(r, np.nan) for c in cols] for r in rows])
    # A setting every block carries (" SyncWrites=on" of a global directive) says nothing per row.
    words = [set(b.split()[1:]) for b, _ in rows]
    common = set.intersection(*words) if words else set()
    rows = [(" ".join(w for w in b.split() if w not in common), t) for b, t in rows]
    print("| test | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for r, vals in zip(rows, table):
        cells = ["-" if np.isnan(v) else f"{v:.0f}" for v in vals]
        print(f"| {r[0]} / {r[1]} | " + " | ".join(cells) + " |")
    print("\nMedian MiB/s of each test's repetitions; '-': the test failed or did not run"
          + (f"; every block ran with {' '.join(sorted(common))}" if common else "") + ".\n")
    for n, d in zip(names, docs):
        print(f"* {n}: {fsconfig.file_system_config(d)}")
    if not rows:
        return 1
    with np.errstate(invalid="ignore", divide="ignore"):
        rel = np.log2(table / np.nanmax(table, axis=1, keepdims=True))
    fig, ax = plt.subplots(figsize=(1.1 * len(names) + 4, 0.28 * len(rows) + 1.8))
    im = ax.imshow(np.ma.masked_invalid(rel), cmap="viridis", vmin=-6, vmax=0, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(names)):
            v = table[i, j]
            ax.text(j, i, "-" if np.isnan(v) else f"{v:.0f}", ha="center", va="center",
                    fontsize=7, color="white" if rel[i, j] < -3 else "black")
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), [f"{b} / {t}" for b, t in rows], fontsize=7)
    bar = fig.colorbar(im, ax=ax, fraction=0.03)
    bar.set_label("log2 of bandwidth / the row's best")
    ax.set_title("pattern bandwidth (MiB/s, median) per file-system configuration"
                 + (f" ({' '.join(sorted(common))})" if common else ""), fontsize=9)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(a.out, f"fslab-bandwidth.{ext}"), dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
