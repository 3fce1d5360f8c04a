"""What the uncached volume (gluster-dist-nocache) keeps of its promise that every client sees
every other's writes, and where GlusterFS 10.3 breaks it (docs/guides/fslab.md, "What the lab
found"). Its FUSE client ignores direct-io-mode=enable for a file opened on a client while another
process there still holds the file's creating fd (fuse_create_cbk never records the direct-io
bit in that fd's context, and fuse_fd_inherit_directio copies the bit from an fd already open),
so the opener reads through the kernel page cache, which other clients' writes do not reach.
ROMIO's MPI_File_open does exactly that: rank 0 creates the file and broadcasts before it closes
it, and the ranks beside it open meanwhile. Hence the other tests run one rank per client host.
Each process here is tests/fslab/fuse_probe.py on an emulated host."""
import select
import subprocess
import uuid

from conftest import FSLAB, HERE

PROBE = HERE / "fuse_probe.py"


class Probe:
    """fuse_probe.py on one host of the lab: ask() sends a command and returns the answer."""

    def __init__(self, lab, host, *args):
        self.host = host
        self.p = subprocess.Popen([str(FSLAB), "exec", lab.name, host, "/usr/bin/python3",
                                   str(PROBE), *args], env=lab.env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self._answer() == "ready"

    def _answer(self, timeout=30):
        ready, _, _ = select.select([self.p.stdout], [], [], timeout)
        line = self.p.stdout.readline() if ready else ""
        if not line:
            self.end()
            raise AssertionError(f"fuse_probe.py on {self.host} gave no answer in {timeout} s "
                                 f"(exit {self.p.returncode})")
        return line.strip()

    def ask(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()
        return self._answer()

    def end(self):
        """Closes its stdin (the probe closes its fd and exits) and waits for it."""
        if self.p.stdin and not self.p.stdin.closed:
            self.p.stdin.close()
        try:
            self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def test_an_open_beside_the_creating_fd_reads_the_page_cache(uncached):
    lab = uncached
    first, second, third = lab.client_hosts[:3]
    path = str(lab.scratch() / f"probe-{uuid.uuid4().hex[:8]}")
    probes = []
    try:
        creator = Probe(lab, first, "create", path, "11")
        probes.append(creator)
        beside = Probe(lab, first, "open", path)  # on the creator's client, its fd still open
        probes.append(beside)
        elsewhere = Probe(lab, second, "open", path)
        probes.append(elsewhere)
        assert [p.ask("read") for p in probes] == ["11", "11", "11"]
        assert elsewhere.ask("write 22") == "written"
        # The finding: the open beside the creating fd got the page cache and keeps its stale
        # bytes; the creating fd itself and the other client's fd read the volume.
        assert beside.ask("read") == "11"
        assert creator.ask("read") == "22" and elsewhere.ask("read") == "22"
    finally:
        for p in probes:
            p.end()
    # Once no fd of the file is open there, an open on that client reads the volume again: one
    # process per client host (the other tests' placement) never meets the stale cache.
    try:
        again = Probe(lab, first, "open", path)
        probes = [again]
        writer = Probe(lab, third, "open", path)
        probes.append(writer)
        assert again.ask("read") == "22"
        assert writer.ask("write 33") == "written"
        assert again.ask("read") == "33"
    finally:
        for p in probes:
            p.end()


def test_mpiexec_warns_when_ranks_share_a_client_host(uncached):
    lab = uncached
    n = 2 * len(lab.client_hosts)
    p = lab.fslab("mpiexec", lab.name, "-n", str(n), "hostname")
    assert sorted(p.stdout.split()) == sorted(lab.client_hosts * 2)
    assert (f"pio-fslab: warning: 2 ranks per client host on {lab.name}: the ranks that open "
            "a shared file on the client host of the rank that creates it read it through the "
            "page cache there") in p.stderr
    assert f"pio-fslab up {lab.name} --clients {n}" in p.stderr
    p = lab.fslab("mpiexec", lab.name, "-n", str(len(lab.client_hosts)), "hostname")
    assert sorted(p.stdout.split()) == lab.client_hosts and "warning" not in p.stderr
