"""pio-plot layout: pictures of a pattern module's LayoutTrace (data/layout-small.jsonl is a
recorded trace of simple_strided (a Collective on/off sweep: the same layout twice) and tiled at
2 ranks, 2 units, 2 extents per rank and unit)."""
import json

import pytest

from conftest import data
from piotools import layout


def extents_per_rank(path):
    """Non-empty extents per (test line number, rank), counted straight from the file."""
    out, test = {}, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            rec = json.loads(line)
            if "test" in rec:
                test = n
            elif "rank" in rec:
                key = (test, rec["rank"])
                out[key] = out.get(key, 0) + sum(1 for _, length in rec["extents"] if length)
    return out


def test_layout_writes_png_and_svg_per_distinct_test(tool, tmp_path, capsys):
    out = tmp_path / "pics"
    assert tool("pio-plot").main(["layout", data("layout-small.jsonl"), "-o", str(out)]) == 0
    written = capsys.readouterr().out.split()
    # The Collective sweep traced simple_strided's layout twice: one picture of it.
    assert sorted(p.rsplit("/", 1)[1] for p in written) == [
        "layout-simple_strided-2K.png", "layout-simple_strided-2K.svg",
        "layout-tiled-2x2.png", "layout-tiled-2x2.svg"]
    for p in written:
        with open(p, "rb") as f:
            body = f.read()
        assert len(body) > 1000
        assert body.startswith(b"\x89PNG") if p.endswith(".png") else b"<svg" in body


def test_layout_draws_one_rectangle_per_extent_in_its_rank(tool):
    tests = layout.load(data("layout-small.jsonl"))
    assert [(t["module"], t["collective"]) for t in tests] == [("simple_strided", True),
                                                               ("tiled", False)]
    counted = extents_per_rank(data("layout-small.jsonl"))
    for line, t in zip((1, 11), tests):  # test lines of the first and the third traced test
        fig, counts = tool("pio-plot").layout_figure(t, None)
        drawn = {}
        for patch in fig.axes[0].patches:
            if hasattr(patch, "pio_rank"):
                drawn[patch.pio_rank] = drawn.get(patch.pio_rank, 0) + 1
        assert drawn == counts == {0: 4, 1: 4}
        assert drawn == {r: counted[(line, r)] for r in (0, 1)}
        # Rank 1's first extent in unit 0 of simple_strided: 1040, 1024 bytes (thesis Fig. 3.5).
        if t["module"] == "simple_strided":
            r1 = [p for p in fig.axes[0].patches if getattr(p, "pio_rank", None) == 1]
            assert (r1[0].get_x(), r1[0].get_width()) == (1040, 1024)


def test_layout_max_units_limits_the_rows(tool):
    t = layout.load(data("layout-small.jsonl"))[0]
    _, counts = tool("pio-plot").layout_figure(t, 1)
    assert counts == {0: 2, 1: 2}


def test_layout_rejects_a_results_file(tool, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        tool("pio-plot").main(["layout", data("small.json"), "-o", str(tmp_path)])
    assert e.value.code == 2
    assert "not a layout trace" in capsys.readouterr().err


def test_layout_title_names_the_file_the_harness_wrote():
    # The trace's "file" is the harness's FileUse text (include/pio/spec.hpp), the results' too.
    test = {"module": "sequential", "label": "4K", "rep": 0, "ranks": 2, "units": 1,
            "mode": "write", "file": "file-per-process"}
    assert "each rank's own file" in layout.title(test)
    test["file"] = "shared"
    assert "one shared file" in layout.title(test)


def test_layout_wrapped_2d_view_shows_the_tiles():
    """data/layout-tiled-64x64.jsonl: tiled 64x64 tiles of 8-byte elements, 2x2 tiles of a
    128x128 dataset at 4 ranks: wrapped at the dataset's 1 KiB row, each rank owns one
    quadrant (thesis Fig. 3.10)."""
    t = layout.load(data("layout-tiled-64x64.jsonl"))[0]
    assert layout.auto_wrap(t) == 128 * 8
    grid, cell, first = layout.owner_grid(t, 1024)
    assert (cell, first, grid.shape) == (4, 0, (128, 256))
    assert (grid[:64, :128] == 0).all() and (grid[:64, 128:] == 1).all()
    assert (grid[64:, :128] == 2).all() and (grid[64:, 128:] == 3).all()


def test_layout_range_zooms_on_file_offsets(tool, tmp_path, capsys):
    t = layout.load(data("layout-tiled-64x64.jsonl"))[0]
    fig, counts = tool("pio-plot").layout_figure(t, None, (0, 8192))
    rects = [p for p in fig.axes[0].patches if hasattr(p, "pio_rank")]
    # The first 8 rows of the dataset: a 512-byte piece of rank 0 and of rank 1 in each.
    assert counts == {0: 8, 1: 8, 2: 0, 3: 0}
    assert all(0 <= r.get_x() and r.get_x() + r.get_width() <= 8192 for r in rects)
    assert fig.axes[0].get_xlim() == (0, 8192)
    grid, _, first = layout.owner_grid(t, 1024, zoom=(65536, 65536 + 2048))
    assert first == 65536 and grid.shape[0] == 2 and set(grid.ravel()) == {2, 3}
    out = tmp_path / "z"
    assert tool("pio-plot").main(["layout", data("layout-tiled-64x64.jsonl"), "--wrap",
                                  "--range", "0:64K", "-o", str(out)]) == 0
    assert sorted(p.rsplit("/", 1)[1] for p in capsys.readouterr().out.split()) == [
        "layout-tiled-64x64-2d.png", "layout-tiled-64x64-2d.svg"]


def test_layout_draws_a_replayed_trace(tool):
    # data/layout-replay.jsonl: docs/examples/replay/checkpoint.dxt (4 traced ranks) replayed on
    # 2 (TraceRanks modulo): its first 3 writes per rank, then the header all 4 ranks read, which
    # rank 0 prepares for both (rank 1's reads hatched as rank 0's data).
    tests = layout.load(data("layout-replay.jsonl"))
    assert [(t["module"], t["mode"], t["units"]) for t in tests] == [("replay", "write", 3),
                                                                     ("replay", "read", 2)]
    for t, per_rank in zip(tests, (3, 2)):
        fig, counts = tool("pio-plot").layout_figure(t, None)
        assert counts == {0: per_rank, 1: per_rank}
        hatched = {p.pio_rank for p in fig.axes[0].patches
                   if hasattr(p, "pio_rank") and p.get_hatch()}
        assert hatched == (set() if t["mode"] == "write" else {1})
    # Rank 0 replays trace ranks 0 and 2 by start time: 0's first write, then 2's.
    rows = [r for r in tests[0]["rows"] if r[0] == 0]
    assert [r[2] for r in rows[:2]] == [[(4096, 262144)], [(4096 + 2 * 262144, 262144)]]
