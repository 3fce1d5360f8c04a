"""compare_imb.py: IMB's text tables (IMB-MPI1, IMB-EXT, IMB-IO, -multi 1) and pio's JSON keyed
alike, on short real runs recorded on this machine (data/imb-*.txt from IMB 2021, data/pio-*.json
from pio-harness with the same benchmarks and lengths), and the ratio table on known values."""
import io
import json

import pytest

from conftest import data, write_doc
import compare_imb


def test_mpi1_rows_and_statistics():
    imb = compare_imb.parse_imb(data("imb-mpi1.txt"))
    assert set(imb) == {(b, "", 2, x) for b in ("pingpong", "sendrecv", "allreduce")
                        for x in (0, 1024, 65536)} | {("barrier", "", 2, 0)}
    # A single transfer's one t[usec] is IMB's t_max; the others report t_avg.
    assert imb[("pingpong", "", 2, 1024)]["stat"] == "t_max"
    assert imb[("pingpong", "", 2, 1024)]["t"] == 6719.76
    assert imb[("sendrecv", "", 2, 65536)]["stat"] == "t_avg"
    assert imb[("sendrecv", "", 2, 65536)]["t"] == 13430.71
    assert imb[("barrier", "", 2, 0)]["reps"] == 100


def test_ext_modes_key_the_rows():
    imb = compare_imb.parse_imb(data("imb-ext.txt"))
    assert imb[("unidir_put", "aggregate", 2, 65536)]["t"] == 60.80
    assert imb[("unidir_put", "aggregate", 2, 65536)]["reps"] == 640
    assert imb[("unidir_put", "non-aggregate", 2, 65536)]["t"] == 9.39
    assert imb[("accumulate", "non-aggregate", 2, 1024)]["t"] == 5.49
    assert imb[("window", "", 2, 1024)]["t"] == 14.51  # Window has no mode
    assert len(imb) == 3 * 2 * 3 + 3


def test_io_overlap_single_and_sync_tables():
    imb = compare_imb.parse_imb(data("imb-io.txt"))
    # IMB-IO capitalises the positioning: S_Write_Indv is the guide's S_Write_indv.
    s = imb[("s_write_indv", "non-aggregate", 1, 1024)]
    assert (s["name"], s["stat"], s["t"]) == ("S_Write_Indv", "t_max", 5879.64)
    ovrl = imb[("c_iwrite_expl", "aggregate", 2, 1024)]
    assert (ovrl["stat"], ovrl["t"], ovrl["t_pure"], ovrl["overlap"]) == \
        ("t_ovrl", 33315.47, 15087.29, 22.82)
    assert imb[("open_close", "", 2, 0)]["t"] == 503.02
    assert imb[("p_read_shared", "aggregate", 2, 65536)]["t"] == 30.53


def test_multi1_keeps_the_slowest_group():
    imb = compare_imb.parse_imb(data("imb-multi1.txt"))
    # Group 1 took 1867.97 µs at 0 bytes, group 0 0.76.
    assert imb[("multi-pingpong", "", 2, 0)]["t"] == 1867.97
    assert imb[("multi-pingpong", "", 2, 1024)]["t"] == 0.93
    assert imb[("multi-sendrecv", "", 2, 0)]["t"] == 103.67
    assert imb[("sendrecv", "", 4, 1024)]["t"] == 6682.37


@pytest.mark.parametrize("suite", ["mpi1", "ext", "io", "multi1"])
def test_pio_results_key_like_imb(suite):
    imb = compare_imb.parse_imb(data(f"imb-{suite}.txt"))
    pio = compare_imb.parse_pio(data(f"pio-{suite}.json"))
    # The recorded runs ran the same benchmarks, modes, process counts and lengths.
    assert set(imb) <= set(pio)
    rows, big = compare_imb.compare([imb], [pio], 65536)
    assert len(rows) == len(imb)
    assert all(r["ratio"] is not None or r["key"][3] == 0 for r in rows)


def test_pio_statistics_follow_imb():
    pio = compare_imb.parse_pio(data("pio-io.json"))
    row = pio[("c_iwrite_expl", "aggregate", 2, 1024)]
    assert compare_imb.pio_time(row, "t_ovrl") == row["t_max"]
    assert compare_imb.pio_time(row, "t_avg") == row["t_avg"]
    assert pio[("s_write_indv", "aggregate", 1, 1024)]["reps"] == 50
    multi = compare_imb.parse_pio(data("pio-multi1.json"))
    assert ("multi-pingpong", "", 2, 1024) in multi
    assert ("sendrecv", "", 4, 1024) in multi


def imb_text(t_avg):
    return ("# Benchmarking Accumulate\n# #processes = 2\n#----\n#\n#    MODE: AGGREGATE\n#\n"
            "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
            f"        65536          640         1.00         3.00 {t_avg:12.2f}\n\n"
            "# All processes entering MPI_Finalize\n")


def pio_doc(t_avg, reps=640):
    test = {"procs": 2, "groups": 1, "error": None,
            "params": {"benchmark": "Accumulate", "mode": "aggregate", "np": "2"},
            "comm": {"message_bytes": 65536, "ops_per_unit": reps},
            "summary": {"op": {"t_min_us": 1.0, "t_avg_us": t_avg, "t_max_us": 3.0}}}
    return {"modules": [{"tests": [test]}]}


def test_ratio_table_median_over_rounds(tmp_path):
    imb, pio = [], []
    for i, (ti, tp) in enumerate([(2.0, 2.0), (2.0, 3.0), (4.0, 2.0)]):
        p = tmp_path / f"imb.{i}.txt"
        p.write_text(imb_text(ti))
        imb.append(str(p))
        pio.append(write_doc(tmp_path / f"pio.{i}.json", pio_doc(tp, 640 if i else 50)))
    rows, big = compare_imb.compare([compare_imb.parse_imb(p) for p in imb],
                                    [compare_imb.parse_pio(p) for p in pio], 65536)
    assert len(rows) == 1
    r = rows[0]
    assert r["ratios"] == [1.0, 1.5, 0.5]
    assert (r["ratio"], r["imb"], r["pio"]) == (1.0, 2.0, 2.0)
    assert r["reps_differ"]
    assert big == [1.0]
    out = io.StringIO()
    compare_imb.print_table(rows, big, 65536, out)
    text = out.getvalue()
    assert "Accumulate            aggregate        2     65536    avg" in text
    assert "#repetitions differ" in text
    assert "median ratio over 1 rows with >= 65536 bytes: 1.00 (min 1.00, max 1.00)" in text


def test_main_needs_one_pio_result_per_imb_output(tmp_path):
    p = tmp_path / "imb.txt"
    p.write_text(imb_text(2.0))
    with pytest.raises(SystemExit) as e:
        compare_imb.main(["--imb", str(p), str(p), "--pio", data("pio-ext.json")])
    assert "2 IMB outputs but 1 pio results" in str(e.value)


def test_main_prints_the_table(capsys):
    assert compare_imb.main(["--imb", data("imb-ext.txt"), "--pio", data("pio-ext.json"),
                             "--min-bytes", "65536"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:5] == ["benchmark", "mode", "np", "bytes", "t"]
    assert "Unidir_Put            non-aggregate    2     65536    max        9.39" in out
    assert "median ratio over 7 rows with >= 65536 bytes" in out
