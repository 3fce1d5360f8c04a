#!/usr/bin/env python3
"""Prints a results document (docs/results.md) as a markdown table: one row per module block
and test, mean and best bandwidth over repetitions. Several files give one column pair each
(e.g. the same config on /dev/shm and on disk).

usage: results_table.py RESULTS.json [MORE.json ...] [--names shm,disk]
"""
import argparse
import json


def rows(doc):
    out = {}
    for m in doc.get("modules", []):
        mode = m.get("settings", {}).get("Mode", [""])[0]
        name = m["module"] + (f" ({mode})" if mode else "")
        for t in m.get("tests", []):
            key = (name, t.get("label", ""))
            if t.get("error"):
                out[key] = ("FAILED", "")
            else:
                bw = t["summary"]["bandwidth_MiBps"]
                out[key] = (f'{bw["mean"]:.1f}', f'{bw["max"]:.1f}')
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--names", default="")
    a = ap.parse_args()
    names = a.names.split(",") if a.names else a.results
    tables = [rows(json.load(open(f))) for f in a.results]
    keys = []
    for t in tables:
        keys += [k for k in t if k not in keys]
    head = "| pattern (mode) | test |" + "".join(f" {n} mean MiB/s | {n} best MiB/s |" for n in names)
    print(head)
    print("|---|---|" + "---:|---:|" * len(names))
    for k in keys:
        cells = "".join(f" {t.get(k, ('-', '-'))[0]} | {t.get(k, ('-', '-'))[1]} |" for t in tables)
        print(f"| {k[0]} | {k[1]} |{cells}")


if __name__ == "__main__":
    main()
