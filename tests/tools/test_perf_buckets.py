"""tools/dev/perf-buckets.py and piotools.perf_buckets: samples of a perf script, with known chains,
land in the right (call, kind) bucket; samples outside the transfers are left out."""
import subprocess
import sys

from conftest import DEV
from piotools import perf_buckets

SCRIPT = """\
ior 100 cpu-clock:
\t7f01 H5D__contig_read (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t7f02 H5Dread (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t4001 HDF5_Xfer (/peers/ior/bin/ior)
\t4002 main (/peers/ior/bin/ior)

ior 100 cpu-clock:
\tffffffff81baf6b0 _copy_to_iter ([kernel.kallsyms])
\tffffffff816d6dc3 __x64_sys_pread64 ([kernel.kallsyms])
\t           f6417 __libc_pread64 (inlined)

ior 100 cpu-clock:
\tffffffff82256067 clear_page_erms ([kernel.kallsyms])
\tffffffff81000c82 asm_exc_page_fault ([kernel.kallsyms])
\t7f03 _int_malloc (/usr/lib/x86_64-linux-gnu/libc.so.6)
\t7f04 H5FL_reg_malloc (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t7f05 H5Sselect_hyperslab (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t4003 SeekOffset (/peers/ior/bin/ior)
\t4001 HDF5_Xfer (/peers/ior/bin/ior)

ior 100 cpu-clock:
\t7f06 malloc (/usr/lib/x86_64-linux-gnu/libc.so.6)
\t7f07 H5Dget_space (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t4001 HDF5_Xfer (/peers/ior/bin/ior)

ior 100 cpu-clock:
\t7f08 H5Dopen2 (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t4004 TestIoSys (/peers/ior/bin/ior)

ior 100 cpu-clock:
\t7f09 ucp_worker_progress (/usr/lib/x86_64-linux-gnu/libucp.so.0.0.0)
\t7f0a PMPI_File_read_at (/usr/lib/x86_64-linux-gnu/libmpich.so.12.2.2)
\t7f02 H5Dread (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t4001 HDF5_Xfer (/peers/ior/bin/ior)

ior 100 cpu-clock:
\tffffffff82256067 clear_page_erms ([kernel.kallsyms])
\tffffffff81000c82 asm_exc_page_fault ([kernel.kallsyms])
\t7f03 _int_malloc (/usr/lib/x86_64-linux-gnu/libc.so.6)

ior 100 cpu-clock:
\t7f0b H5D__contig_write (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t7f0c H5Dwrite (/usr/lib/x86_64-linux-gnu/libhdf5_mpich.so.103.3.1)
\t4001 HDF5_Xfer (/peers/ior/bin/ior)
"""
CALLS = ["H5Dread", "H5Dget_space", "H5Sselect_hyperslab"]


def test_each_sample_lands_in_its_bucket():
    counts = perf_buckets.buckets(SCRIPT.splitlines(True), ["^HDF5_Xfer$"], CALLS, "H5Dread",
                                  ("H5Dwrite",))
    assert counts == {
        ("H5Dread", "HDF5"): 1,
        ("H5Dread", perf_buckets.KERNEL_READ): 1,  # user chain cut short, still a read
        ("H5Sselect_hyperslab", "kernel: page faults"): 1,
        ("H5Dget_space", "libc malloc/free"): 1,
        ("H5Dread", "MPI (ROMIO)"): 1,
        (perf_buckets.CUT_MALLOC, "kernel: page faults"): 1,  # listed apart, not dropped
    }  # H5Dopen2 outside the root and H5Dwrite (skipped) are left out


def test_table_states_time_per_transfer_and_shares():
    counts = perf_buckets.buckets(SCRIPT.splitlines(True), ["^HDF5_Xfer$"], CALLS, "H5Dread",
                                  ("H5Dwrite",))
    text = perf_buckets.table(counts, transfers=10, period_us=20, calls=CALLS)
    lines = text.splitlines()
    assert lines[0] == "6 samples of 20 us over 10 transfers: 12.00 us of CPU per transfer"
    assert lines[1].split() == ["H5Dread", "6.00", "us", "50.0", "%"]
    assert "H5Dget_space" in text and "2.00 us  16.7 %" in text
    assert perf_buckets.CUT_MALLOC in lines[-2]


def test_command_line_runs_and_refuses_bad_input(tmp_path):
    p = tmp_path / "p.txt"
    p.write_text(SCRIPT)
    tool = DEV + "/perf-buckets.py"
    ok = subprocess.run([sys.executable, tool, str(p), "--root", "HDF5_Xfer", "--skip", "H5Dwrite",
                         "--transfers", "10", "--period-us", "20"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("6 samples of 20 us over 10 transfers")
    bad = subprocess.run([sys.executable, tool, str(tmp_path / "none.txt"), "--root", "x",
                          "--transfers", "10", "--period-us", "20"], capture_output=True, text=True)
    assert bad.returncode == 2 and "none.txt" in bad.stderr and "fix:" in bad.stderr
    zero = subprocess.run([sys.executable, tool, str(p), "--root", "x", "--transfers", "0",
                           "--period-us", "20"], capture_output=True, text=True)
    assert zero.returncode == 2 and "positive" in zero.stderr
