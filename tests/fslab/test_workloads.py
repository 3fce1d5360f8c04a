"""The workloads on a real shared file system: a GlusterFS volume (caching off, so every client
sees every other's writes) mounted on 4 emulated client hosts, one rank on each, so that each
shared file is written and read through as many different mounts as there are ranks (one rank
per client: conftest.py's uncached says why). Each run's results name the volume as the file
system of every host."""
import os
import subprocess

import pytest

from conftest import HERE, SOURCE

# The thesis patterns at 2 and 4 ranks: their layouts change at 4 (the 2x2 tile grid, FLASH's
# 2 + r mod 3 blocks, the mesh's short last share), each rank's strips written and read back
# through a mount of its own. b_eff_io, metadata and the IO500 run assert that they run on the
# volume and what they record, which 2 ranks on 2 mounts show as well as 4: at 2 only (4 ranks
# on CI's 2 cores cost them 45 s of the lab's 170).
RANKS = [2, 4]


def check_file_system(r, lab, n):
    """Every rank ran on a client host of its own, on the volume: FUSE/glusterfs, the graph its
    servers handed out."""
    assert r.results["file_system"] == "fuse.glusterfs"
    assert sorted(r.host_of(k) for k in range(n)) == lab.client_hosts[:n]
    assert sorted(h["host"] for h in r.results["hosts"]) == lab.client_hosts[:n]
    for h in r.results["hosts"]:
        fs = h["file_system"]
        assert (fs["type"], fs["subtype"]) == ("fuse", "glusterfs"), fs
        assert fs["mount_point"] == str(lab.mount_point)
        assert fs["source"].endswith(":piovol")
        types = [t["type"] for t in fs["volume"]["graph"]]
        assert "cluster/distribute" in types and types.count("protocol/client") == 2
        # the uncached volume: no write-behind, the client bypassing the page cache
        assert "performance/write-behind" not in types
        assert "--direct-io-mode=enable" in fs["volume"]["client_command_line"]


def failed(r):
    """Blocks or tests with an error, as text for an assertion message."""
    out = []
    for b in r.results["modules"]:
        if b.get("error"):
            out.append(f"{b['label']}: {b['error']}")
        out += [f"{b['label']}/{t['label']}: {t['error']}" for t in b["tests"] if t.get("error")]
    return out


@pytest.mark.parametrize("n", RANKS)
def test_thesis_patterns_five_modes_verified(uncached, harness, n):
    conf = (HERE / "patterns.conf").read_text()
    r = harness(uncached, n, conf)
    assert r.rc == 0, r.output
    assert not failed(r), failed(r)
    blocks = r.results["modules"]
    assert len(blocks) == 40 and all(b["verify"] == "on" for b in blocks)
    modes = {}
    for b in blocks:
        modes.setdefault(b["module"], set()).add(b["tests"][0]["params"]["mode"])
    assert len(modes) == 8
    assert all(m == {"write", "read", "read-modify-write", "re-read", "re-write"}
               for m in modes.values()), modes
    check_file_system(r, uncached, n)


@pytest.mark.parametrize("n", [2])
def test_beff_io_and_metadata(uncached, harness, n):
    r = harness(uncached, n, """<ap_module>
  ModuleName    beff_io
  ScheduledTime 2
  Patterns      3 5 11 13 19 21 27 29 36 38
  MPart         1M
</ap_module>
<ap_module>
  ModuleName metadata
  Mode       both
  Items      40
  FileSize   64
  Phases     easy-create hard-create find easy-stat hard-stat easy-read hard-read easy-remove hard-remove
  Verify     on
</ap_module>
""")
    assert r.rc == 0, r.output
    assert not failed(r), failed(r)
    beff_io, md = r.results["modules"]
    assert beff_io["figure"]["values"][0]["name"] == "b_eff_io"
    assert beff_io["figure"]["values"][0]["value"] > 0
    phases = [t["params"]["phase"] for t in md["tests"]]
    assert {"create", "stat", "read", "find", "remove"} <= set(phases), phases
    check_file_system(r, uncached, n)


@pytest.mark.parametrize("n", [2])
def test_io500_short(uncached, tmp_path, n):
    """tests/conf/io500's short IO500 run, its scratch directory on the volume and its ranks
    across the client hosts (the script's MPIEXEC is this lab's mpiexec line)."""
    wrapper = tmp_path / "mpiexec"
    # the script calls `$MPIEXEC -n 2 ...`; the wrapper drops that -n for the lab's n ranks
    wrapper.write_text("#!/bin/sh\nshift 2\nexec " + " ".join(uncached.mpiexec(n)) + ' "$@"\n')
    wrapper.chmod(0o755)
    scratch = uncached.scratch()
    p = subprocess.run([str(SOURCE / "tests/conf/io500/io500_short_test.sh"), str(wrapper),
                        os.environ["PIO_HARNESS"], os.environ["PIO_MODULE_DIR"], str(SOURCE)],
                       env=dict(uncached.env, TMPDIR=str(scratch)), capture_output=True,
                       text=True, timeout=400)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "[SCORE ]" in p.stdout
    assert list(scratch.iterdir()) == []  # the script's own directory removed, nothing left
