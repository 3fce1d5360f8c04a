"""One unit per kind of figure on a page: bandwidths in MiB/s (the harness's unit), whatever unit
a module's figure used (b_eff_io and b_eff report MB/s = 10^6 bytes per second, as their papers
do)."""

MIB = 1024.0 * 1024.0
# A bandwidth unit -> bytes per second per unit.
BANDWIDTH = {"MiB/s": MIB, "MB/s": 1e6, "GiB/s": 1024.0 * MIB, "GB/s": 1e9, "KiB/s": 1024.0,
             "kB/s": 1e3, "B/s": 1.0}
REPORT_BANDWIDTH = "MiB/s"


def normalise(value, unit):
    """(value, unit) with a bandwidth in MiB/s; anything else as it is."""
    if unit in BANDWIDTH and unit != REPORT_BANDWIDTH and isinstance(value, (int, float)):
        return value * BANDWIDTH[unit] / MIB, REPORT_BANDWIDTH
    return value, unit


def column(name):
    """A table column's bandwidth unit when its name ends in one ('type 0 scatter MB/s'), the
    name with MiB/s instead, and the factor to MiB/s; (None, name, 1.0) otherwise."""
    for unit, per in BANDWIDTH.items():
        if unit != REPORT_BANDWIDTH and (name == unit or name.endswith(" " + unit)):
            return unit, name[:len(name) - len(unit)] + REPORT_BANDWIDTH, per / MIB
    return None, name, 1.0
