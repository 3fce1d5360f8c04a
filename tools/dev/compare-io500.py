#!/usr/bin/python3
"""Runs the real IO500 (hpc/io500, built outside the repository) and conf/io500.conf with the
same short settings, interleaved over rounds with the order alternating, and prints per phase
the ratio pio/IO500 (median over rounds and its spread) and the ratio of the scores
(docs/guides/io500.md, "Side by side").

The settings come from one IO500 ini: pio's IO500_* variables are derived from it (stonewall,
ior-easy's blockSize / 2 MiB transfers, ior-hard's segmentCount, mdtest-easy's and
mdtest-hard's n). Each run gets the load
average before it. With --out DIR every round is written as DIR/round-<n>.json as soon as it
ends (each tool's per-phase figures, its scores and the load before its run), and `table DIR`
rebuilds the table from those files. Nothing here is a test: `run` needs the io500 binary and
takes minutes.

  compare-io500.py run --io500 <peers>/io500/io500 --ini short.ini --dir /var/tmp/cmp \\
      --harness build/harness/pio-harness --modules build/modules --rounds 3 --out cmp-rounds
  compare-io500.py table cmp-rounds
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
sys.path.insert(0, os.path.dirname(HERE))  # tools/, for piotools

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
    per rank at most, as IO500's -s; both read until the stonewall)."""
    ini = configparser.ConfigParser()
    ini.read(ini_path)
    transfer = ior_size(ini.get("ior-easy", "transferSize", fallback="2m"))
    if transfer != 2 << 20:
        raise SystemExit("compare-io500: conf/io500.conf writes ior-easy in 2 MiB transfers; "
                         "set [ior-easy] transferSize = 2m")
    block = ior_size(ini.get("ior-easy", "blockSize"))
    n_easy = ini.get("mdtest-easy", "n")
    n_hard = ini.get("mdtest-hard", "n")
    return {"IO500_WRITE_S": ini.get("debug", "stonewall-time"),
            "IO500_UNITS": str(block // transfer),
            "IO500_EASY_FILE": str(block),
            "IO500_HARD_UNITS": ini.get("ior-hard", "segmentCount"),
            "IO500_ITEMS": n_easy,
            "IO500_HARD_ITEMS": n_hard,
            "IO500_RND_UNITS": str(rnd_units),
            "IO500_DIR": os.path.join(scratch, "pio-data"),
            "IO500_RESULTS": os.path.join(scratch, "pio.json")}


def nojournal_ext4(path, sys_root="/sys"):
    """The block device's name when `path` (or its nearest existing parent) lies on an ext4 file
    system without a journal, else None. There, every inode allocation skips the inodes deleted
    in the last 60 s, 360 s while their inode-table block is dirty (Linux fs/ext4/ialloc.c,
    recently_deleted), one buffer lookup each: creates after a large delete slow down by up
    to 10x."""
    path = os.path.abspath(path)
    while not os.path.exists(path):
        path = os.path.dirname(path)
    dev = os.stat(path).st_dev
    block = os.path.join(sys_root, "dev", "block", f"{os.major(dev)}:{os.minor(dev)}")
    name = os.path.basename(os.path.realpath(block))
    try:
        with open(os.path.join(sys_root, "fs", "ext4", name, "journal_task")) as f:
            return name if f.read().strip() == "<none>" else None
    except OSError:
        return None


def warn_nojournal(dirs, sys_root="/sys"):
    """One line on stderr per directory of `dirs` that lies on ext4 without a journal."""
    for d in dirs:
        name = nojournal_ext4(d, sys_root)
        if name:
            print(f"compare-io500: warning: {d} is on ext4 without a journal ({name}): its "
                  f"creates skip every inode deleted in the last 60-360 s, so each run's "
                  f"creates slow down after the previous run's deletes, by up to 10x; compare "
                  f"on a file system with a journal (docs/measurements/io500-side-by-side.md, "
                  f"\"Why the creates swung\")",
                  file=sys.stderr, flush=True)


def load():
    """The 1-minute load average (uptime's first figure)."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


# Kernel counters recorded per run: page-cache pages read back after eviction, and major faults.
VMSTAT_KEYS = ("workingset_refault_file", "pgmajfault")
# KiB of freed memory a virtual machine's free page reporting (virtio-balloon) handed back to
# its host: the first touch of such memory is faulted in again by the host, inside the run.
PAGE_REPORTING_KIB = "/sys/module/page_reporting/parameters/reported_kib"


def vmstat(proc="/proc/vmstat", reporting=PAGE_REPORTING_KIB):
    """The VMSTAT_KEYS counters of /proc/vmstat and, where the kernel reports free pages to a
    host, "page_reporting_kib" ({} where there is none of them)."""
    counters = {}
    try:
        with open(proc) as f:
            pairs = (line.split() for line in f)
            counters = {k: int(v) for k, v in pairs if k in VMSTAT_KEYS}
    except OSError:
        pass
    try:
        with open(reporting) as f:
            counters["page_reporting_kib"] = int(f.read())
    except (OSError, ValueError):
        pass
    return counters


def parse_io500(stdout):
    """{"phases": {phase: figure}, "score": [bw, md, total]} from io500's output: its result
    summary lines ("[RESULT]" and the unscored "[      ]") and its "[SCORE ]" line; score is
    None if the output has no score line."""
    phases, score = {}, None
    for line in stdout.splitlines():
        m = RESULT.match(line)
        if m and m.group(1) != "timestamp":
            phases[m.group(1)] = float(m.group(2))
        m = SCORE.match(line)
        if m:
            score = [float(x) for x in m.groups()]
    return {"phases": phases, "score": score}


def parse_pio(doc):
    """The same from a pio-bench results document of conf/io500.conf (tools/piotools/io500.py)."""
    rows, score, _ = io500.summary(doc)
    return {"phases": {r[0]: r[1] for r in rows}, "score": list(score)}


def run_io500(a):
    """One IO500 run's figures (parse_io500)."""
    ini = configparser.ConfigParser()
    ini.read(a.ini)
    for key in ("datadir", "resultdir"):
        shutil.rmtree(ini.get("global", key), ignore_errors=True)
    out = subprocess.run(["timeout", "-k", "5", str(a.timeout), "mpiexec", "-n", str(a.ranks),
                          a.io500, a.ini], capture_output=True, text=True)
    got = parse_io500(out.stdout)
    if out.returncode != 0 or got["score"] is None:
        raise SystemExit(f"compare-io500: io500 failed ({out.returncode}):\n{out.stdout[-2000:]}"
                         f"\n{out.stderr[-2000:]}")
    for key in ("datadir",):
        shutil.rmtree(ini.get("global", key), ignore_errors=True)
    return got


def run_pio(a, env):
    """One pio-bench run of conf/io500.conf's figures (parse_pio)."""
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
        got = parse_pio(json.load(f))
    shutil.rmtree(env["IO500_DIR"], ignore_errors=True)
    return got


def round_path(out_dir, n):
    """Round n's file (1-based), named so that name order is round order."""
    return os.path.join(out_dir, f"round-{n:03d}.json")


def write_round(out_dir, n, record):
    """Writes one round: {"round", "order", "settings", "io500": {"phases", "score", "load"},
    "pio": {...}} (written whole to a temporary, then renamed)."""
    os.makedirs(out_dir, exist_ok=True)
    path = round_path(out_dir, n)
    with open(path + ".tmp", "w") as f:
        json.dump(dict(record, round=n), f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)
    return path


def read_rounds(out_dir):
    """The rounds written in out_dir, in round order."""
    names = sorted(x for x in os.listdir(out_dir) if re.fullmatch(r"round-\d+\.json", x)) \
        if os.path.isdir(out_dir) else []
    if not names:
        print(f"compare-io500: no round-<n>.json in {out_dir} (write them with "
              f"'compare-io500.py run --out {out_dir}')", file=sys.stderr)
        sys.exit(2)
    rounds = []
    for name in names:
        with open(os.path.join(out_dir, name)) as f:
            rounds.append(json.load(f))
    return rounds


def spread(xs):
    return (min(xs), max(xs)) if xs else (float("nan"), float("nan"))


def _median(xs):
    return statistics.median(xs) if xs else float("nan")


def phase_rows(rounds):
    """Per phase in IO500's order (phases either tool measured): (phase, unit, pio median, IO500
    median, median of the per-round ratios pio/IO500, lowest ratio, highest ratio)."""
    rows = []
    for p in io500.ORDER:
        if not any(p in x[w]["phases"] for x in rounds for w in ("pio", "io500")):
            continue
        ratios = [x["pio"]["phases"][p] / x["io500"]["phases"][p] for x in rounds
                  if x["io500"]["phases"].get(p, 0) > 0 and p in x["pio"]["phases"]]
        pio_v = [x["pio"]["phases"][p] for x in rounds if p in x["pio"]["phases"]]
        ref_v = [x["io500"]["phases"][p] for x in rounds if p in x["io500"]["phases"]]
        unit = "GiB/s" if p.startswith("ior") else "kIOPS"
        rows.append((p, unit, _median(pio_v), _median(ref_v), _median(ratios)) + spread(ratios))
    return rows


def score_rows(rounds):
    """(name, median ratio, lowest, highest) of the bandwidth, metadata and total scores."""
    rows = []
    for k, name in enumerate(["bandwidth", "metadata", "score"]):
        ratios = [x["pio"]["score"][k] / x["io500"]["score"][k] for x in rounds
                  if x["io500"]["score"][k] > 0]
        rows.append((name, _median(ratios)) + spread(ratios))
    return rows


def table(rounds):
    """The side-by-side table as text."""
    lines = [f"{'phase':22} {'pio':>10} {'IO500':>10} {'unit':6} {'pio/IO500':>9}  spread"]
    for p, unit, pio_v, ref_v, ratio, lo, hi in phase_rows(rounds):
        lines.append(f"{p:22} {pio_v:10.4g} {ref_v:10.4g} {unit:6} {ratio:9.3f}  "
                     f"{lo:.3f}-{hi:.3f}")
    for name, ratio, lo, hi in score_rows(rounds):
        lines.append(f"{name:22} {'':10} {'':10} {'':6} {ratio:9.3f}  {lo:.3f}-{hi:.3f}")
    lines.append(f"rounds: {len(rounds)}; loads before each run: " + ", ".join(
        f"r{x['round']} {w} {x[w]['load']:.1f}" for x in rounds for w in x["order"]))
    return "\n".join(lines)


def run(a):
    a.io500, a.ini, a.harness, a.modules, a.conf = (os.path.abspath(p) for p in (
        a.io500, a.ini, a.harness, a.modules, a.conf))
    os.makedirs(a.dir, exist_ok=True)
    env = pio_env(a.ini, os.path.abspath(a.dir), a.rnd_units)
    print("pio settings: " + " ".join(f"{k}={v}" for k, v in sorted(env.items())))
    ini = configparser.ConfigParser()
    ini.read(a.ini)
    warn_nojournal([a.dir, ini.get("global", "datadir")])

    rounds = []
    for r in range(a.rounds):
        order = ["io500", "pio"] if r % 2 == 0 else ["pio", "io500"]
        record = {"round": r + 1, "order": order, "settings": env}
        for who in order:
            # Each tool starts on a written-back file system, not on the other's dirty pages.
            os.sync()
            before, counters = load(), vmstat()
            got = run_io500(a) if who == "io500" else run_pio(a, env)
            after = vmstat()
            record[who] = dict(got, load=before,
                               vmstat={k: after[k] - counters[k] for k in after if k in counters})
            bw, md, total = got["score"]
            refaults = record[who]["vmstat"].get("workingset_refault_file", "?")
            handed = record[who]["vmstat"].get("page_reporting_kib")
            host = "" if handed is None else f", {handed >> 10} MiB handed to the host"
            print(f"round {r + 1} {who}: score {total:.4f} (bw {bw:.4f} GiB/s, md "
                  f"{md:.3f} kIOPS), load before {before:.2f}, page-cache refaults {refaults}"
                  f"{host}", flush=True)
        if a.out:
            write_round(a.out, r + 1, record)
        rounds.append(record)
    print()
    print(table(rounds))
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="compare-io500", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run both tools over rounds and print the table")
    r.add_argument("--io500", required=True, help="the io500 binary (hpc/io500)")
    r.add_argument("--ini", required=True, help="IO500 ini with the short settings")
    r.add_argument("--harness", required=True, help="pio-harness")
    r.add_argument("--modules", required=True, help="pio-bench module directory (-M)")
    r.add_argument("--conf", default=os.path.join(HERE, "..", "..", "conf", "io500.conf"))
    r.add_argument("--dir", required=True, help="scratch directory for pio's files")
    r.add_argument("--ranks", type=int, default=2)
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--timeout", type=int, default=900, help="seconds per run")
    r.add_argument("--rnd-units", type=int, default=10000000,
                   help="pio's ior-rnd4K reads per rank at most (IOR -s 10000000 in IO500; the "
                        "stonewall ends it first)")
    r.add_argument("--out", help="write each round to OUT/round-<n>.json as it ends")
    t = sub.add_parser("table", help="the table from the rounds a run wrote with --out")
    t.add_argument("dir", help="the directory of round-<n>.json files")
    a = ap.parse_args(argv)
    if a.command == "table":
        print(table(read_rounds(a.dir)))
        return 0
    return run(a)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
