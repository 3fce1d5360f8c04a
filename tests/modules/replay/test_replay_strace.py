"""Replays of real programs' strace logs, checked with strace (docs/guides/replay.md, issue 44).

dd, cp and a small MPI program (mpi_writer.cpp) are recorded with `strace -f -ttt -T -y`; the
replay of each log runs at 1, 2 and 4 processes with every rank under strace, and the reads and
writes the replay makes on its test file (offset and length, in order, per rank) must be the ones
the program made on its file, on the run ranks TraceRanks maps them to: through Interface posix,
mpiio with and without a file view, and hdf5 (its dataset's data at a constant distance from the
file's start). Timing recorded / scaled: each unit's absolute deadline, read from the replay's
clock_nanosleep calls, is its recorded start (times TimeScale) after the first, and every
operation follows its wait; Timing asap waits for nothing. The parser here is the test's own."""
import os
import re
import shutil
import subprocess

import pytest

STRACE = shutil.which("strace")
HARNESS = os.environ.get("PIO_HARNESS")
MODULES = os.environ.get("PIO_MODULE_DIR")
WRITER = os.environ.get("PIO_REPLAY_WRITER")
MPIEXEC = os.environ.get("PIO_MPIEXEC", "mpiexec")
ENV = dict(os.environ, MPIR_CVAR_POLLS_BEFORE_YIELD="1", HWLOC_COMPONENTS="-pci")

pytestmark = pytest.mark.skipif(
    STRACE is None or not HARNESS, reason="needs strace (tools/install-deps.sh) and PIO_HARNESS")

LINE = re.compile(r"^(?:(\d+) +)?(\d+)\.(\d+) (.*)$")
CALL = re.compile(r"^(\w+)\((.*)$")
DATA = {"read", "write", "pread64", "pwrite64", "readv", "writev", "copy_file_range"}


def fd_path(arg):
    m = re.match(r"^-?\d+<(.*)>$", arg.strip())
    return m.group(1) if m else None


def split_args(text):
    """Top-level comma split, strings and brackets respected (enough for the calls read here)."""
    out, depth, cur, i = [], 0, "", 0
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur += text[i:j + 1]
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                out.append(cur.strip())
                return out, text[i + 1:]
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    return out + [cur.strip()], ""


def data_ops(log, path):
    """The reads and writes on `path` in a strace -f -ttt -T -y log: per process (numbered by
    its first read or write of `path`) a list of (kind, offset, length, start); and every
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) deadline in ns, as ("sleep", ns, 0, start).
    A call another process interrupted starts at its first half."""
    pending, pos, procs = {}, {}, {}
    for raw in open(log, errors="replace"):
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        pid, body = m.group(1) or "0", m.group(4)
        start = int(m.group(2)) + int(m.group(3)) * 1e-6
        if body.endswith(" <unfinished ...>"):
            pending[pid] = (body[: -len(" <unfinished ...>")], start)
            continue
        r = re.match(r"^<\.\.\. (\w+) resumed>(.*)$", body)
        if r:
            if pid not in pending:
                continue
            first, start = pending.pop(pid)
            body = first + r.group(2)
        c = CALL.match(body)
        if not c:
            continue
        name = c.group(1)
        args, rest = split_args(c.group(2))
        ret = re.match(r"^\s*=\s*(-?\d+)", rest)
        ret = int(ret.group(1)) if ret else None

        def op(kind, p, off, n):
            if p != path or n is None or n <= 0:
                return
            procs.setdefault(pid, []).append((kind, off, n, start))

        if name == "clock_nanosleep" and "TIMER_ABSTIME" in args[1]:
            t = re.search(r"tv_sec=(\d+), tv_nsec=(\d+)", args[2])
            ns = int(t.group(1)) * 10**9 + int(t.group(2))
            procs.setdefault(pid, []).append(("sleep", ns, 0, start))
        elif name == "lseek" and ret is not None and ret >= 0:
            pos[(pid, fd_path(args[0]))] = ret
        elif name in ("pread64", "pwrite64"):
            op(name[1:-2], fd_path(args[0]), int(args[3]), ret)
        elif name in ("read", "write", "readv", "writev"):
            p = fd_path(args[0])
            at = pos.get((pid, p), 0)
            op(name.rstrip("v"), p, at, ret)
            if ret and ret > 0:
                pos[(pid, p)] = at + ret
        elif name == "copy_file_range" and ret:
            for kind, fd, off in (("read", args[0], args[1]), ("write", args[2], args[3])):
                p = fd_path(fd)
                at = int(off.strip("[]").split()[0]) if off != "NULL" else pos.get((pid, p), 0)
                op(kind, p, at, ret)
                if off == "NULL":
                    pos[(pid, p)] = at + ret
    return list(procs.values())  # dicts keep insertion order: by first appearance


def record(tmp, name, argv):
    log = tmp / f"{name}.log"
    subprocess.run([STRACE, "-f", "-ttt", "-T", "-y", "-o", str(log)] + argv, check=True,
                   env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    return log


def replay(tmp, n, blocks):
    """Runs the blocks at n processes, each rank under strace; returns the per-rank logs."""
    wrap = tmp / "strace-rank.sh"
    wrap.write_text(f"""#!/bin/sh
exec {STRACE} -f -ttt -T -y -e trace=%desc,%file,clock_nanosleep -o {tmp}/replay.$PMI_RANK "$@"
""")
    wrap.chmod(0o755)
    conf = tmp / "replay.conf"
    conf.write_text("Verify off\nKeepFiles on\n" + "".join(
        f"<ap_module>\n  ModuleName replay\n  Label {label}\n  TestFile {tmp}/{label}\n"
        f"{body}</ap_module>\n" for label, body in blocks))
    r = subprocess.run([MPIEXEC, "-n", str(n), str(wrap), HARNESS, "-M", MODULES, "-c", str(conf),
                        "-o", f"json={tmp}/replay.json"], env=ENV, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return [tmp / f"replay.{k}" for k in range(n)]


def of_kind(ops, kind):
    return [(o, l) for k, o, l, _ in ops if k == kind]


def per_rank(logs, path, kind):
    """Each run rank's (offset, length) of one kind on `path`, its processes' ops together."""
    out = []
    for log in logs:
        ops = [o for proc in data_ops(log, path) for o in proc]
        out.append(of_kind(ops, kind))
    return out


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("recorded")
    src = tmp / "in.bin"
    src.write_bytes(os.urandom(300000))
    logs = {
        "dd_write": record(tmp, "dd_write", ["dd", "if=/dev/zero", f"of={tmp}/dd.out", "bs=3000",
                                             "count=12", "seek=2", "conv=notrunc"]),
        "dd_read": record(tmp, "dd_read", ["dd", f"if={tmp}/dd.out", "of=/dev/null", "bs=1000",
                                           "skip=5", "count=20"]),
        "cp": record(tmp, "cp", ["cp", str(src), str(tmp / "out.bin")]),
    }
    if WRITER:
        logs["mpi"] = record(tmp, "mpi", [MPIEXEC, "-n", "2", WRITER, str(tmp / "mpi.dat"), "4096",
                                          "6"])
    return tmp, logs


@pytest.mark.parametrize("n", [1, 2, 4])
def test_real_programs_replay_byte_exact(recorded, tmp_path, n):
    rec, logs = recorded
    dd_file, out_file, in_file = str(rec / "dd.out"), str(rec / "out.bin"), str(rec / "in.bin")
    dd_w = data_ops(logs["dd_write"], dd_file)
    dd_r = data_ops(logs["dd_read"], dd_file)
    cp_in, cp_out = data_ops(logs["cp"], in_file), data_ops(logs["cp"], out_file)
    assert len(dd_w) == 1 and of_kind(dd_w[0], "write") == [(6000 + k * 3000, 3000)
                                                            for k in range(12)]
    assert of_kind(dd_r[0], "read") == [(5000 + k * 1000, 1000) for k in range(20)]
    assert of_kind(cp_out[0], "write") == [(0, 300000)] and of_kind(cp_in[0], "read")[0] == (0, 300000)

    def trace(name, file):
        return f"  Trace {logs[name]}\n  TraceFile {file}\n"

    blocks = [
        ("dd-posix", trace("dd_write", dd_file) + "  Interface posix\n"),
        ("dd-view", trace("dd_write", dd_file) + "  Hint romio_ds_write disable\n"),
        ("dd-noview", trace("dd_write", dd_file) + "  FileView off\n"),
        ("dd-hdf5", trace("dd_write", dd_file) + "  Interface hdf5\n"),
        ("dd-read", trace("dd_read", dd_file) + "  Interface posix\n  Mode read\n"),
        ("cp-write", trace("cp", "out.bin") + "  Interface posix\n"),
        ("cp-read", trace("cp", "in.bin") + "  Mode read\n"),
    ]
    mpi_w = mpi_r = None
    if "mpi" in logs:
        mpi_file = str(rec / "mpi.dat")
        mpi = data_ops(logs["mpi"], mpi_file)
        assert len(mpi) == 2
        mpi_w = [of_kind(p, "write") for p in mpi]
        mpi_r = [of_kind(p, "read") for p in mpi]
        mapping = "modulo" if n == 1 else "exact"
        blocks += [("mpi-write", trace("mpi", mpi_file) + f"  TraceRanks {mapping}\n"),
                   ("mpi-read", trace("mpi", mpi_file) + f"  TraceRanks {mapping}\n  Mode read\n"
                    "  Interface posix\n")]
    logs_n = replay(tmp_path, n, blocks)

    def only_rank0(label, kind, want):
        got = per_rank(logs_n, str(tmp_path / label), kind)
        assert got[0] == want, f"{label}: rank 0 {got[0][:5]}..., recorded {want[:5]}..."
        assert all(g == [] for g in got[1:]), f"{label}: other ranks {got[1:]}"

    for label in ("dd-posix", "dd-view", "dd-noview"):
        only_rank0(label, "write", of_kind(dd_w[0], "write"))
    only_rank0("dd-read", "read", of_kind(dd_r[0], "read"))
    only_rank0("cp-write", "write", [(0, 300000)])
    only_rank0("cp-read", "read", [(0, 300000)])
    # HDF5: the data at the dataset's address, the recorded offsets after it, in order.
    h5 = per_rank(logs_n, str(tmp_path / "dd-hdf5"), "write")[0]
    want = of_kind(dd_w[0], "write")
    bases = {o - want[0][0] for o, l in h5 if l == want[0][1]}
    assert any([(o - b, l) for o, l in h5 if l == 3000 and o - b >= 6000] == want for b in bases), h5
    if mpi_w:
        got_w = per_rank(logs_n, str(tmp_path / "mpi-write"), "write")
        got_r = per_rank(logs_n, str(tmp_path / "mpi-read"), "read")
        if n == 1:  # both processes on rank 0, merged by their start times
            def merged(kind):
                ops = sorted((t, o, l) for p in mpi for k, o, l, t in p if k == kind)
                return [(o, l) for _, o, l in ops]
            assert got_w[0] == merged("write") and got_r[0] == merged("read")
        else:
            assert got_w[:2] == mpi_w and got_r[:2] == mpi_r
            assert all(g == [] for g in got_w[2:] + got_r[2:])


DXT = """# nprocs: 2
# DXT, file_id: 7, file_name: /app/out
# DXT, rank: {rank}, hostname: h
# DXT, write_count: {count}, read_count: 0
"""


def dxt(starts):
    text = ""
    for rank, times in enumerate(starts):
        text += DXT.format(rank=rank, count=len(times))
        for k, t in enumerate(times):
            text += f" X_POSIX {rank} write {k} {(k * 2 + rank) * 512} 512 {t:.4f} {t + 0.001:.4f}\n"
    return text


def test_timing_recorded_keeps_the_gaps(tmp_path):
    starts = [[0.10, 0.35, 0.40, 0.90], [0.20, 0.25, 0.80]]
    (tmp_path / "app.dxt").write_text(dxt(starts))
    trace = f"  Trace {tmp_path}/app.dxt\n  Interface posix\n  TimingScope phase\n"
    logs = replay(tmp_path, 2, [("recorded", trace + "  Timing recorded\n"),
                                ("scaled", trace + "  Timing scaled\n  TimeScale 0.5\n"),
                                ("asap", trace)])
    first = min(t for times in starts for t in times)
    for rank, log in enumerate(logs):
        procs = data_ops(log, None)  # the sleeps only (no path matches None)
        sleeps = [ns for p in procs for k, ns, _, _ in p if k == "sleep"]
        n = len(starts[rank])
        assert len(sleeps) == 2 * n, f"rank {rank}: {len(sleeps)} deadlines for 2 x {n} units"
        for block, scale in ((0, 1.0), (1, 0.5)):
            got = sleeps[block * n:(block + 1) * n]
            want = [(t - first) * scale for t in starts[rank]]
            for k in range(1, n):  # each deadline its recorded distance from the first
                assert abs((got[k] - got[0]) * 1e-9 - (want[k] - want[0])) < 2e-6, (rank, block, k)
        # Every write follows its wait: in the log a deadline, then the unit's pwrite64.
        for label, timed in (("recorded", True), ("scaled", True), ("asap", False)):
            path = str(tmp_path / label)
            seq = [k for p in data_ops(log, path) for k, _, _, _ in p]
            assert seq.count("write") == len(starts[rank]), (label, seq)
        order = []
        for raw in open(log):
            if "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME" in raw:
                order.append("s")
            elif "pwrite64(" in raw and f"{tmp_path}/" in raw:
                order.append("w")
        assert "".join(order).startswith(("sw" * n) * 2), "".join(order)
