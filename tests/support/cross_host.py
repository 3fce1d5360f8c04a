"""What the tests across emulated hosts share (tests/multihost: network + UTS namespaces on a
shared file system; tests/fslab: client hosts of a GlusterFS volume): a run's outcome, the
harness processes on one host, and a run whose ranks on one host are killed with a group file
open (docs/reliability.md, "Leftovers")."""
import os
import signal
import subprocess
import time


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


def harness_pids(net_ns):
    """pids of the pio-harness processes ($PIO_HARNESS) in the network namespace of that inode."""
    name = os.path.basename(os.environ["PIO_HARNESS"])
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if (os.path.basename(os.readlink(f"/proc/{pid}/exe")) == name and
                    os.stat(f"/proc/{pid}/ns/net").st_ino == net_ns):
                pids.append(int(pid))
        except OSError:
            pass
    return pids


def kill_ranks_once_open(cmd, cwd, group_file, net_ns, env=None, wait=60):
    """Runs cmd (group_files_config(hang=True) at 4 ranks); once group_file is open (its owner
    record says so), SIGKILLs the 2 ranks in network namespace net_ns and ends the run. Returns
    the run's output."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    record = group_file.parent / (group_file.name + ".pio-owner")
    deadline = time.time() + wait
    while time.time() < deadline and not (group_file.exists() and record.exists() and
                                          "file open" in record.read_text()):
        time.sleep(0.2)
    assert group_file.exists(), "the run never opened its group file"
    time.sleep(0.5)
    victims = harness_pids(net_ns)
    assert len(victims) == 2, victims
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
    return out
