"""Shared fixtures of pio-tune's tests: the tools as modules, the build's harness and test
module, and simulated runs (results documents with a known answer, made without the harness)."""
import math
import os
import pathlib
import random
import shutil
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.normpath(os.path.join(HERE, "..", "..", "tools"))
sys.path.insert(0, TOOLS)

from piotools import tune_space  # noqa: E402


def harness():
    """The build's pio-harness (PIO_HARNESS, set by ctest), or skip."""
    path = os.environ.get("PIO_HARNESS")
    if not path or not os.path.exists(path):
        pytest.skip("PIO_HARNESS is not set (run through ctest -R tools.tune)")
    return path


def sim_doc(per_test, reps, rng, sigma, label="sim", path="sim.json"):
    """A results document of one block whose tests' bandwidths are lognormal around the given
    medians: per_test {test label: median MiB/s}."""
    tests = []
    for i, (name, median) in enumerate(per_test.items()):
        tests.append({"index": i, "label": name, "buffer_size": 1 << 20, "procs": 2,
                      "file_use": "shared", "params": {"buffer_size": str(1 << 20)},
                      "hints_requested": {}, "hints_in_effect": {}, "error": None,
                      "reps": [{"rep": r, "bandwidth_MiBps": median * math.exp(
                          rng.gauss(0, sigma))} for r in range(reps)]})
    return {"schema_version": 3, "tool": "pio-bench", "processes": 2, "file_system": "tmpfs",
            "mpi_library": "MPICH Version: 4.0.2", "status": "complete", "exit_code": 0,
            "_path": path, "modules": [{"module": "sim", "label": label, "config": "sim.conf:1",
                                        "settings": {}, "collective": False, "file_view": True,
                                        "tests": tests, "error": None}]}


class SimRun:
    """What the search and the confirmation read of a run (tune_runner.Run's fields)."""

    def __init__(self, doc, name):
        self.doc, self.path, self.log = doc, name + ".json", name + ".log"
        self.error, self.hooks, self.seconds, self.stopped, self.exit_code = "", [], 0.01, False, 0
        self.timed_out = False

    @property
    def ok(self):
        return self.doc is not None and not self.error

    def record(self):
        return {"results": self.path, "log": self.log, "exit_code": 0, "error": self.error,
                "hooks": [], "seconds": self.seconds, "stopped": False}


class SimRunner:
    """Runs nothing: each run's document has bandwidths median(values) x lognormal noise."""

    def __init__(self, median, seed, sigma=0.1, reps=5):
        self.median, self.rng, self.sigma, self.reps = median, random.Random(seed), sigma, reps
        self.calls = []

    def run(self, values, name, trial=0, watch=None, timeout_s=None):
        self.calls.append((name, dict(values)))
        return SimRun(sim_doc({"t": self.median(values)}, self.reps, self.rng, self.sigma,
                              path=name + ".json"), name)


def space_of(params):
    """A Space as the harness would print it, from {name: [values]} (global choices)."""
    return tune_space.Space({"config": "sim.conf", "params": [
        {"name": n, "target": "harness", "kind": "choice", "type": "text", "values": v,
         "global": True, "uses": [{"block": "sim", "declared": "sim.conf:1", "default": v[0]}]}
        for n, v in params.items()], "hooks": [], "blocks": [{"label": "sim"}]})


@pytest.fixture
def workdir():
    """A scratch directory in memory (/dev/shm): the studies' SQLite commits wait for no disk."""
    path = pathlib.Path(tempfile.mkdtemp(prefix="pio-tune-test-", dir="/dev/shm"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
