"""The lab's GlusterFS volumes for the tests (tools/pio-fslab, docs/guides/fslab.md): a distributed
volume on 2 emulated servers, once with gluster's default caching on 2 emulated client hosts
(`cached`) and once with its caching translators off and the clients' page cache bypassed on one
client host per rank (`uncached`); each up once per session, on its own network, and down at
the end whatever happened. run.sh decides whether the lab can exist here (ctest reports a
skip)."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import uuid

import pytest

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE.parents[1]
sys.path.insert(0, str(SOURCE / "tests" / "support"))
from cross_host import Run, run_to_end  # noqa: E402
FSLAB = SOURCE / "tools" / "pio-fslab"
# The most ranks a test runs on the uncached volume: it has a client host for each (see uncached).
MAX_RANKS = 4


class Lab:
    """One configuration up in the lab: its mount point, client hosts and a harness runner."""

    def __init__(self, name, directory, tag, subnet, clients=2):
        self.name, self.directory, self.tag, self.subnet = name, directory, tag, subnet
        self.clients = clients
        self.env = dict(os.environ, PIO_FSLAB_DIR=str(directory))

    def fslab(self, *args, check=True, timeout=180):
        p = subprocess.run([str(FSLAB), *args], env=self.env, capture_output=True, text=True,
                           timeout=timeout)
        if check and p.returncode != 0:
            raise AssertionError(f"pio-fslab {' '.join(args)}: exit {p.returncode}\n"
                                 f"{p.stdout}{p.stderr}")
        return p

    def up(self):
        hosts = ["--clients", str(self.clients)] if self.name.startswith("gluster") else []
        return self.fslab("up", self.name, "--net-tag", self.tag, "--subnet", self.subnet,
                          *hosts, check=False)

    def down(self):
        return self.fslab("down", self.name, check=False)

    @property
    def status(self):
        return json.loads(self.fslab("status", self.name, "--json").stdout)[self.name]

    @property
    def mount_point(self):
        return pathlib.Path(self.status["meta"]["info"]["mount_point"])

    @property
    def client_hosts(self):
        return [c["host"] for c in self.status["meta"]["info"]["clients"]]

    def holder(self, host):
        """The ledger entry of an emulated host (pid, net_ns ...)."""
        return next(e for e in self.status["entries"]
                    if e["kind"] == "host" and e["host"] == host)

    def scratch(self):
        """A new directory on the volume (made through this machine's own mount)."""
        d = self.mount_point / f"t-{uuid.uuid4().hex[:8]}"
        d.mkdir()
        return d

    def hosts_arg(self, ranks_per_host, hosts=None):
        info = self.status["meta"]["info"]
        return ",".join(f"{c['address']}:{ranks_per_host}" for c in info["clients"]
                        if hosts is None or c["host"] in hosts)

    def mpiexec(self, n, hosts_arg=None):
        """mpiexec across the client hosts, n ranks in blocks (hydra's launcher hook): one per
        host where there are n hosts or more."""
        info = self.status["meta"]["info"]
        hosts_arg = hosts_arg or self.hosts_arg(-(-n // self.clients))
        return ["mpiexec", "-iface", info["bridge"], "-launcher", "ssh", "-launcher-exec",
                str(FSLAB), "-hosts", hosts_arg, "-n", str(n),
                "-genv", "MPIR_CVAR_POLLS_BEFORE_YIELD", "1", "-genv", "HWLOC_COMPONENTS",
                "-pci"]


class Harness:
    """harness(lab, n, conf_text): pio-harness at n ranks across the lab's client hosts, its
    TestFile in a new directory on the volume; config and results in tmp_path (not on the
    volume). command() builds the mpiexec line alone (for a run the test kills itself);
    run_local() runs on this machine with a TestFile under a given directory."""

    def __init__(self, tmp_path):
        self.tmp_path = tmp_path
        self.results = tmp_path / "results.json"

    def _command(self, mpiexec, test_dir, conf_text, extra_modules=(), args=()):
        conf = self.tmp_path / "run.conf"
        conf.write_text(f"ResultsFile {self.results}\nTestFile {test_dir}/lab.testfile\n"
                        + conf_text)
        cmd = mpiexec + [os.environ["PIO_HARNESS"]]
        for d in [os.environ["PIO_MODULE_DIR"], *extra_modules]:
            cmd += ["-M", d]
        return cmd + ["-c", str(conf), *args]

    def command(self, lab, n, conf_text, test_dir=None, hosts_arg=None, **kw):
        return self._command(lab.mpiexec(n, hosts_arg), test_dir or lab.scratch(), conf_text,
                             **kw)

    def _run(self, cmd, env, timeout):
        if self.results.exists():
            self.results.unlink()
        rc, out = run_to_end(cmd, self.tmp_path, env, timeout)
        doc = json.loads(self.results.read_text()) if self.results.exists() else None
        return Run(rc, out, doc)

    def __call__(self, lab, n, conf_text, timeout=240, **kw):
        return self._run(self.command(lab, n, conf_text, **kw), lab.env, timeout)

    def run_local(self, mpiexec, test_dir, conf_text, timeout=120):
        env = dict(os.environ, MPIR_CVAR_POLLS_BEFORE_YIELD="1", HWLOC_COMPONENTS="-pci")
        return self._run(self._command(mpiexec, test_dir, conf_text), env, timeout)


def _lab(request, name, tag, subnet, clients=2):
    # The volumes' bricks in memory (/dev/shm): taking a volume down removes its bricks, and
    # after the workloads' runs that took 24 s of the disk's time under /tmp (0.1 s here); what
    # the tests assert is GlusterFS's clients and translators, the same on any brick.
    directory = pathlib.Path(tempfile.mkdtemp(prefix="pio-fslab-", dir="/dev/shm"))
    request.addfinalizer(lambda: shutil.rmtree(directory, ignore_errors=True))
    lab = Lab(name, directory, tag, subnet, clients)
    up = lab.up()
    if up.returncode != 0:
        lab.down()
        pytest.fail(f"pio-fslab up {name} failed:\n{up.stdout}{up.stderr}")
    request.addfinalizer(lambda: _down(lab))
    return lab


def _down(lab):
    d = lab.down()
    assert d.returncode == 0, f"pio-fslab down {lab.name}:\n{d.stdout}{d.stderr}"
    assert not (lab.directory / lab.name).exists(), f"pio-fslab down {lab.name} left its directory"


@pytest.fixture(scope="session")
def cached(request):
    """gluster-dist: default caching (write-behind, read-ahead ... and the FUSE page cache)."""
    return _lab(request, "gluster-dist", "fsltc", "10.79.1")


@pytest.fixture(scope="session")
def uncached(request):
    """gluster-dist-nocache: caching translators off, clients with direct-io-mode=enable, a
    client host for each rank. One rank per client host, because GlusterFS 10.3 keeps its
    promise of no page cache only there: a process that opens a file on the client where
    another still holds the file's creating fd gets the kernel page cache, which other clients'
    writes do not reach, and ROMIO's rank 0 holds its create while the other ranks open
    (docs/guides/fslab.md, "What the lab found"; test_coherence.py)."""
    return _lab(request, "gluster-dist-nocache", "fsltu", "10.79.2",
                clients=MAX_RANKS)


@pytest.fixture
def harness(tmp_path):
    return Harness(tmp_path)
