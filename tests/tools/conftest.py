"""Shared fixtures of the tools' tests: the tools loaded as modules (fast, in-process), the
recorded results under data/, and synthetic results documents with known answers."""
import copy
import importlib.machinery
import importlib.util
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.normpath(os.path.join(HERE, "..", "..", "tools"))
DEV = os.path.join(TOOLS, "dev")  # the developer benches and campaigns
DATA = os.path.join(HERE, "data")
sys.path.insert(0, TOOLS)
sys.path.insert(1, DEV)


def load_tool(name):
    """Imports tools/<name> (a script without .py, or dev/<script>) as a module."""
    path = os.path.join(TOOLS, name)
    loader = importlib.machinery.SourceFileLoader(
        os.path.basename(name).replace("-", "_").replace(".", "_"), path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


@pytest.fixture(scope="session")
def tool():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = load_tool(name)
        return cache[name]

    return get


def data(name):
    """Path of a recorded file under data/."""
    return os.path.join(DATA, name)


def make_doc(tests, processes=2, file_system="ext4", date="2026-11-23T00:00:00Z", **extra):
    """A minimal schema-2 results document. `tests` maps (module, block label, test label,
    mode, buffer size) to a list of bandwidths (one per repetition)."""
    blocks = {}
    for (module, label, test, mode, size), bws in tests.items():
        b = blocks.setdefault((module, label), {
            "module": module, "module_name": module, "label": label, "config": "x.conf:1",
            "output": "table", "reps": len(bws), "settings": {"Mode": [mode]},
            "collective": False, "file_view": True, "verify": "off", "sync_writes": False,
            "error": None, "figure": None, "tests": []})
        b["tests"].append({
            "index": len(b["tests"]), "label": test, "buffer_size": size, "header_offset": 0,
            "file_use": "shared", "procs": processes, "groups": 1, "file": "/t", "comm": None,
            "params": {"mode": mode, "buffer_size": str(size)}, "hints_requested": {},
            "hints_in_effect": {}, "error": None,
            "reps": [{"rep": i, "units": 4, "bytes": size * 4,
                      "aggregate_time_s": size * 4 / bw / 2**20,
                      "bandwidth_MiBps": bw, "open_time_s": 0.001, "close_time_s": 0.001,
                      "rank_time_s": {"min": 0.1, "max": 0.2, "mean": 0.15}, "op": None}
                     for i, bw in enumerate(bws)]})
    doc = {"schema_version": 3, "tool": "pio-bench", "tool_version": "0.4.0",
           "module_api_version": 2, "date": date, "mpi_library": "MPICH Version: 4.0.2",
           "processes": processes, "file_system": file_system, "config_path": "x.conf",
           "status": "complete", "exit_code": 0, "modules": list(blocks.values())}
    doc.update(extra)
    return doc


def write_doc(path, doc):
    """Writes a document and returns its path as a string."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return str(path)


def scaled(doc, factor, only=None):
    """A copy of `doc` with the bandwidths of tests labelled `only` (or all) times `factor`."""
    d = copy.deepcopy(doc)
    for b in d["modules"]:
        for t in b["tests"]:
            if only is None or t["label"] == only:
                for r in t["reps"]:
                    r["bandwidth_MiBps"] *= factor
    return d


def with_flag_keys(doc):
    """`doc` with the "flags" key on every test and repetition, empty (a clean run as the harness
    writes it since typed flags; docs/reference/results.md), for a test to set some by hand."""
    for b in doc["modules"]:
        for t in b["tests"]:
            t["flags"] = []
            for r in t.get("reps") or []:
                r["flags"] = []
    return doc
