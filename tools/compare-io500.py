#!/usr/bin/python3
"""Runs the real IO500 (hpc/io500, built outside the repository) and conf/io500.conf with the
same short settings, interleaved over rounds with the order alternating, and prints per phase
the ratio pio/IO500 (median over rounds and its spread) and the ratio of the scores
(docs/io500.md, "Side by side").

The settings come from one IO500 ini: pio's IO500_* variables are derived from it (stonewall,
ior-easy's blockSize / 2 MiB transfers, ior-hard's segmentCount, mdtest's n, which must be the
same for easy and hard since conf/io500.conf has one IO500_ITEMS). Each run gets the `uptime`
load before it. Nothing here is a test: it needs the io500 binary and takes minutes.

  compare-io500.py --io500 <peers>/io500/io500 --ini short.ini --dir /var/tmp/cmp \\
      --harness build/harness/pio-harness --modules build/modules --rounds 3
"""
import argparse
import configparser
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)

from piotools import io500  # noqa: E402

SUFFIX = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
RESULT = re.compile(r"^\[(?:RESULT|      )\]\s+(\S+)\s+([0-9.]+)\s+(GiB/s|kIOPS)\s+:\s+time\s+"
                    r"([0-9.]+) seconds")
SCORE = re.compile(r"^\[SCORE \] Bandwidth ([0-9.]+) GiB/s : IOPS ([0-9.]+) kiops : TOTAL "
                   r"([0-9.]+)")


def ior_size(text):
    """IOR's sizes: 2m, 512m, 4096 (binary suffixes)."""
    m = re.fullmatch(r"(\d+)([kmgt]?)", text.strip().lower())
    if not m:
        raise SystemExit(f"compare-io500: cannot read the size {text!r} in the ini")
    return int(m.group(1)) * SUFFIX[m.group(2)]


def pio_env(ini_path, scratch, rnd_units):
    """conf/io500.conf's IO500_* variables matching the IO500 ini (ior-rnd4K: `rnd_units` reads
    per rank at most; IO500 reads until the stonewall, a rate either way)."""
    ini = configparser.ConfigParser()
    ini.read(ini_path)
    transfer = ior_size(ini.get("ior-easy", "transferSize", fallback="2m"))
    if transfer != 2 << 20:
        raise SystemExit("compare-io500: conf/io500.conf writes ior-easy in 2 MiB transfers; "
                         "set [ior-easy] transferSize = 2m")
    block = ior_size(ini.get("ior-easy", "blockSize"))
    n_easy = ini.get("mdtest-easy", "n")
    n_hard = ini.get("mdtest-hard", "n")
    if n_easy != n_hard:
        raise SystemExit("compare-io500: conf/io500.conf has one IO500_ITEMS for both mdtest "
                         "blocks; give [mdtest-easy] and [mdtest-hard] the same n")
    return {"IO500_WRITE_S": ini.get("debug", "stonewall-time"),
            "IO500_UNITS": str(block // transfer),
            "IO500_EASY_FILE": str(block),
            "IO500_HARD_UNITS": ini.get("ior-hard", "segmentCount"),
            "IO500_ITEMS": n_easy,
            "IO500_RND_UNITS": str(rnd_units),
            "IO500_DIR": os.path.join(scratch, "pio-data"),
            "IO500_RESULTS": os.path.join(scratch, "pio.json")}


def load():
    """The 1-minute load average (uptime's first figure)."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_io500(a):
    """{phase: value} and (bw, md, score) of one IO500 run."""
    ini = configparser.ConfigParser()
    ini.read(a.ini)
    for key in ("datadir", "resultdir"):
        shutil.rmtree(ini.get("global", key), ignore_errors=True)
    out = subprocess.run(["timeout", "-k", "5", str(a.timeout), "mpiexec", "-n", str(a.ranks),
                          a.io500, a.ini], capture_output=True, text=True)
    phases, score = {}, None
    for line in out.stdout.splitlines():
        m = RESULT.match(line)
        if m and m.group(1) != "timestamp":
            phases[m.group(1)] = float(m.group(2))
        m = SCORE.match(line)
        if m:
            score = tuple(float(x) for x in m.groups())
    if out.returncode != 0 or score is None:
        raise SystemExit(f"compare-io500: io500 failed ({out.returncode}):\n{out.stdout[-2000:]}"
                         f"\n{out.stderr[-2000:]}")
    for key in ("datadir",):
        shutil.rmtree(ini.get("global", key), ignore_errors=True)
    return phases, score


def run_pio(a, env):
    """{phase: value} and (bw, md, score) of one pio-bench run of conf/io500.conf."""
    os.makedirs(env["IO500_DIR"], exist_ok=True)
    if os.path.exists(env["IO500_RESULTS"]):
        os.remove(env["IO500_RESULTS"])
    e = dict(os.environ, **env)
    out = subprocess.run(["timeout", "-k", "5", str(a.timeout), "mpiexec", "-n", str(a.ranks),
                          a.harness, "-M", a.modules, "-c", a.conf, "--quiet"],
                         capture_output=True, text=True, env=e, cwd=env["IO500_DIR"])
    if out.returncode != 0:
        raise SystemExit(f"compare-io500: pio-harness failed ({out.returncode}):\n"
                         f"{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    with open(env["IO500_RESULTS"]) as f:
        rows, score, _ = io500.summary(json.load(f))
    shutil.rmtree(env["IO500_DIR"], ignore_errors=True)
    return {r[0]: r[1] for r in rows}, score


def spread(xs):
    return (min(xs), max(xs)) if xs else (float("nan"), float("nan"))


def main(argv):
    ap = argparse.ArgumentParser(prog="compare-io500", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--io500", required=True, help="the io500 binary (hpc/io500)")
    ap.add_argument("--ini", required=True, help="IO500 ini with the short settings")
    ap.add_argument("--harness", required=True, help="pio-harness")
    ap.add_argument("--modules", required=True, help="pio-bench module directory (-M)")
    ap.add_argument("--conf", default=os.path.join(HERE, "..", "conf", "io500.conf"))
    ap.add_argument("--dir", required=True, help="scratch directory for pio's files")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=900, help="seconds per run")
    ap.add_argument("--rnd-units", type=int, default=200000,
                    help="pio's ior-rnd4K reads per rank at most (prepared untimed first)")
    ap.add_argument("--json", help="write every round's figures here")
    a = ap.parse_args(argv)
    a.io500, a.ini, a.harness, a.modules, a.conf = (os.path.abspath(p) for p in (
        a.io500, a.ini, a.harness, a.modules, a.conf))
    os.makedirs(a.dir, exist_ok=True)
    env = pio_env(a.ini, os.path.abspath(a.dir), a.rnd_units)
    print("pio settings: " + " ".join(f"{k}={v}" for k, v in sorted(env.items())))
    rounds = []
    for r in range(a.rounds):
        order = ["io500", "pio"] if r % 2 == 0 else ["pio", "io500"]
        got = {}
        for who in order:
            before = load()
            phases, score = run_io500(a) if who == "io500" else run_pio(a, env)
            got[who] = {"phases": phases, "score": score, "load": before}
            print(f"round {r + 1} {who}: score {score[2]:.4f} (bw {score[0]:.4f} GiB/s, md "
                  f"{score[1]:.3f} kIOPS), load before {before:.2f}", flush=True)
        rounds.append({"order": order, **got})
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"settings": env, "ini": open(a.ini).read(), "rounds": rounds}, f,
                      indent=1)

    print()
    print(f"{'phase':22} {'pio':>10} {'IO500':>10} {'unit':6} {'pio/IO500':>9}  spread")
    for p in io500.ORDER:
        ratios = [x["pio"]["phases"][p] / x["io500"]["phases"][p] for x in rounds
                  if x["io500"]["phases"].get(p, 0) > 0 and p in x["pio"]["phases"]]
        pio_v = [x["pio"]["phases"].get(p, float("nan")) for x in rounds]
        ref_v = [x["io500"]["phases"].get(p, float("nan")) for x in rounds]
        unit = "GiB/s" if p.startswith("ior") else "kIOPS"
        lo, hi = spread(ratios)
        print(f"{p:22} {statistics.median(pio_v):10.4g} {statistics.median(ref_v):10.4g} "
              f"{unit:6} {statistics.median(ratios) if ratios else float('nan'):9.3f}  "
              f"{lo:.3f}-{hi:.3f}")
    for k, name in enumerate(["bandwidth", "metadata", "score"]):
        ratios = [x["pio"]["score"][k] / x["io500"]["score"][k] for x in rounds
                  if x["io500"]["score"][k] > 0]
        lo, hi = spread(ratios)
        print(f"{name:22} {'':10} {'':10} {'':6} {statistics.median(ratios):9.3f}  "
              f"{lo:.3f}-{hi:.3f}")
    print("loads before each run: " + ", ".join(
        f"r{i + 1} {w} {x[w]['load']:.1f}" for i, x in enumerate(rounds) for w in x["order"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
