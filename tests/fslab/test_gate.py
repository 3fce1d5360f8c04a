"""The regression gate on real file-system configurations (docs/guides/regression.md): runs on two
ups of the same configuration are comparable (another loop device, the same configuration); a run
on ext4 data=journal against data=ordered is not comparable, named by its mount options, unless
--allow file_system."""
import subprocess

from conftest import SOURCE, Lab

WRITES = """<ap_module>
  ModuleName  "Simple Strided (write)"
  ModuleReps  5
  BufferSizes 64K
  WorkUnits   16
</ap_module>
"""


# Compared (docs/guides/regression.md, "Exit statuses"): a verdict (0, 1), inconclusive when 2
# baseline runs cannot show 5 % (5), or flagged (6): this machine's load (heavy_load, wide_spread
# ...) refuses a verdict on a test, but the runs were compared.
COMPARED = (0, 1, 5, 6)


def run_on(name, tmp_path, harness, out):
    lab = Lab(name, tmp_path / "lab", "unused", "10.79.9")
    up = lab.up()
    assert up.returncode == 0, up.stdout + up.stderr
    try:
        r = harness.run_local(["mpiexec", "-n", "2"], lab.mount_point, WRITES)
        assert r.rc == 0, r.output
        harness.results.rename(out)
    finally:
        assert lab.down().returncode == 0
    return out


def compare(*args):
    p = subprocess.run(["/usr/bin/python3", str(SOURCE / "tools/pio-compare"), *map(str, args)],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def test_a_changed_mount_option_is_not_comparable(tmp_path, harness):
    base = [run_on("ext4-ordered", tmp_path, harness, tmp_path / f"a{i}.json") for i in (1, 2)]
    same = run_on("ext4-ordered", tmp_path, harness, tmp_path / "a3.json")
    journal = run_on("ext4-journal", tmp_path, harness, tmp_path / "j.json")
    rc, out = compare(*base, same)
    assert rc in COMPARED, out
    assert "not comparable" not in out, out
    rc, out = compare(*base, journal)
    assert rc == 3, out
    (line,) = [x for x in out.splitlines() if x.startswith("not comparable: file_system differs")]
    assert "baseline ext4 (rw,relatime,data=ordered) on a loop device with direct I/O" in line
    assert "candidate ext4 (" in line and "data=journal" in line.split("candidate")[1]
    rc, out = compare(*base, journal, "--allow", "file_system")
    assert rc in COMPARED, out
    assert "not comparable" not in out
