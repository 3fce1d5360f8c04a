"""CPU time of I/O transfers by where it goes, from `perf script` call chains
(docs/measurements/interfaces.md, "Profiled: hdf5 64 KiB reads"): each cpu-clock sample whose chain
passes through a transfer root (e.g. IOR's HDF5_Xfer, pio's Hdf5Io::start) is put under the
outermost library call of the transfer it is in (H5Dread, H5Dget_space, ...) and under the kind of
code its leaf is in. A kernel sample inside a read system call counts under the read call even when
perf could not unwind its user stack (dwarf unwinding cuts deep stacks short)."""
import collections
import re

# `perf script -F comm,tid,event,ip,sym,dso`: a header line, then one frame a line, leaf first.
_FRAME = re.compile(r"^\s*[0-9a-f]+ (.*) \((.*)\)$")
READ_SYSCALLS = ("__x64_sys_pread64", "__x64_sys_read")
KERNEL_READ = "kernel: read system call (page-cache copy)"
# Samples in malloc whose chain perf could not unwind past it (common under dwarf unwinding):
# no root in sight, so listed on their own; compare two profiles to see whose they are.
CUT_MALLOC = "(outside the roots: chain cut short in malloc)"
MALLOC = re.compile(r"^(_int_malloc|malloc|sysmalloc|_int_free|free|__libc_malloc|__libc_free|"
                    r"malloc_consolidate|_int_realloc|realloc|calloc)$")


def samples(lines):
    """Yields each sample's frames, leaf first, as (symbol, object) pairs."""
    frames, in_sample = [], False
    for line in lines:
        if not line.strip():
            if frames:
                yield frames
            frames, in_sample = [], False
            continue
        m = _FRAME.match(line.rstrip("\n"))
        if m and in_sample:
            frames.append((m.group(1), m.group(2)))
        elif not m:
            in_sample = True  # the header line
    if frames:
        yield frames


def leaf_kind(frames):
    """The kind of code a sample's leaf is in."""
    sym, dso = frames[0]
    syms = [s for s, _ in frames]
    if dso.startswith("[kernel"):
        if any("page_fault" in s for s in syms):
            return "kernel: page faults"
        return "kernel: other"
    if "libhdf5" in dso:
        return "HDF5"
    if "libmpi" in dso or "libuc" in dso:
        return "MPI (ROMIO)"
    if "libc.so" in dso:
        return "libc malloc/free" if re.search(r"malloc|free|alloc", sym) else "libc other"
    return "application"


def classify(frames, roots, calls, read_call, skip=()):
    """(call, kind) of one sample, or None when it is outside the transfers. roots: regular
    expressions of a transfer's function; calls: the library calls to charge, outermost wins;
    read_call: the call a kernel read system call is charged to; skip: calls whose samples
    are left out (e.g. H5Dwrite when profiling reads)."""
    syms = [s for s, _ in frames]
    if frames[0][1].startswith("[kernel") and any(s in READ_SYSCALLS for s in syms):
        return (read_call, KERNEL_READ)
    if any(s in skip for s in syms):
        return None
    if not any(r.search(s) for r in roots for s in syms):
        user = [s for s, d in frames if not d.startswith("[kernel")]
        if user and all(MALLOC.search(s) for s in user):
            return (CUT_MALLOC, leaf_kind(frames))  # whose malloc, perf could not tell
        return None
    call = next((s for s in reversed(syms) if s in calls), None)
    if call is None:
        return None
    return (call, leaf_kind(frames))


def buckets(lines, roots, calls, read_call, skip=()):
    """Counter of (call, kind) -> samples over a perf script's lines."""
    compiled = [re.compile(r) for r in roots]
    out = collections.Counter()
    for frames in samples(lines):
        key = classify(frames, compiled, calls, read_call, skip)
        if key:
            out[key] += 1
    return out


def table(counts, transfers, period_us, calls):
    """The buckets as text: per call and kind, microseconds of CPU per transfer and share."""
    total = sum(counts.values())
    if total == 0:
        return "no sample under the transfer roots\n"
    per = period_us / transfers
    rows = ["%d samples of %g us over %d transfers: %.2f us of CPU per transfer" %
            (total, period_us, transfers, total * per)]
    for call in list(calls) + [CUT_MALLOC]:
        n = sum(v for (c, _), v in counts.items() if c == call)
        if n:
            rows.append("  %-36s %8.2f us %5.1f %%" % (call, n * per, 100.0 * n / total))
            for (c, kind), v in sorted(counts.items(), key=lambda kv: -kv[1]):
                if c == call:
                    rows.append("    %-34s %8.2f us %5.1f %%" % (kind, v * per, 100.0 * v / total))
    return "\n".join(rows) + "\n"
