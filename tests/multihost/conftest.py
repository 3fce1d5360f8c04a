"""Emulated hosts for the multihost tests: network + UTS namespaces on this machine
(emulated_hosts.sh), the harness started into them by hydra's launcher hook. run.sh decides
whether they can exist here (root, CAP_NET_ADMIN) and makes ctest report a skip otherwise."""
import json
import os
import pathlib
import subprocess

import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
from cross_host import Run, run_to_end  # noqa: E402
HOSTS_SCRIPT = HERE / "emulated_hosts.sh"
HOSTS = 2
RANKS_PER_HOST = 2


@pytest.fixture(scope="session")
def hosts():
    up = subprocess.run([str(HOSTS_SCRIPT), "up", str(HOSTS)], capture_output=True, text=True)
    if up.returncode != 0:
        # run.sh's probe passed but a bridge or veth pair cannot be made here: a skip for ctest
        # (SKIP_RETURN_CODE 77) with the reason, never a pass.
        subprocess.run([str(HOSTS_SCRIPT), "down", str(HOSTS)], check=False)
        print("SKIPPED: emulated hosts unavailable: " + up.stderr, flush=True)
        os._exit(77)
    try:
        yield [f"pio-mh{i}" for i in range(1, HOSTS + 1)]
    finally:
        subprocess.run([str(HOSTS_SCRIPT), "down", str(HOSTS)], check=False)


class Harness:
    """harness(conf_text, timeout=120): pio-harness at HOSTS x RANKS_PER_HOST ranks.
    command() builds the mpiexec line alone (for a run the test starts and kills itself)."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.results = tmp_path / "results.json"

    def command(self, conf_text, extra_modules=(), hosts_arg=None, wrapper=(), args=()):
        conf = self.tmp_path / "run.conf"
        conf.write_text(f"ResultsFile {self.results}\nTestFile {self.tmp_path}/mh.testfile\n" +
                        conf_text)
        if hosts_arg is None:
            hosts_arg = subprocess.run([str(HOSTS_SCRIPT), "hosts", str(HOSTS),
                                        str(RANKS_PER_HOST)], check=True, capture_output=True,
                                       text=True).stdout.strip()
        module_dirs = [os.environ["PIO_MODULE_DIR"], *extra_modules]
        cmd = ["mpiexec", "-iface", "pio-mhbr", "-launcher", "ssh", "-launcher-exec",
               str(HOSTS_SCRIPT), "-hosts", hosts_arg, "-n", str(HOSTS * RANKS_PER_HOST),
               "-genv", "MPIR_CVAR_POLLS_BEFORE_YIELD", "1", "-genv", "HWLOC_COMPONENTS", "-pci",
               *wrapper, os.environ["PIO_HARNESS"]]
        for d in module_dirs:
            cmd += ["-M", d]
        return cmd + ["-c", str(conf), *args]

    def __call__(self, conf_text, timeout=120, **kw):
        if self.results.exists():
            self.results.unlink()
        rc, out = run_to_end(self.command(conf_text, **kw), self.tmp_path, timeout=timeout)
        doc = json.loads(self.results.read_text()) if self.results.exists() else None
        return Run(rc, out, doc)


@pytest.fixture
def harness(hosts, tmp_path):
    return Harness(tmp_path)
