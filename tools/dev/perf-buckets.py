#!/usr/bin/python3
"""CPU time per I/O transfer by library call and kind of code, from a cpu-clock profile with
call chains (docs/measurements/interfaces.md, "Profiled: hdf5 64 KiB reads"):

  perf record -e cpu-clock -c 20000 --call-graph dwarf -o p.data -- mpiexec -n 2 <program> ...
  perf script -i p.data --comm <program> -F comm,tid,event,ip,sym,dso > p.txt
  perf-buckets.py p.txt --root HDF5_Xfer --transfers 16384 --period-us 20

--transfers: the transfers of the profiled phase over all ranks; --period-us: -c in microseconds
(cpu-clock counts nanoseconds). Shares within one profile compare; the microseconds carry
perf's own cost."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))  # tools/, for piotools

from piotools import perf_buckets  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("script", help="perf script output (-F comm,tid,event,ip,sym,dso)")
    ap.add_argument("--root", action="append", required=True,
                    help="regular expression of the transfer's function (repeatable)")
    ap.add_argument("--call", action="append",
                    help="library call to charge (repeatable; default: H5Dread H5Dget_space "
                         "H5Sselect_hyperslab H5Sclose)")
    ap.add_argument("--read-call", default="H5Dread",
                    help="the call a kernel read system call is charged to (default H5Dread)")
    ap.add_argument("--skip", action="append", default=[],
                    help="leave out samples under this call (e.g. H5Dwrite)")
    ap.add_argument("--transfers", type=int, required=True)
    ap.add_argument("--period-us", type=float, required=True)
    a = ap.parse_args(argv)
    if a.transfers <= 0 or a.period_us <= 0:
        print("perf-buckets: --transfers and --period-us must be positive", file=sys.stderr)
        return 2
    calls = a.call or ["H5Dread", "H5Dget_space", "H5Sselect_hyperslab", "H5Sclose"]
    try:
        with open(a.script, errors="replace") as f:
            counts = perf_buckets.buckets(f, a.root, calls, a.read_call, tuple(a.skip))
    except OSError as e:
        print("perf-buckets: %s: %s (fix: give the output of perf script)" % (a.script, e.strerror),
              file=sys.stderr)
        return 2
    sys.stdout.write(perf_buckets.table(counts, a.transfers, a.period_us, calls))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
