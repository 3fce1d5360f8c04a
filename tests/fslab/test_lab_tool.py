"""pio-fslab itself: every loop configuration up with its options and real direct I/O, the
harness recording it per host, down leaving nothing; up twice refused; an up that fails or is
killed half-way taken down to the last process, link and directory."""
import json
import os
import signal
import subprocess
import time

import pytest

from conftest import FSLAB, Lab

LOOP = {  # configuration: (type, options the mount must show)
    "ext4-ordered": ("ext4", ["data=ordered"]),
    "ext4-journal": ("ext4", ["data=journal"]),
    "xfs": ("xfs", []),
    "xfs-alloc64m": ("xfs", ["allocsize=65536k"]),
    "btrfs": ("btrfs", []),
    "btrfs-nodatacow": ("btrfs", ["nodatacow"]),
}


def mounts():
    with open("/proc/self/mountinfo") as f:
        return [line.split(" - ")[0].split()[4] for line in f]


def loop_devices_of(path):
    p = subprocess.run(["losetup", "-j", str(path), "-O", "NAME", "-n"], capture_output=True,
                       text=True, check=True)
    return p.stdout.split()


def processes_in(net_ns):
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat(f"/proc/{pid}/ns/net").st_ino == net_ns:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                        out.append(int(pid))
        except OSError:
            pass
    return out


def link_exists(name):
    return subprocess.run(["ip", "link", "show", name], capture_output=True).returncode == 0


def assert_all_gone(lab, ledger):
    """Nothing of a ledger is left: processes, namespaces' processes, links, mounts, loop
    devices, images, the configuration's directory."""
    for e in ledger["entries"]:
        if e["kind"] == "host":
            assert processes_in(e["net_ns"]) == [], e
        if e["kind"] == "process":
            assert not os.path.exists(f"/proc/{e['pid']}/exe") or \
                open(f"/proc/{e['pid']}/stat").read().rsplit(")", 1)[1].split()[0] == "Z", e
        if e["kind"] == "link":
            assert not link_exists(e["name"]), e
        if e["kind"] == "mount":
            assert e["path"] not in mounts(), e
        if e["kind"] == "image":
            assert loop_devices_of(e["path"]) == [] and not os.path.exists(e["path"]), e
    assert not (lab.directory / lab.name).exists()


@pytest.mark.parametrize("name", sorted(LOOP))
def test_loop_configuration_up_recorded_and_down(name, tmp_path, harness):
    lab = Lab(name, tmp_path / "lab", "unused", "10.79.9")
    up = lab.up()
    assert up.returncode == 0, up.stdout + up.stderr
    assert f"{name} up in " in up.stdout
    ledger = lab.status
    mnt = str(lab.mount_point)
    (loop,) = [e for e in ledger["entries"] if e["kind"] == "loop"]
    dev = os.path.basename(loop["device"])
    with open(f"/sys/block/{dev}/loop/dio") as f:
        assert f.read().strip() == "1"  # losetup --direct-io=on took
    fs_type, options = LOOP[name]
    # the harness records the configuration on its host
    r = harness.run_local(["mpiexec", "-n", "2"], mnt, """Verify on
<ap_module>
  ModuleName "Simple Strided (write)"
  BufferSizes 64K
  WorkUnits 2
</ap_module>
""")
    assert r.rc == 0, r.output
    assert r.results["file_system"] == fs_type
    (host,) = r.results["hosts"]
    fs = host["file_system"]
    assert (fs["type"], fs["subtype"], fs["mount_point"]) == (fs_type, "", mnt)
    assert fs["source"] == loop["device"]
    assert fs["loop"] == {"backing_file": loop["image"], "direct_io": True}
    assert fs["volume"] is None
    for o in options:
        assert o in fs["super_options"].split(","), fs
    down = lab.down()
    assert down.returncode == 0, down.stdout + down.stderr
    assert f"{name} down in " in down.stdout
    assert_all_gone(lab, ledger)


def test_up_twice_is_refused(tmp_path):
    lab = Lab("xfs", tmp_path / "lab", "unused", "10.79.9")
    assert lab.up().returncode == 0
    again = lab.up()
    assert again.returncode == 3
    assert "xfs is up: ledger" in again.stderr and "pio-fslab down xfs" in again.stderr
    ledger = lab.status
    assert lab.down().returncode == 0
    assert_all_gone(lab, ledger)
    assert lab.down().returncode == 3  # nothing left to take down


def test_failed_up_takes_down_what_it_made(tmp_path):
    lab = Lab("gluster-dist", tmp_path / "lab", "fslte", "10.79.3")
    p = lab.fslab("up", "gluster-dist", "--net-tag", lab.tag, "--subnet", lab.subnet,
                  "--option", "performance.no-such-option=on", check=False)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "up gluster-dist failed" in p.stderr and "performance.no-such-option" in p.stderr
    assert "taking down what was made" in p.stdout and "stopped glusterd on fslte-s1" in p.stdout
    assert "gluster-dist down in" in p.stdout
    assert not (lab.directory / "gluster-dist").exists()
    assert not link_exists("fslte-br") and not link_exists("fslte-s1")


def test_up_killed_half_way_is_refused_then_taken_down(tmp_path):
    lab = Lab("gluster-repl", tmp_path / "lab", "fsltk", "10.79.4")
    state = lab.directory / "gluster-repl" / "state.json"
    p = subprocess.Popen([str(FSLAB), "up", "gluster-repl", "--net-tag", lab.tag, "--subnet",
                          lab.subnet], env=lab.env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:  # until glusterd runs on the servers
        try:
            if sum(e["kind"] == "process" for e in json.loads(state.read_text())["entries"]) >= 2:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    p.send_signal(signal.SIGKILL)
    p.wait()
    ledger = lab.status
    assert ledger["meta"]["state"] == "coming up"
    assert any(e["kind"] == "process" for e in ledger["entries"])
    again = lab.up()
    assert again.returncode == 3
    assert "half made" in again.stderr and "pio-fslab down gluster-repl" in again.stderr
    down = lab.down()
    assert down.returncode == 0, down.stdout + down.stderr
    assert "stopped glusterd on fsltk-s1" in down.stdout
    assert_all_gone(lab, ledger)
