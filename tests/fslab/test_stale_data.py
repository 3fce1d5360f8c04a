"""Stale data across clients (issue 42): two ranks on two client hosts write one file through
a strided file view; ROMIO's data sieving makes each write a locked read-modify-write of the
whole extent. Under gluster's default caching (write-behind, read-ahead, io-cache, the FUSE page
cache) a client reads the extent without the other client's latest strips and writes it back
over them, so the data read back is wrong: Verify must catch it and say where (rank, host, file
offset, expected and found bytes). With the caching off the same run passes."""
import re

# 1 KiB strips of 2 ranks interleaved, 64 KiB per rank per unit: an extent of 64 strips per
# unit, written with data sieving (independent I/O through a noncontiguous view).
STRIDED = """Verify on
<ap_module>
  ModuleName  "Simple Strided (write)"
  BufferSizes 64K
  StripSize   1K
  WorkUnits   8
</ap_module>
"""

MESSAGE = re.compile(
    r"verification failed \(written data read back\): rank (\d+), file offset (\d+): "
    r"expected 0x([0-9a-f]{1,2}), found 0x([0-9a-f]{1,2}); bytes (\d+)-(\d+) expected "
    r"([0-9a-f ]+), found ([0-9a-f ]+); (\d+) of the (\d+) bytes at (\d+)-(\d+) wrong; "
    r"rank \1 runs on host (\S+)")

M64 = (1 << 64) - 1


def stamp_byte(rank, offset, generation=0):
    """include/pio/stamp.hpp's stamp: the byte `rank` writes at `offset`."""
    z = (((rank + 1) * 0xBF58476D1CE4E5B9) & M64) ^ (((generation + 1) * 0x94D049BB133111EB) & M64)
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    key = z ^ (z >> 31)
    w = (((offset >> 3) + 1) * 0x9E3779B97F4A7C15 & M64) ^ key
    w ^= w >> 29
    return (w >> (8 * (offset & 7))) & 0xFF


def test_stale_data_caught_by_verify_under_default_caching(cached, harness):
    r = harness(cached, 2, STRIDED)
    assert r.rc == 1, r.output
    test = r.results["modules"][0]["tests"][0]
    err = test["error"]
    m = MESSAGE.search(err["message"])
    assert m, err["message"]
    rank, offset = int(m[1]), int(m[2])
    first, last, piece = int(m[5]), int(m[6]), (int(m[11]), int(m[12]))
    host = m[13]
    # the rank and host of the message are the failing rank's, as the harness records them
    assert err["rank"] == rank and err["host"] == host == r.host_of(rank)
    assert host in cached.client_hosts
    assert f"rank {rank} on {host}" in r.output
    # the offset is in one of that rank's strips (strip k of rank r at k * 2K + r * 1K)
    assert offset // 1024 % 2 == rank and first == offset
    assert piece[0] <= offset <= last <= piece[1] and (piece[1] - piece[0] + 1) % 1024 == 0
    # expected is the rank's stamp at those offsets; found differs from it at the first byte
    want = [stamp_byte(rank, o) for o in range(first, last + 1)]
    assert [int(x, 16) for x in m[7].split()] == want
    assert int(m[3], 16) == want[0] and int(m[4], 16) != want[0]
    found = [int(x, 16) for x in m[8].split()]
    assert len(found) == len(want) and found[0] == int(m[4], 16)
    assert 1 <= int(m[9]) <= int(m[10])


def test_the_same_run_passes_with_caching_off(uncached, harness):
    r = harness(uncached, 2, STRIDED)
    assert r.rc == 0, r.output
    test = r.results["modules"][0]["tests"][0]
    assert test["error"] is None
    assert [r.host_of(0), r.host_of(1)] == uncached.client_hosts[:2]
    assert r.results["modules"][0]["verify"] == "on"
