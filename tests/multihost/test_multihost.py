"""pio-harness on 2 emulated hosts x 2 ranks (conftest.py): what changes when ranks sit on
different nodes. Hosts are pio-mh1 (ranks 0, 1) and pio-mh2 (ranks 2, 3), hydra's block
placement for -hosts a:2,b:2."""
import os


def test_hosts_and_placement_recorded(harness, hosts):
    r = harness("""<ap_module>
  ModuleName "Simple Strided (write)"
  BufferSizes 64K
  WorkUnits 4
  Verify on
</ap_module>
""")
    assert r.rc == 0, r.output
    got = {h["host"]: h for h in r.results["hosts"]}
    assert sorted(got) == hosts
    assert got["pio-mh1"]["rank_list"] == [0, 1] and got["pio-mh1"]["ranks"] == 2
    assert got["pio-mh2"]["rank_list"] == [2, 3] and got["pio-mh2"]["ranks"] == 2
    for h in got.values():  # read on the node itself
        assert h["memory_bytes"] == os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        assert h["cpus"] == os.cpu_count()
        assert h["kernel"].startswith("Linux " + os.uname().release)
    assert r.results["processes"] == 4
    assert os.path.isabs(r.results["test_path"]) and r.results["test_path"].endswith("mh.testfile")
    assert os.path.isabs(r.results["working_directory"])


def test_reordered_read_comes_from_the_other_host(harness):
    # IOR -C: with ReorderTasks = ranks per node, every rank reads what a rank of the other
    # node wrote, so no read is served by the reader's own page cache; Verify checks the data.
    r = harness("""<ap_module>
  ModuleName "Simple Strided (read)"
  BufferSizes 64K
  WorkUnits 4
  ReorderTasks 2
  Verify on
</ap_module>
""")
    assert r.rc == 0, r.output
    test = r.results["modules"][0]["tests"][0]
    assert test["error"] is None
    shift = int(test["params"]["reorder_tasks"])
    assert shift == 2
    for rank in range(4):
        assert r.host_of(rank) != r.host_of((rank + shift) % 4)


def test_fault_on_the_second_host_names_host_and_rank(harness):
    r = harness(f"""ModulePath {os.environ["PIO_FAULTS_DIR"]}
<ap_module>
  ModuleName test_faults
  FailIn work_unit
  FailRank 3
  FailTest 1
</ap_module>
<ap_module>
  ModuleName null
</ap_module>
""")
    assert r.rc == 1, r.output
    assert "rank 3 on pio-mh2" in r.output, r.output
    err = r.results["modules"][0]["tests"][1]["error"]
    assert err["rank"] == 3 and err["host"] == "pio-mh2"
    # the run went on: the next block ran on every host
    assert r.results["modules"][1]["error"] is None


def test_crash_on_the_second_host_names_host(harness):
    r = harness(f"""ModulePath {os.environ["PIO_FAULTS_DIR"]}
<ap_module>
  ModuleName test_faults
  FailIn work_unit
  FailRank 3
  FailTest 0
  Segv on
</ap_module>
""")
    assert r.rc != 0, r.output
    assert "rank 3 died of SIGSEGV" in r.output and "on host pio-mh2" in r.output, r.output


def test_node_memory_and_ranks_per_node_detected_per_node(harness):
    # b_eff_io (§5.1): memory per node and processes per node come from each node.
    r = harness("""<ap_module>
  ModuleName beff_io
  Definition paper
  ScheduledTime 3
  PatternTypes 0
</ap_module>
""", timeout=180)
    assert r.rc == 0, r.output
    params = r.results["modules"][0]["tests"][0]["params"]
    assert params["processes_per_node"] == "2"
    node_memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert int(params["memory_per_node"]) == node_memory


def imb_groups(r):
    """Each IMB test's groups (from params.group_ranks: '0 2;1 3') as lists of world ranks."""
    out = []
    for t in r.results["modules"][0]["tests"]:
        assert t["error"] is None, t["error"]
        out.append([[int(x) for x in g.split()] for g in t["params"]["group_ranks"].split(";")])
    return out


def test_imb_multi_groups_by_host(harness):
    # IMB -multi: P / np groups of np consecutive ranks; with hydra's block placement each
    # PingPong pair sits on one host, which the results show through hosts[].rank_list.
    r = harness("""<ap_module>
  ModuleName PingPong
  MsgLengths 0 1K
  Multi 1
  MsgsPerSample 5
</ap_module>
""")
    assert r.rc == 0, r.output
    for groups in imb_groups(r):
        assert groups == [[0, 1], [2, 3]]
        assert [{r.host_of(w) for w in g} for g in groups] == [{"pio-mh1"}, {"pio-mh2"}]


def test_imb_map_pairs_ranks_across_hosts(harness):
    # IMB -map 2x2 (§5.1.2.10) numbers ranks along the rows of a 2 x 2 matrix (ranks per node
    # x nodes): each pair joins a rank of pio-mh1 with its counterpart on pio-mh2, as IMB's
    # -map places them under block placement.
    r = harness("""<ap_module>
  ModuleName PingPong
  MsgLengths 0 1K
  Multi 1
  Map 2x2
  MsgsPerSample 5
</ap_module>
""")
    assert r.rc == 0, r.output
    for groups in imb_groups(r):
        assert groups == [[0, 2], [1, 3]]
        for g in groups:
            assert [r.host_of(w) for w in g] == ["pio-mh1", "pio-mh2"]
    assert all(t["params"]["map"] == "2x2" for t in r.results["modules"][0]["tests"])
