"""Owner records on the shared volume (docs/reference/reliability.md, "Leftovers"): the second
client host lost (its ranks and their guardians killed) leaves its group file and owner record on
the volume; a later run from the first client host reads the record through its own mount, refuses
the file, naming the host, and removes it with --clean-stale only when the record proves it
(device, inode)."""
from cross_host import group_files_config, kill_ranks_once_open

# g1 is claimed by rank 2, on the second client host (ranks in blocks of 2 on the first two).
HANGING = group_files_config(hang=True)
CLEAN = group_files_config(hang=False)


def crash_on_second_host(lab, harness, tmp_path):
    """Runs HANGING; once g1 is open, the second client host is lost: its ranks and their
    guardians SIGKILLed, so nothing there cleans up."""
    test_dir = lab.scratch()
    g1 = test_dir / "lab.testfile.g1"
    record = test_dir / "lab.testfile.g1.pio-owner"
    second = lab.client_hosts[1]
    two = lab.hosts_arg(2, hosts=lab.client_hosts[:2])
    cmd = harness.command(lab, 4, HANGING, test_dir=test_dir, hosts_arg=two)
    out = kill_ranks_once_open(cmd, tmp_path, g1, lab.holder(second)["net_ns"], node_lost=True,
                               env=lab.env, wait=90)
    assert g1.exists() and record.exists(), out  # the leftovers, seen through another mount
    assert second in record.read_text()
    return test_dir, g1, record


def test_leftover_of_other_client_refused_then_cleaned(uncached, harness, tmp_path):
    lab = uncached
    test_dir, g1, record = crash_on_second_host(lab, harness, tmp_path)
    first = lab.hosts_arg(4, hosts=[lab.client_hosts[0]])  # every rank on the first client
    r = harness(lab, 4, CLEAN, test_dir=test_dir, hosts_arg=first)
    assert r.rc != 0, r.output
    assert "lab.testfile.g1 was left behind by" in r.output, r.output
    assert f"on {lab.client_hosts[1]}" in r.output and "--clean-stale" in r.output
    assert g1.exists() and record.exists()  # refused: nothing removed
    r = harness(lab, 4, CLEAN, test_dir=test_dir, hosts_arg=first, args=["--clean-stale"])
    assert r.rc == 0, r.output
    assert f"removed {g1}, left behind by" in r.output and "(--clean-stale)" in r.output
    assert not record.exists()
    assert {h["host"] for h in r.results["hosts"]} == {lab.client_hosts[0]}


def test_clean_stale_removes_only_what_the_record_proves(uncached, harness, tmp_path):
    lab = uncached
    test_dir, g1, record = crash_on_second_host(lab, harness, tmp_path)
    # The first client looks the old file up, so that its cache of names (GlusterFS's entry
    # timeout, 1 s) may still show it when the run starts there: lstat through that client
    # answers with the old file, unlink removes the new one. The harness proves the file again
    # under a name no client has cached before it removes anything.
    lab.fslab("exec", lab.name, lab.client_hosts[0], "stat", str(g1))
    # Same name, another inode (the old file moved aside, so its inode is not reused).
    g1.rename(test_dir / "moved-aside")
    g1.write_bytes(b"someone else's file")
    first = lab.hosts_arg(4, hosts=[lab.client_hosts[0]])
    r = harness(lab, 4, CLEAN, test_dir=test_dir, hosts_arg=first, args=["--clean-stale"])
    assert r.rc != 0, r.output
    assert "pio-harness removes neither" in r.output, r.output
    assert g1.read_bytes() == b"someone else's file" and record.exists()
    assert not [p.name for p in test_dir.iterdir() if ".pio-removing." in p.name], r.output
