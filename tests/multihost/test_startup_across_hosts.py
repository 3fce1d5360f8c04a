"""The broadcast start-up across 2 emulated hosts (docs/measurements/performance.md, "Start-up"):
only rank 0 opens the config files and the module manifests; every rank, on either host, opens the
module object its config names and the backend object of the block's Interface, nothing else from
the module directory; StageModules copies land on each host and are gone afterwards."""
import os
import re
import shutil

import pytest

STRACE = shutil.which("strace")
NULL_BLOCK = """<ap_module>
  ModuleName null
  WorkUnits 2
</ap_module>
"""


def traced_paths(trace):
    """Every path an open/stat-like call named in one rank's strace output."""
    return re.findall(r'"([^"]*)"', trace.read_text())


@pytest.mark.skipif(STRACE is None, reason="strace is not installed (tools/install-deps.sh)")
def test_only_rank_0_reads_config_and_manifests(harness, tmp_path):
    wrap = tmp_path / "strace-rank.sh"
    # Each rank under strace, its calls naming files written to trace.<rank> (hydra's PMI_RANK).
    wrap.write_text(f"""#!/bin/sh
exec {STRACE} -f -e trace=%file,getdents64 -o {tmp_path}/trace.$PMI_RANK "$@"
""")
    wrap.chmod(0o755)
    (tmp_path / "part.conf").write_text(NULL_BLOCK)
    r = harness("Include part.conf\n", wrapper=[str(wrap)])
    assert r.rc == 0, r.output
    assert r.host_of(0) == "pio-mh1" and r.host_of(2) == "pio-mh2" and r.host_of(3) == "pio-mh2"
    conf_files = {str(tmp_path / "run.conf"), str(tmp_path / "part.conf")}
    module_dir = os.environ["PIO_MODULE_DIR"].rstrip("/")
    named = {"null.so", r.results["modules"][0]["interface"] + "_backend.so"}
    for rank in range(4):
        paths = traced_paths(tmp_path / f"trace.{rank}")
        manifests = [p for p in paths if p.endswith(".pio-manifest")]
        configs = [p for p in paths if p in conf_files]
        objects = {os.path.basename(p) for p in paths
                   if p.startswith(module_dir + "/") and p.endswith(".so")}
        if rank == 0:
            assert manifests and configs, f"rank 0 read no manifest or no config: {paths[:50]}"
        else:
            assert manifests == [], f"rank {rank} read manifests: {manifests[:5]}"
            assert configs == [], f"rank {rank} read the config: {configs}"
            # the objects the config names, nothing else from the module directory: the module
            # and the I/O backend of the block's Interface (mpiio by default)
            assert objects == named, f"rank {rank} touched {sorted(objects)}"


def test_stage_modules_on_each_host(harness, tmp_path):
    stage = tmp_path / "node-local"
    stage.mkdir()
    r = harness(f"StageModules {stage}\n" + NULL_BLOCK)
    assert r.rc == 0, r.output
    assert r.results["modules"][0]["library"].startswith(f"{stage}/pio-modules.")
    assert r.results["modules"][0]["error"] is None
    # Both hosts' first ranks made their own copy directory (shared fs here), both are gone.
    assert list(stage.iterdir()) == []


def test_stage_modules_bad_directory_stops_every_host(harness, tmp_path):
    r = harness(f"StageModules {tmp_path}/absent\n" + NULL_BLOCK)
    assert r.rc == 2, r.output
    assert f"run.conf:3: StageModules {tmp_path}/absent: cannot create a directory" in r.output
