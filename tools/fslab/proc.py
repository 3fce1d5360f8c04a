"""What /proc and /sys say about processes, namespaces, mounts and loop devices."""
import os
import signal
import time


def start_time(pid):
    """The process's start time in clock ticks since boot (/proc/PID/stat field 22), or None if
    there is no such process or it has exited (a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def alive(pid, start):
    """Is pid still the process that started at `start`?"""
    return start is not None and start_time(pid) == start


def kill(pid, start, grace=5.0):
    """SIGTERM, then SIGKILL after `grace` seconds, to pid if it is still the process that
    started at `start`. True if it was signalled."""
    if not alive(pid, start):
        return False
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    deadline = time.time() + grace
    while time.time() < deadline:
        if not alive(pid, start):
            return True
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return True
    deadline = time.time() + 5
    while alive(pid, start) and time.time() < deadline:
        time.sleep(0.05)
    return True


def namespace(pid, kind):
    """The inode of pid's namespace of this kind ('net', 'mnt', 'uts'), or None."""
    try:
        return os.stat(f"/proc/{pid}/ns/{kind}").st_ino
    except OSError:
        return None


def in_namespace(kind, inode):
    """[(pid, start time, comm)] of every live process in that namespace."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        if namespace(pid, kind) != inode:
            continue
        start = start_time(pid)
        if start is not None:
            out.append((pid, start, comm(pid)))
    return out


def comm(pid):
    """The process's command name, or None."""
    return _sysfs_text(f"/proc/{pid}/comm")


def mountinfo(pid="self"):
    """[(mount point, fs type, source, mount options, super options)] from /proc/PID/mountinfo."""
    out = []
    try:
        with open(f"/proc/{pid}/mountinfo") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    for line in lines:
        left, _, right = line.partition(" - ")
        a, b = left.split(), right.split()
        unescape = lambda s: s.encode().decode("unicode_escape")  # noqa: E731 (\040 for a space)
        out.append((unescape(a[4]), b[0], b[1], a[5], b[2] if len(b) > 2 else ""))
    return out


def mount_points(pid="self"):
    return {m[0] for m in mountinfo(pid)}


def _sysfs_text(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def loop_backing_file(device):
    """The file a loop device is bound to, or None."""
    return _sysfs_text(f"/sys/block/{os.path.basename(device)}/loop/backing_file")


def loop_direct_io(device):
    """Does the loop device read and write its file with O_DIRECT?"""
    return _sysfs_text(f"/sys/block/{os.path.basename(device)}/loop/dio") == "1"
