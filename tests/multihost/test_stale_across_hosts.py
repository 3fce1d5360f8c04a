"""Owner records of a run that died on the other host (docs/reference/reliability.md, "Leftovers"):
a record naming another host cannot be checked by pid, so the run refuses the file, naming that
host, unless --clean-stale is given; with it, only a file the record proves (device, inode, and
size and modification time once closed) is removed. Such leftovers come from a lost host: ranks
killed on a host that is still up leave nothing, as their guardians remove what they made
("Interrupted runs: the rank's guardian")."""
import json
import os
import re
import signal

from cross_host import group_files_config, kill_ranks_once_open

# g1 is claimed by rank 2 on pio-mh2 (hydra's block placement of -hosts a:2,b:2).
HANGING = group_files_config(hang=True)
CLEAN = group_files_config(hang=False)


def net_ns(host):
    return os.stat(f"/run/netns/{host}").st_ino


def crash_on_second_host(harness, tmp_path):
    """Runs HANGING; once g1 is open, pio-mh2 is lost: its ranks and their guardians SIGKILLed,
    so nothing there cleans up."""
    g1 = tmp_path / "mh.testfile.g1"
    record = tmp_path / "mh.testfile.g1.pio-owner"
    out = kill_ranks_once_open(harness.command(HANGING), tmp_path, g1, net_ns("pio-mh2"),
                               node_lost=True)
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



def test_ranks_killed_on_a_live_host_are_cleaned_up_by_their_guardians(harness, tmp_path):
    """The ranks on pio-mh2 SIGKILLed, the host alive: their guardians remove what they left,
    so the next run finds nothing; the results say interrupted; every note is true."""
    g1 = tmp_path / "mh.testfile.g1"
    out = kill_ranks_once_open(harness.command(HANGING), tmp_path, g1, net_ns("pio-mh2"),
                               node_lost=False)
    # Rank 2 claimed g1 (rank 3 joined it): its guardian removed it and its record.
    said = re.findall(r"note: rank 2 was killed \(SIGKILL\) before it could remove its files; "
                      r"its cleanup process removed (.*)", out)
    assert [set(s.split(", ")) for s in said] == [{str(g1), f"{g1}.pio-owner"}], out
    # Nothing of the run is left on either host (g0, rank 0's on pio-mh1, went too).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json", "run.conf"], out
    for s in re.findall(r"cleanup process removed (.*)", out):
        assert not any(os.path.lexists(p) for p in s.split(", ")), out
    assert "cleanup process left" not in out and "left behind" not in out, out
    doc = json.loads(harness.results.read_text())
    assert doc["status"] == "interrupted", doc["status"]
    assert doc["exit_code"] == 128 + signal.Signals[doc["signal"]], (doc["signal"],
                                                                     doc["exit_code"])
