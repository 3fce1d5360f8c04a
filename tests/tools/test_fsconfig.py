"""The file-system configuration pio-compare keys comparability and the trend on
(tools/piotools/fsconfig.py, docs/guides/regression.md "Per file-system configuration"), from the
hosts[].file_system records the harness writes (docs/reference/results.md)."""
import copy

from conftest import make_doc, write_doc
from piotools import fsconfig, history, results

TESTS = {("simple_strided", "S", "64K", "write", 65536): [100.0, 101.0, 99.0, 100.5, 99.5]}


def loop_fs(options, device="/dev/loop3", image="/tmp/pio-fslab/x/image", mnt="/tmp/x/mnt",
            direct_io=True):
    return {"type": "ext4", "subtype": "", "mount_point": mnt, "source": device,
            "mount_options": "rw,relatime", "super_options": "rw," + options,
            "loop": {"backing_file": image, "direct_io": direct_io}, "volume": None}


def client(i, host="10.78.0.1", pid=4242):
    return {"name": f"piovol-client-{i}", "type": "protocol/client",
            "options": {"ping-timeout": "42", "remote-host": host,
                        "remote-subvolume": f"/bricks/b{i}", "volfile-checksum": "0",
                        "process-uuid": f"CTX_ID:abc-PID:{pid}-HOST:fslab-c1"},
            "subvolumes": []}


def gluster_fs(write_behind=True, direct_io=True, pid=4242, ping="42"):
    graph = [client(0, pid=pid), client(1, "10.78.0.2", pid=pid),
             {"name": "piovol-dht", "type": "cluster/distribute",
              "options": {"lock-migration": "off"}, "subvolumes": ["piovol-client-0"]},
             {"name": "piovol-utime", "type": "features/utime", "options": {"noatime": "on"},
              "subvolumes": ["piovol-dht"]}]
    for t in graph:
        if t["type"] == "protocol/client":
            t["options"]["ping-timeout"] = ping
    if write_behind:
        graph.append({"name": "piovol-write-behind", "type": "performance/write-behind",
                      "options": {}, "subvolumes": ["piovol-utime"]})
    cmd = (f"glusterfs --volfile-server=10.78.0.1 --volfile-id=piovol --pid-file=/tmp/{pid}.pid "
           f"--log-file=/tmp/{pid}.log" + (" --direct-io-mode=enable" if direct_io else "")
           + " /tmp/x/mnt")
    return {"type": "fuse", "subtype": "glusterfs", "mount_point": "/tmp/x/mnt",
            "source": "10.78.0.1:piovol", "mount_options": "rw,relatime",
            "super_options": "rw,user_id=0,group_id=0,default_permissions,allow_other",
            "loop": None, "volume": {"graph": graph, "client_command_line": cmd}}


def doc_on(*fs, **kw):
    hosts = [{"host": f"n{i}", "ranks": 1, "rank_list": [i], "file_system": f}
             for i, f in enumerate(fs)]
    return make_doc(TESTS, hosts=hosts, **kw)


def key(*fs):
    return fsconfig.file_system_config(doc_on(*fs))


def test_loop_configuration_names_options_and_direct_io_not_device_or_paths():
    a = key(loop_fs("data=ordered"))
    assert a == "ext4 (rw,relatime,data=ordered) on a loop device with direct I/O"
    # another up of the same configuration: another loop device, image and mount point
    assert key(loop_fs("data=ordered", "/dev/loop7", "/other/image", "/other/mnt")) == a
    assert key(loop_fs("data=journal")) != a
    assert key(loop_fs("data=ordered", direct_io=False)).endswith("through the page cache")


def test_gluster_configuration_names_translators_and_client_options():
    a = key(gluster_fs())
    assert a.startswith("fuse.glusterfs (rw,relatime,user_id=0,")
    assert "volume: 2 bricks distribute(lock-migration=off) utime(noatime=on) write-behind" in a
    assert "client: --volfile-id=piovol --direct-io-mode=enable" in a
    # another mount: other client pid (process-uuid, pid and log files), same configuration;
    # the volume's UUID, which one client's graph may carry and another's not
    assert key(gluster_fs(pid=77)) == a
    with_uuid = gluster_fs()
    with_uuid["volume"]["graph"][0]["options"]["volume-id"] = "331c5b96-0d0e-43d0"
    assert key(with_uuid) == a
    off = key(gluster_fs(write_behind=False))
    assert off != a and "write-behind" not in off
    assert key(gluster_fs(direct_io=False)) != a
    # a brick connection option: not shown, but in the graph's digest
    changed = key(gluster_fs(ping="10"))
    assert changed != a and changed.split(" [graph ")[0] == a.split(" [graph ")[0]


def test_nodes_alike_count_once_and_differing_nodes_are_listed():
    assert key(gluster_fs(), gluster_fs(pid=5)) == key(gluster_fs())
    both = key(gluster_fs(), gluster_fs(direct_io=False))
    assert both.count(" | ") == 1


def test_documents_without_mount_records_keep_their_type():
    assert fsconfig.file_system_config(make_doc(TESTS, file_system="tmpfs")) == "tmpfs"


def test_compare_refuses_another_configuration_unless_allowed(tool, tmp_path, capsys):
    cmp = tool("pio-compare")
    base = [write_doc(tmp_path / f"b{i}.json", doc_on(loop_fs("data=ordered", f"/dev/loop{i}")))
            for i in range(3)]
    same = write_doc(tmp_path / "same.json", doc_on(loop_fs("data=ordered", "/dev/loop9")))
    journal = write_doc(tmp_path / "j.json", doc_on(loop_fs("data=journal")))
    assert cmp.main([*base, same]) == 0
    capsys.readouterr()
    assert cmp.main([*base, journal]) == 3
    out = capsys.readouterr().out
    assert ("not comparable: file_system differs: baseline ext4 (rw,relatime,data=ordered) on a "
            "loop device with direct I/O, candidate ext4 (rw,relatime,data=journal)") in out
    assert cmp.main([*base, journal, "--allow", "file_system"]) == 0


def test_trend_keeps_one_series_per_configuration(tmp_path):
    db = history.open_db(str(tmp_path / "h.sqlite"))
    for day, fs in ((10, "data=ordered"), (11, "data=journal"), (12, "data=ordered")):
        d = doc_on(loop_fs(fs), date=f"2026-11-{day}T00:00:00Z")
        history.append(db, results.load(write_doc(tmp_path / f"{day}.json", d)))
    t = history.trend(db, "S/64K")
    assert len(t) == 2
    ordered = next(v for k, v in t.items() if k.endswith("data=ordered) on a loop device with "
                                                          "direct I/O"))
    assert [r["date"][:10] for r in ordered] == ["2026-11-10", "2026-11-12"]
    # one configuration alone: the test's name as before
    db2 = history.open_db(str(tmp_path / "h2.sqlite"))
    history.append(db2, results.load(write_doc(tmp_path / "one.json",
                                               copy.deepcopy(doc_on(loop_fs("data=ordered"))))))
    assert list(history.trend(db2, "S/64K")) == ["S / 64K [buffer_size=65536 mode=write]"]
