#!/usr/bin/python3
"""Config fuzzer for pio-harness (docs/reference/reliability.md).

Mutates the configs in conf/ (delete, duplicate, swap, truncate and splice lines, flip bytes,
insert NUL bytes, over-long lines, bytes that are not UTF-8, extreme values and bad Includes),
runs pio-harness on each mutant under mpiexec with a timeout, and reports crashes (a signal, or
an exit code other than 0, 1 or 2) and hangs. Bounded by a number of mutants and a total time.

  tools/dev/fuzz-config.py --harness build/harness/pio-harness --mutants 300 --budget 120
  tools/dev/fuzz-config.py --harness ... --replay tests/harness/guard/corpus   # re-run saved mutants

By default each mutant is only checked (pio-harness --check: config, modules, directives and
files, no I/O), which is where a bad config must be caught; --run runs it for real in a scratch
directory (slow: the configs in conf/ are real benchmarks).
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

EXTREMES = [b"nan", b"inf", b"-inf", b"1e20", b"-1", b"0", b"18446744073709551616",
            b"9223372036854775807", b"4294967296", b"1e-300", b"0x10", b"", b"\"\""]
INCLUDES = [b"Include self.conf", b"Include \"\"", b"Include", b"Include /dev/zero",
            b"Include /dev/null", b"Include .", b"Include /proc/self/fd/0", b"IncludePath /",
            b"Include ${HOME}/x.conf", b"Include *.conf"]


def mutate(rng, text, others):
    """One to three random mutations of text (bytes)."""
    lines = text.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(12)
        i = rng.randrange(len(lines)) if lines else 0
        if not lines:
            lines = [b""]
        if op == 0:  # delete a line
            del lines[i]
        elif op == 1:  # duplicate a line
            lines.insert(i, lines[i])
        elif op == 2:  # swap two lines
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:  # splice lines from another config
            other = rng.choice(others).split(b"\n")
            k = rng.randrange(len(other))
            lines[i:i] = other[k:k + rng.randint(1, 5)]
        elif op == 4:  # truncate the file at a random byte
            joined = b"\n".join(lines)
            lines = joined[:rng.randrange(len(joined) + 1)].split(b"\n")
        elif op == 5:  # flip a byte
            if lines[i]:
                b = bytearray(lines[i])
                k = rng.randrange(len(b))
                b[k] ^= 1 << rng.randrange(8)
                lines[i] = bytes(b)
        elif op == 6:  # a NUL byte
            k = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:k] + b"\0" + lines[i][k:]
        elif op == 7:  # an over-long line, whose tail is a directive
            lines.insert(i, b"#" + b"x" * rng.choice([4000, 4094, 4095, 4200, 9000]) +
                         rng.choice([b"Overwrite on", b"KeepFiles on", b"</ap_module>"]))
        elif op == 8:  # bytes that are not UTF-8
            k = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:k] + rng.choice([b"\xe9", b"\xff\xfe", b"\xc3", b"\x80"]) + \
                lines[i][k:]
        elif op == 9:  # an extreme value
            words = lines[i].split()
            if len(words) >= 2:
                words[rng.randrange(1, len(words))] = rng.choice(EXTREMES)
                lines[i] = b" ".join(words)
        elif op == 10:  # a bad Include
            lines.insert(i, rng.choice(INCLUDES))
        else:  # a backslash continuation
            lines[i] = lines[i] + b" \\"
    return b"\n".join(lines)


def run_one(args, conf_path, workdir):
    """Runs the harness on conf_path in workdir. Returns (verdict, code, output)."""
    cmd = [args.mpiexec, "-n", str(args.np), args.harness, "-c", conf_path]
    for d in args.module_dir:
        cmd += ["-M", d]
    if not args.run:
        cmd.append("--check")
    env = dict(os.environ, HWLOC_COMPONENTS="-pci", MPIR_CVAR_POLLS_BEFORE_YIELD="1")
    try:
        p = subprocess.run(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=args.timeout,
                           start_new_session=True)
    except subprocess.TimeoutExpired as e:
        out = e.output or b""
        return "hang", None, out
    if p.returncode in (0, 1, 2):
        return "ok", p.returncode, p.stdout
    return "crash", p.returncode, p.stdout


def expected_code(data):
    """The '# expect: N' of a corpus file's first line, or None."""
    first = data.split(b"\n", 1)[0]
    if first.startswith(b"# expect:"):
        return int(first.split(b":", 1)[1])
    return None


def replay(args):
    files = sorted(f for f in os.listdir(args.replay) if f.endswith(".conf"))
    bad = 0
    for name in files:
        src = os.path.join(args.replay, name)
        with tempfile.TemporaryDirectory(prefix="pio-fuzz-") as work:
            for f in os.listdir(args.replay):  # companions (Include'd files) come along
                shutil.copy(os.path.join(args.replay, f), work)
            with open(src, "rb") as f:
                data = f.read()
            verdict, code, out = run_one(args, os.path.join(work, name), work)
            want = expected_code(data)
            leftovers = [f for f in os.listdir(work) if f.endswith((".pio-tmp", ".pio-owner"))]
            if verdict != "ok" or (want is not None and code != want) or leftovers:
                bad += 1
                print("FAIL %s: %s, exit %s (expected %s), left %s\n%s" %
                      (name, verdict, code, want, leftovers,
                       out.decode("utf-8", "replace")[-2000:]))
    print("fuzz-config replay: %d files, %d failed" % (len(files), bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--harness", required=True, help="the pio-harness executable")
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("-M", "--module-dir", action="append", default=[],
                    help="module directory (repeatable)")
    ap.add_argument("--conf-dir", default=os.path.join(here, "..", "..", "conf"),
                    help="configs to mutate (*.conf)")
    ap.add_argument("--np", type=int, default=2, help="ranks per run")
    ap.add_argument("--mutants", type=int, default=300, help="at most this many mutants")
    ap.add_argument("--budget", type=float, default=120, help="total seconds, at most")
    ap.add_argument("--timeout", type=float, default=30, help="seconds per run before a hang")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: time)")
    ap.add_argument("--run", action="store_true", help="run mutants for real, not --check")
    ap.add_argument("--save", default=None, help="save crashing and hanging mutants here")
    ap.add_argument("--replay", default=None, help="run every *.conf in this directory")
    args = ap.parse_args()
    # Runs happen in scratch directories: make every path absolute first.
    args.harness = os.path.abspath(args.harness)
    args.module_dir = [os.path.abspath(d) for d in args.module_dir]
    if args.replay:
        return replay(args)

    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    sources = []
    for name in sorted(os.listdir(args.conf_dir)):
        if name.endswith(".conf"):
            with open(os.path.join(args.conf_dir, name), "rb") as f:
                sources.append((name, f.read()))
    if not sources:
        print("fuzz-config: no *.conf in %s" % args.conf_dir)
        return 2
    texts = [t for _, t in sources]
    start = time.monotonic()
    counts = {"ok": 0, "crash": 0, "hang": 0}
    codes = {}
    done = 0
    while done < args.mutants and time.monotonic() - start + args.timeout <= args.budget:
        name, text = rng.choice(sources)
        mutant = mutate(rng, text, texts)
        with tempfile.TemporaryDirectory(prefix="pio-fuzz-") as work:
            path = os.path.join(work, "self.conf")  # "Include self.conf" includes itself
            with open(path, "wb") as f:
                f.write(mutant)
            verdict, code, out = run_one(args, path, work)
            leftovers = [f for f in os.listdir(work) if f.endswith((".pio-tmp", ".pio-owner"))]
        done += 1
        counts[verdict] += 1
        codes[code] = codes.get(code, 0) + 1
        if verdict != "ok" or leftovers:
            if leftovers:
                counts["crash"] += verdict == "ok"
            print("%s: mutant %d of %s (seed %d): exit %s, left %s\n%s" %
                  (verdict.upper(), done, name, seed, code, leftovers,
                   out.decode("utf-8", "replace")[-1500:]))
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                with open(os.path.join(args.save, "%s-%d-%d.conf" % (name[:-5], seed, done)),
                          "wb") as f:
                    f.write(mutant)
    elapsed = time.monotonic() - start
    print("fuzz-config: %d mutants in %.0f s (seed %d): %d crashes, %d hangs; exit codes %s" %
          (done, elapsed, seed, counts["crash"], counts["hang"],
           ", ".join("%s: %d" % (k, v) for k, v in sorted(codes.items(), key=str))))
    return 1 if counts["crash"] or counts["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
