"""The ledger of one lab configuration: every resource `up` makes is written down as it is made
(state.json in the configuration's directory), so that `down` removes each one, newest first,
also after an `up` that failed or was killed half-way. A process is named by its PID and its
start time, so a PID the kernel has since given to another process is never signalled."""
import json
import os
import subprocess
import time

from . import proc

STATE = "state.json"


class AlreadyUp(Exception):
    """The configuration has a ledger already (it is up, or an up of it failed half-way)."""


class Ledger:
    """The resources of one configuration, in the order they were made."""

    def __init__(self, directory, meta, entries):
        self.directory = directory
        self.meta = meta
        self.entries = entries

    @property
    def path(self):
        return os.path.join(self.directory, STATE)

    @classmethod
    def create(cls, directory, meta):
        """A new ledger; AlreadyUp if the configuration has one (checked and made atomically)."""
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, STATE)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise AlreadyUp(path) from None
        os.close(fd)
        ledger = cls(directory, dict(meta, started=time.time(), state="coming up"), [])
        ledger.save()
        return ledger

    @classmethod
    def load(cls, directory):
        """The ledger in directory, or None if there is none."""
        try:
            with open(os.path.join(directory, STATE)) as f:
                doc = json.load(f)
        except FileNotFoundError:
            return None
        except ValueError:  # killed while writing its first bytes: nothing recorded yet
            doc = {"meta": {"state": "unreadable ledger"}, "entries": []}
        return cls(directory, doc["meta"], doc["entries"])

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"meta": self.meta, "entries": self.entries}, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def add(self, kind, **fields):
        """Records a resource (before making it where it can be, so a half-made one is undone)."""
        entry = dict(fields, kind=kind)
        self.entries.append(entry)
        self.save()
        return entry

    def set(self, **meta):
        self.meta.update(meta)
        self.save()

    def find(self, kind, **match):
        return [e for e in self.entries
                if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())]


def run(cmd, timeout=60, check=True, **kw):
    """Runs cmd (a list); raises RuntimeError with its output when it fails and check is set."""
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{' '.join(cmd)}: no answer in {timeout} s") from None
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {p.returncode}): "
                           f"{(p.stderr or p.stdout).strip()}")
    return p


def undo(entry, say):
    """Removes one resource if it is still there. Returns what it did (or None)."""
    return UNDO[entry["kind"]](entry, say)


def _undo_process(e, say):
    if proc.kill(e["pid"], e["start"]):
        return f"stopped {e['name']} (pid {e['pid']})"
    return None


def _undo_host(e, say):
    """Every process in the host's network namespace, then the process that holds it."""
    done = []
    for pid, start, comm in proc.in_namespace("net", e["net_ns"]):
        if pid != e["pid"] and proc.kill(pid, start):
            done.append(f"{comm} {pid}")
    if proc.kill(e["pid"], e["start"]):
        done.append(f"holder {e['pid']}")
    return f"stopped host {e['host']} ({', '.join(done)})" if done else None


def _undo_mount(e, say):
    if e.get("holder"):
        h = e["holder"]
        if not proc.alive(h["pid"], h["start"]):
            return None  # its mount namespace went with the host
        enter = ["nsenter", "-t", str(h["pid"]), "-m"]
        mounts = proc.mount_points(h["pid"])
    else:
        enter = []
        mounts = proc.mount_points("self")
    if e["path"] not in mounts:
        return None
    for attempt in range(20):
        if run(enter + ["umount", e["path"]], check=False).returncode == 0:
            return f"unmounted {e['path']}" + (f" on {e['host']}" if e.get("host") else "")
        time.sleep(0.25)  # a file still open by a process on its way out
    run(enter + ["umount", "-l", e["path"]])
    return f"unmounted {e['path']} (lazily: it stayed busy)"


def _undo_loop(e, say):
    if proc.loop_backing_file(e["device"]) != e["image"]:
        return None
    run(["losetup", "-d", e["device"]])
    return f"detached {e['device']}"


def _undo_image(e, say):
    # A loop device made from it by an up killed before it could record the device.
    p = run(["losetup", "-j", e["path"], "-O", "NAME", "-n"], check=False)
    for dev in p.stdout.split():
        run(["losetup", "-d", dev], check=False)
    if os.path.exists(e["path"]):
        os.unlink(e["path"])
        return f"removed {e['path']}"
    return None


def _undo_link(e, say):
    if run(["ip", "link", "show", e["name"]], check=False).returncode != 0:
        return None
    run(["ip", "link", "del", e["name"]])
    return f"removed link {e['name']}"


def _undo_volume(e, say):
    """Stops the volume before its servers go (a brick outlives its glusterd)."""
    h = e["holder"]
    if not proc.alive(h["pid"], h["start"]):
        return None
    p = run(["nsenter", "-t", str(h["pid"]), "-n", "-m", "gluster", "--mode=script", "volume",
             "stop", e["name"], "force"], timeout=60, check=False)
    return f"stopped volume {e['name']}" if p.returncode == 0 else None


UNDO = {"process": _undo_process, "host": _undo_host, "mount": _undo_mount, "loop": _undo_loop,
        "image": _undo_image, "link": _undo_link, "volume": _undo_volume}
