"""What the tests across emulated hosts share (tests/multihost: network + UTS namespaces on a
shared file system; tests/fslab: client hosts of a GlusterFS volume): a run's outcome; a run
stopped with everything it started, the ranks' guardians included, when it hangs or its test
fails; the ranks and guardians on one host; and a run whose ranks on one host are killed with a
group file open (docs/reference/reliability.md, "Leftovers" and "the rank's guardian")."""
import os
import signal
import subprocess
import time
import uuid

RUN_TAG = "PIO_TEST_RUN"  # marks every process of a run (start_run)
GUARDIAN = "pio-guardian"  # a rank's guardian, by its name (harness/guard/guardian.cpp)
HARNESS = os.path.basename(os.environ.get("PIO_HARNESS", "pio-harness"))


class Run:
    """One harness run: exit code, console, results document."""

    def __init__(self, rc, output, results):
        self.rc, self.output, self.results = rc, output, results

    def host_of(self, rank):
        for h in self.results["hosts"]:
            if rank in h["rank_list"]:
                return h["host"]
        raise KeyError(rank)


def group_files_config(hang):
    """Two groups of two ranks, each its own shared file (<TestFile>.g<k>) claimed by its first
    rank: g1 by rank 2. With hang, rank 0 hangs in its first unit, so the run stops there with
    both files open; without, the run passes."""
    text = f"""ModulePath {os.environ.get("PIO_FAULTS_DIR", "")}
<ap_module>
  ModuleName test_faults
  GroupSize 2
  FailIn work_unit
  FailRank 0
  FailTest 0
  Hang on
</ap_module>
"""
    return text if hang else text.replace("  Hang on\n", "").replace("FailIn work_unit",
                                                                      "FailIn none")


def _status(pid):
    """(Name, PPid, state letter) of /proc/<pid>/status (OSError if the process is gone)."""
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    return fields["Name"], int(fields["PPid"]), fields["State"][0]


def _carries(pid, tag):
    """True if process pid was started with PIO_TEST_RUN=tag in its environment."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"{RUN_TAG}={tag}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def run_processes(tag):
    """pids of the live processes of the run tagged tag (start_run): mpiexec, its launcher
    commands, hydra's proxies, the ranks and their guardians; found by their environment, so a
    proxy or guardian whose parent has died (now a child of init) is found too."""
    pids = []
    for pid in map(int, filter(str.isdigit, os.listdir("/proc"))):
        try:
            if _carries(pid, tag) and _status(pid)[2] != "Z":
                pids.append(pid)
        except (OSError, KeyError, ValueError):
            pass
    return pids


def start_run(cmd, cwd, env=None):
    """Popen of an mpiexec command line, its output captured, in a session of its own and tagged
    (PIO_TEST_RUN in the environment, which hydra passes to the proxies and ranks) for end_run."""
    tag = uuid.uuid4().hex
    p = subprocess.Popen(cmd, cwd=cwd, env=dict(env or os.environ, **{RUN_TAG: tag}),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    p.tag = tag
    return p


def end_run(p, grace=30):
    """Stops whatever is left of the run p (start_run) and reaps it. mpiexec, hydra's proxies and
    the ranks (each in a session of its own: a kill of mpiexec's group misses them, and a proxy
    outlives a killed mpiexec) get SIGKILL at once if mpiexec is still running, else after 5 s
    (what mpiexec left may be on its way out); the ranks' guardians get grace s to finish their
    cleanup (docs/reference/reliability.md, "the rank's guardian"), then SIGKILL."""
    start = time.time()
    spare = 0 if p.poll() is None else 5
    while True:
        left = run_processes(p.tag)
        waited = time.time() - start
        if not left or waited > grace:
            break
        for pid in left:
            try:
                if waited >= spare and _status(pid)[0] != GUARDIAN:
                    os.kill(pid, signal.SIGKILL)
            except (OSError, KeyError):
                pass
        time.sleep(0.1)
    for pid in run_processes(p.tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        p.communicate(timeout=grace)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()


def run_to_end(cmd, cwd, env=None, timeout=120):
    """Runs an mpiexec command line to its end; returns (exit code, output). A run that has not
    ended after timeout s is stopped with everything it started (end_run), then an
    AssertionError says it hung."""
    p = start_run(cmd, cwd, env)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        end_run(p)
        out, _ = p.communicate()
        raise AssertionError(f"the run hung (killed after {timeout} s):\n{out}")
    finally:
        end_run(p)
    return p.returncode, out


def ranks_and_guardians(net_ns, tag):
    """{rank pid: its guardian's pid} of the run tagged tag in the network namespace of that
    inode. A rank's guardian is the process it forked before MPI_Init, named pio-guardian (its
    parent is the rank while the rank lives); every rank must have one."""
    ranks, guardians = [], []
    for pid in run_processes(tag):
        try:
            if os.stat(f"/proc/{pid}/ns/net").st_ino != net_ns:
                continue
            name, ppid, _ = _status(pid)
            exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
        except (OSError, KeyError):
            continue
        if name == GUARDIAN:
            guardians.append((pid, ppid))
        elif exe == HARNESS:
            ranks.append(pid)
    of = {ppid: pid for pid, ppid in guardians}
    assert sorted(of) == sorted(ranks) and len(of) == len(guardians), \
        f"ranks {ranks} and guardians (pid, parent) {guardians} do not pair up"
    return of


def _wait_dead(pids, wait=10):
    """Waits until each of pids is gone or a zombie (dead, not yet reaped by its parent)."""
    deadline = time.time() + wait
    for pid in pids:
        while time.time() < deadline:
            try:
                if _status(pid)[2] == "Z":
                    break
            except (OSError, KeyError):
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"process {pid} is still alive {wait} s after SIGKILL")


def kill_ranks_once_open(cmd, cwd, group_file, net_ns, *, node_lost, env=None, wait=60):
    """Runs cmd (group_files_config(hang=True) at 4 ranks); once group_file is open (its owner
    record says so), SIGKILLs the 2 ranks in network namespace net_ns and waits for the run's
    end. node_lost: their guardians die first (the host is lost with everything on it, so the
    files stay for the next run); else the guardians live and clean up after their ranks, as
    on a host that is still up. Whatever happens, nothing of the run is left running (end_run).
    Returns the run's output."""
    p = start_run(cmd, cwd, env)
    try:
        record = group_file.parent / (group_file.name + ".pio-owner")
        deadline = time.time() + wait
        while time.time() < deadline and p.poll() is None and not (
                group_file.exists() and record.exists() and "file open" in record.read_text()):
            time.sleep(0.2)
        assert group_file.exists(), "the run never opened its group file"
        time.sleep(0.5)
        ranks = ranks_and_guardians(net_ns, p.tag)
        assert len(ranks) == 2, ranks
        if node_lost:
            for guardian in ranks.values():
                os.kill(guardian, signal.SIGKILL)
            _wait_dead(ranks.values())  # before the ranks: no guardian sees its rank die
        for rank in ranks:
            os.kill(rank, signal.SIGKILL)
        try:
            out, _ = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            end_run(p)
            out, _ = p.communicate()
            raise AssertionError(f"the run did not end 60 s after its ranks were killed:\n{out}")
    finally:
        end_run(p)
    return out
