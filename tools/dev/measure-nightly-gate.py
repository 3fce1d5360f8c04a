#!/usr/bin/python3
"""Measures the nightly regression gate on this machine (docs/measurements/regression-gate.md,
"Measuring the gate"): runs pio-nightly night after night with the shipped config and counts, on
tmpfs and on ext4 (a loop-mounted image it creates and removes), and provokes real slowdowns:

* A/A nights: the same config, nothing changed. A night fails when the job exits 1 (a false
  regression); inconclusive (5) and flagged (6) nights are counted apart.
* a CPU cap: the run in a cgroup limited to --cpu-cap % of one CPU (cgroup v2 cpu.max or v1
  cpu.cfs_quota_us); without a writable cgroup, every rank pinned to CPU 0 beside a busy loop
  there (taskset), and the output says which.
* SyncWrites: the same config with "SyncWrites on" (a flush inside every timed write), compared
  with --allow settings: slower I/O through the file system's own path (the measured slowdown of
  each night is printed beside whether it was caught).
* 2x injected: each A/A night compared again with every I/O repetition's bandwidth halved (a
  slowdown of exactly 2 on this machine's own noise).

It prints, per file system: A/A nights failing (the target: at most 1 in 20), slowdowns caught,
and the smallest slowdown the gate can detect at these counts (the comparisons' "detectable":
KEEP baseline nights of the config's repetitions, alpha over the config's tests), with the load
average before and after. Everything it makes goes under --out (default a new directory under
/tmp); the loop device, its mount and the cgroup are removed at the end, also on Ctrl-C.

  measure-nightly-gate.py [--fs tmpfs,ext4] [--nights 20] [--provoked 5] [--keep 5] [--np 2]
      [--config docs/examples/nightly.conf] [--compare-args "--threshold 30%"]
      [--loop-direct-io on|off] [--ext4-image-dir DIR] [--out DIR]

Needs root for ext4 (losetup, mount) and for the cgroup; the harness from PIO_HARNESS or the
build tree (build/install/bin/pio-harness, with its modules)."""
import argparse
import contextlib
import copy
import glob
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

_here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # tools/: piotools, pio-nightly
sys.path.insert(0, _here)

from piotools import cli, compare, results  # noqa: E402

REPO = os.path.dirname(_here)
KINDS = ("aa", "cpu", "sync")


def load_average():
    """The `uptime` line of the machine now."""
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


@contextlib.contextmanager
def scratch_fs(kind, out, size_mib, direct_io=True, image_dir=None):
    """A directory on the file system `kind` ("tmpfs": under /dev/shm; "ext4": a loop-mounted
    image under `out`, made and removed here; `direct_io`: the loop device reads and writes its
    image with O_DIRECT, so that the image's pages are not cached a second time on the host
    file system and a read after CacheMode drop reaches the disk)."""
    if kind == "tmpfs":
        d = tempfile.mkdtemp(prefix="pio-gate-", dir="/dev/shm")
        try:
            yield d
        finally:
            shutil.rmtree(d, ignore_errors=True)
        return
    if kind != "ext4":
        raise SystemExit(f"measure-nightly-gate: unknown file system {kind} (tmpfs or ext4)")
    image, mnt = os.path.join(image_dir or out, "ext4.img"), os.path.join(out, "ext4.mnt")
    os.makedirs(mnt, exist_ok=True)
    with open(image, "wb") as f:
        f.truncate(size_mib << 20)
    loop = None
    mounted = False
    try:
        run(["mkfs.ext4", "-q", "-F", image])
        loop = run(["losetup", "--find", "--show"]
                   + (["--direct-io=on"] if direct_io else []) + [image]).stdout.strip()
        run(["mount", loop, mnt])
        mounted = True
        yield mnt
    finally:
        if mounted:
            subprocess.run(["umount", mnt], check=False)
        if loop:
            subprocess.run(["losetup", "-d", loop], check=False)
        os.remove(image)
        os.rmdir(mnt)


class CpuCap:
    """A CPU cap for the provoked nights: an MPIEXEC that runs the job's mpiexec in a cgroup
    limited to `percent` of one CPU, or pinned to CPU 0 beside a busy loop without one."""

    def __init__(self, out, np, percent):
        self.percent, self.busy, self.group = percent, None, None
        self.wrapper = os.path.join(out, "capped-mpiexec")
        quota = int(1000 * percent)  # of a 100 ms period
        name = f"pio-gate-cap-{os.getpid()}"
        candidates = []
        if os.path.exists("/sys/fs/cgroup/cgroup.controllers"):  # cgroup v2
            candidates.append(("/sys/fs/cgroup", {"cpu.max": f"{quota} 100000"}))
        if os.path.isdir("/sys/fs/cgroup/cpu"):  # cgroup v1's cpu controller
            candidates.append(("/sys/fs/cgroup/cpu", {"cpu.cfs_period_us": "100000",
                                                      "cpu.cfs_quota_us": str(quota)}))
        for root, files in candidates:
            group = os.path.join(root, name)
            try:
                os.mkdir(group)
                for f, v in files.items():
                    with open(os.path.join(group, f), "w") as fh:
                        fh.write(v)
            except OSError:
                if os.path.isdir(group):
                    os.rmdir(group)
                continue
            self.group = group
            break
        with open(self.wrapper, "w") as f:
            if self.group:
                f.write(f"#!/bin/sh\necho $$ > {self.group}/cgroup.procs && "
                        f"exec mpiexec -n {np} \"$@\"\n")
                self.how = f"cgroup {self.group}, {percent:g} % of one CPU"
            else:
                f.write(f"#!/bin/sh\nexec taskset -c 0 mpiexec -n {np} \"$@\"\n")
                self.how = "no writable cgroup: ranks pinned to CPU 0 beside a busy loop there"
        os.chmod(self.wrapper, 0o755)

    def __enter__(self):
        if not self.group:
            self.busy = subprocess.Popen(["taskset", "-c", "0", "sh", "-c",
                                          "while :; do :; done"])
        return self.wrapper

    def __exit__(self, *exc):
        if self.busy:
            self.busy.kill()
            self.busy.wait()
            self.busy = None

    def remove(self):
        if self.group and os.path.isdir(self.group):
            # The capped processes are gone when their night ends; an empty group goes.
            for _ in range(50):
                try:
                    os.rmdir(self.group)
                    return
                except OSError:
                    time.sleep(0.2)


def sync_config(config, out, labels):
    """The config with SyncWrites on in every block, each block keeping its label (`labels`, in
    config order, from a night's results): a label derived from the settings would change with
    SyncWrites, and the night would match nothing."""
    with open(config, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    blocks = sum(line.strip().lower() == "<ap_module>" for line in lines)
    if blocks != len(labels):
        raise SystemExit(f"measure-nightly-gate: {config} has {blocks} blocks but its results "
                         f"{len(labels)} (a Sweep?): give a config without sweeps")
    body, i = [], 0
    for line in lines:
        body.append(line)
        if line.strip().lower() == "<ap_module>":
            body.append(f'  Label "{labels[i]}"\n  SyncWrites on\n')
            i += 1
    path = os.path.join(out, "sync-" + os.path.basename(config))
    with open(path, "w", encoding="utf-8") as f:
        f.write("# measure-nightly-gate.py: the config with a flush inside every timed write\n"
                + "".join(body))
    return path


def newest(job, pattern):
    found = sorted(glob.glob(os.path.join(job, "runs", pattern)))
    return found[-1] if found else None


# What a file system cannot avoid, accepted on its nights (seeding and verdicts alike): tmpfs's
# pages are its storage, so its reads are always from memory and flagged page_cache.
UNAVOIDABLE = {"tmpfs": ["page_cache"]}


def with_allowed(compare_args, names):
    """compare_args with `names` added to its --allow list (pio-compare keeps one --allow)."""
    args = compare_args.split()
    if not names:
        return compare_args
    if "--allow" in args:
        i = args.index("--allow") + 1
        args[i] = ",".join([args[i]] + [n for n in names if n not in args[i].split(",")])
    else:
        args += ["--allow", ",".join(names)]
    return " ".join(args)


def allowed(compare_args):
    """The names of compare_args' --allow list."""
    args = compare_args.split()
    return args[args.index("--allow") + 1].split(",") if "--allow" in args else []


def night(job, config, env, kind, log):
    """One pio-nightly night; returns {kind, exit, comparison, run} (comparison: the saved JSON,
    None when nothing was compared)."""
    before = set(glob.glob(os.path.join(job, "runs", "*.compare.json")))
    t0 = time.time()
    p = subprocess.run([os.path.join(_here, "pio-nightly"), config, job], env=env,
                       capture_output=True, text=True, check=False)
    log.write(f"=== {kind} night, exit {p.returncode}, {time.time() - t0:.1f} s\n"
              f"{p.stdout}{p.stderr}\n")
    log.flush()
    saved = sorted(set(glob.glob(os.path.join(job, "runs", "*.compare.json"))) - before)
    comparison = None
    if saved:
        with open(saved[-1], encoding="utf-8") as f:
            comparison = json.load(f)
    run_file = comparison.get("candidate") if comparison else None  # relative to the job
    return {"kind": kind, "exit": p.returncode, "comparison": comparison, "run": run_file,
            "flags": flags_of(os.path.join(job, run_file)) if run_file else {}}


def flags_of(run_file):
    """{flag: [test, ...]} of a night's results (every test's flags, allowed or not)."""
    out = {}
    for m in results.load(run_file).get("modules", []):
        for t in m.get("tests", []):
            for f in t.get("flags", []):
                out.setdefault(f["flag"], []).append(f"{m.get('label')} / {t.get('label')}")
    return out


def slowdown(comparison):
    """The I/O tests' slowdown of a night: median over them of baseline / candidate."""
    io = [r for r in comparison["rows"] if r.get("higher_is_better") and
          r.get("change") is not None]
    return statistics.median([1 / (1 + r["change"]) for r in io]) if io else None


def injected(job, run_path, factor, compare_args):
    """pio-compare's exit for a night's run with every I/O repetition's bandwidth / factor."""
    base = results.load_many([os.path.join(job, "baseline")])
    doc = copy.deepcopy(results.load(os.path.join(job, run_path)))
    for b in doc["modules"]:
        for t in b["tests"]:
            for r in t.get("reps") or []:
                if not r.get("op"):
                    r["bandwidth_MiBps"] /= factor
    opts = {"threshold": compare.DEFAULTS["threshold"], "allow": allowed(compare_args)}
    args = compare_args.split()
    if "--threshold" in args:
        opts["threshold"] = cli.fraction(args[args.index("--threshold") + 1])
    return compare.exit_status(compare.compare_runs(base, doc, **opts))


def summary(fs, nights, job, compare_args, cap_how):
    aa = [n for n in nights if n["kind"] == "aa"]
    out = [f"{fs} (COMPARE_ARGS {compare_args!r}):"]
    fails = sum(n["exit"] == compare.EXIT_REGRESSION for n in aa)
    other = {}
    for n in aa:
        if n["exit"] != compare.EXIT_OK and n["exit"] != compare.EXIT_REGRESSION:
            other[n["exit"]] = other.get(n["exit"], 0) + 1
    out.append(f"  A/A nights failing (exit 1): {fails} of {len(aa)}"
               + (f"; other exits: {', '.join(f'{c} x{k}' for k, c in sorted(other.items()))}"
                  if other else "") + " (target: at most 1 in 20)")
    allow = set(allowed(compare_args))
    raised = [{f: ts for f, ts in n["flags"].items() if f not in allow} for n in aa]
    counts = {}
    for r in raised:
        for f, ts in r.items():
            for t in ts:
                counts[f"{f} ({t})"] = counts.get(f"{f} ({t})", 0) + 1
    out.append(f"  A/A nights with a flag not allowed: {sum(bool(r) for r in raised)} of "
               f"{len(aa)} (target: at most 1 in 20)"
               + (": " + "; ".join(f"{k} x{c}" for k, c in sorted(counts.items()))
                  if counts else ""))
    for kind, what in (("cpu", f"CPU cap ({cap_how})"), ("sync", "SyncWrites on")):
        ns = [n for n in nights if n["kind"] == kind]
        if not ns:
            continue
        caught = sum(n["exit"] == compare.EXIT_REGRESSION for n in ns)
        refused = [n for n in ns if n["exit"] == compare.EXIT_FLAGGED]
        named = sorted({f for n in refused for f in n["flags"]} - set(allowed(compare_args)))
        slow = [slowdown(n["comparison"]) for n in ns if n["comparison"]]
        slow = [s for s in slow if s]
        out.append(f"  {what}: called a regression (exit 1) {caught} of {len(ns)}; job failed "
                   f"flagged (exit 6) {len(refused)} of {len(ns)}"
                   + (f" ({', '.join(named)})" if named else "")
                   + "; I/O slowdown per night (median over the I/O tests, baseline / night): "
                   + (", ".join(f"{s:.2f}x" for s in slow) or "none measured"))
    with_run = [n for n in aa if n["run"]]
    if with_run:
        hit = sum(injected(job, n["run"], 2.0, compare_args) == compare.EXIT_REGRESSION
                  for n in with_run)
        out.append(f"  2x injected into the A/A nights: caught {hit} of {len(with_run)}")
    rows = [r for n in aa if n["comparison"] for r in n["comparison"]["rows"]
            if "detectable" in r]
    if rows:
        per_test = {}
        for r in rows:
            per_test.setdefault(r["name"], []).append(r["detectable"])
        meds = {k: statistics.median(v) for k, v in per_test.items()}
        all_med = statistics.median(meds.values())
        out.append(f"  smallest slowdown the gate can detect (median over the A/A nights, "
                   f"detectable at alpha over the tests): median over tests "
                   f"{compare.detectable_text(all_med)}, best "
                   f"{compare.detectable_text(min(meds.values()))}, worst "
                   f"{compare.detectable_text(max(meds.values()))}")
        for k, v in sorted(meds.items()):
            out.append(f"    {k}: {compare.detectable_text(v)}")
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fs", default="tmpfs,ext4", help="file systems (tmpfs, ext4)")
    ap.add_argument("--nights", type=int, default=20, help="A/A nights per file system after "
                                                          "the baseline is full (default 20)")
    ap.add_argument("--provoked", type=int, default=5,
                    help="nights of each provoked slowdown per file system (default 5)")
    ap.add_argument("--keep", type=int, default=5, help="KEEP: baseline nights (default 5, the "
                                                       "job's)")
    ap.add_argument("--np", type=int, default=2, help="ranks (default 2)")
    ap.add_argument("--config", default=os.path.join(REPO, "docs", "examples", "nightly.conf"))
    ap.add_argument("--compare-args", default="", help="COMPARE_ARGS for every night")
    ap.add_argument("--cpu-cap", type=float, default=25.0,
                    help="the CPU cap, per cent of one CPU (default 25)")
    ap.add_argument("--ext4-mib", type=int, default=4096,
                    help="ext4 image size (default 4096: the shipped config writes 1 GiB files)")
    ap.add_argument("--loop-direct-io", choices=("on", "off"), default="on",
                    help="ext4's loop device with direct I/O to its image (default on)")
    ap.add_argument("--ext4-image-dir",
                    help="where the ext4 image lives (default: under --out, on its disk); "
                         "/dev/shm puts it in memory, with --loop-direct-io off: ext4's own code "
                         "path over a device whose speed does not drift as a VM's disk does")
    ap.add_argument("--seed", type=int, default=1, help="order of the nights (default 1)")
    ap.add_argument("--out", help="where everything goes (default: a new /tmp directory)")
    a = ap.parse_args(argv)
    out = os.path.abspath(a.out or tempfile.mkdtemp(prefix="measure-nightly-gate-", dir="/tmp"))
    os.makedirs(out, exist_ok=True)
    harness = os.environ.get("PIO_HARNESS") or os.path.join(REPO, "build", "install", "bin",
                                                           "pio-harness")
    env = dict(os.environ, NP=str(a.np), KEEP=str(a.keep), PIO_HARNESS=harness,
               PIO_COMPARE=os.path.join(_here, "pio-compare"),
               COMPARE_ARGS=a.compare_args, MPIR_CVAR_POLLS_BEFORE_YIELD="1",
               HWLOC_COMPONENTS="-pci")
    env.setdefault("PIO_MODULE_PATH", os.path.join(REPO, "build", "modules"))
    config = os.path.abspath(a.config)
    cap = CpuCap(out, a.np, a.cpu_cap)
    report = [f"measure-nightly-gate: {config}, {a.np} ranks, KEEP {a.keep}, COMPARE_ARGS "
              f"'{a.compare_args}', out {out}", f"before: {load_average()}"]
    print(report[0] + "\n" + report[1], flush=True)
    try:
        for fs in a.fs.split(","):
            job = os.path.join(out, fs, "job")
            os.makedirs(job, exist_ok=True)
            with scratch_fs(fs, os.path.join(out, fs), a.ext4_mib,
                            a.loop_direct_io == "on", a.ext4_image_dir) as scratch, \
                    open(os.path.join(out, fs, "nights.log"), "w") as log:
                fs_args = with_allowed(a.compare_args, UNAVOIDABLE.get(fs, []))
                e = dict(env, PIO_SCRATCH=scratch, COMPARE_ARGS=fs_args)
                nights = []
                for _ in range(3 * a.keep):  # seeding: until baseline/ holds KEEP nights
                    if len(glob.glob(os.path.join(job, "baseline", "*.json"))) >= a.keep:
                        break
                    nights.append(dict(night(job, config, e, "seed", log)))
                seeds = sorted(glob.glob(os.path.join(job, "baseline", "*.json")))
                if not seeds:
                    raise SystemExit(f"measure-nightly-gate: no night seeded {job}/baseline "
                                     f"(see {out}/{fs}/nights.log)")
                synced = sync_config(config, os.path.join(out, fs), [
                    b.get("label") for b in results.load(seeds[0])["modules"]])
                plan = ["aa"] * a.nights + ["cpu"] * a.provoked + ["sync"] * a.provoked
                random.Random(a.seed).shuffle(plan)
                for i, kind in enumerate(plan):
                    if kind == "cpu":
                        with cap as wrapper:
                            n = night(job, config, dict(e, MPIEXEC=wrapper), kind, log)
                    elif kind == "sync":
                        n = night(job, synced, dict(e, COMPARE_ARGS=with_allowed(
                            fs_args, ["settings"])), kind, log)
                    else:
                        n = night(job, config, e, kind, log)
                    nights.append(n)
                    print(f"{fs} night {i + 1}/{len(plan)}: {kind}, exit {n['exit']}",
                          flush=True)
                told = summary(fs, nights, job, fs_args, cap.how)
                print(told, flush=True)
                report.append(told)
    finally:
        cap.remove()
    report.append(f"after: {load_average()}")
    print(report[-1])
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
