"""Owner records of a run that died on the other host (docs/reliability.md, "Leftovers"): a
record naming another host cannot be checked by pid, so the run refuses the file, naming that
host, unless --clean-stale is given; with it, only a file the record proves (device, inode, and
size and modification time once closed) is removed."""
import os
import signal
import subprocess
import time

# Two groups of two ranks, each group its own shared file (mh.testfile.g<k>) claimed by its
# first rank: g1 by rank 2 on pio-mh2. Rank 0 hangs in its first unit, so the run stops there
# with both files open.
HANGING = f"""ModulePath {os.environ.get("PIO_FAULTS_DIR", "")}
<ap_module>
  ModuleName test_faults
  GroupSize 2
  FailIn work_unit
  FailRank 0
  FailTest 0
  Hang on
</ap_module>
"""
CLEAN = HANGING.replace("  Hang on\n", "").replace("FailIn work_unit", "FailIn none")


def ranks_on(host):
    """pids of the pio-harness processes in host's network namespace."""
    want = os.stat(f"/run/netns/{host}").st_ino
    harness = os.path.basename(os.environ["PIO_HARNESS"])
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if (os.path.basename(os.readlink(f"/proc/{pid}/exe")) == harness and
                    os.stat(f"/proc/{pid}/ns/net").st_ino == want):
                pids.append(int(pid))
        except OSError:
            pass
    return pids


def crash_on_second_host(harness, tmp_path):
    """Runs HANGING, SIGKILLs the ranks on pio-mh2 once g1 is open, ends the run."""
    cmd = harness.command(HANGING)
    p = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, start_new_session=True)
    g1 = tmp_path / "mh.testfile.g1"
    record = tmp_path / "mh.testfile.g1.pio-owner"
    deadline = time.time() + 60
    while time.time() < deadline and not (g1.exists() and record.exists() and
                                          "file open" in record.read_text()):
        time.sleep(0.2)
    assert g1.exists(), "the run never opened its group file"
    time.sleep(0.5)
    victims = ranks_on("pio-mh2")
    assert len(victims) == 2, victims
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
    assert g1.exists() and record.exists(), out  # the leftovers of the ranks that died
    assert "pio-mh2" in record.read_text()
    return g1, record


def on_first_host_only(harness):
    return "10.77.0.1:4"  # every rank on pio-mh1 (hydra's host 1)


def test_leftover_of_other_host_refused_then_cleaned(harness, tmp_path):
    g1, record = crash_on_second_host(harness, tmp_path)
    r = harness(CLEAN, hosts_arg=on_first_host_only(harness))
    assert r.rc != 0, r.output
    assert "mh.testfile.g1 was left behind by" in r.output and "on pio-mh2" in r.output, r.output
    assert "--clean-stale" in r.output
    assert g1.exists() and record.exists()  # refused: nothing removed
    r = harness(CLEAN, hosts_arg=on_first_host_only(harness), args=["--clean-stale"])
    assert r.rc == 0, r.output
    assert f"removed {g1}, left behind by" in r.output and "(--clean-stale)" in r.output, r.output
    assert not record.exists()


def test_clean_stale_removes_only_what_the_record_proves(harness, tmp_path):
    g1, record = crash_on_second_host(harness, tmp_path)
    # Same name, another inode: the old file is moved aside, not unlinked, so that its inode
    # number cannot be reused for the new one (the record, stamped while the run had the file
    # open, can prove only device and inode).
    g1.rename(tmp_path / "moved-aside")
    g1.write_bytes(b"someone else's file")
    r = harness(CLEAN, hosts_arg=on_first_host_only(harness), args=["--clean-stale"])
    assert r.rc != 0, r.output
    assert "pio-harness removes neither" in r.output, r.output
    assert g1.read_bytes() == b"someone else's file" and record.exists()
