"""A run's file-system configuration as one line of text: what pio-compare and pio-nightly
require to be equal between runs (`--allow file_system` lifts it) and what the trend groups by.

From each node's hosts[].file_system (docs/reference/results.md): the type and subtype, the mount's
and the file system's options, whether a loop device under it does direct I/O and, for GlusterFS,
the client graph its servers handed out (translators and their options) and the client's
command-line options. Nodes that see the same configuration count once. Left out, as they
change from one mount of the same configuration to the next: the device or server the mount
came from, the mount point, a loop device's backing file, per-process values of the graph
(process-uuid, volfile-checksum), the volume's UUID and the client's pid and log files. Runs
recorded before the harness read the mounts have only the file-system type, which stands for
their configuration."""
import hashlib

# Graph options that name one process, one fetch of the graph or one creation of the volume
# (its UUID, which one client's graph carries and another's may not), not its configuration.
VOLATILE_OPTIONS = {"process-uuid", "volfile-checksum", "volume-id"}
# glusterfs client arguments that name files or the server to ask, not how it behaves.
VOLATILE_ARGS = ("--pid-file", "--log-file", "--volfile-server", "-p", "-l", "-s")


def _options(fs):
    """The mount's options and the file system's, each once, in their order."""
    out = []
    both = f"{fs.get('mount_options') or ''},{fs.get('super_options') or ''}"
    for o in both.split(","):
        if o and o not in out:
            out.append(o)
    return out


def _client_args(command_line):
    """The glusterfs client's options, without files, server and mount point."""
    words = (command_line or "").split()[1:]
    return [w for w in words if w.startswith("-") and not w.startswith(VOLATILE_ARGS)]


def _graph(volume):
    """(summary, digest): the translators with their options, the protocol/client ones (many,
    and alike) counted and folded into a digest with everything else."""
    graph = volume.get("graph") or []
    clients = [t for t in graph if t.get("type") == "protocol/client"]
    parts = [f"{len(clients)} bricks"] if clients else []
    full = []
    for t in graph:
        opts = {k: v for k, v in sorted((t.get("options") or {}).items())
                if k not in VOLATILE_OPTIONS}
        if t.get("type") == "protocol/client":
            opts = {k: v for k, v in opts.items() if k not in ("remote-host", "remote-subvolume")}
            full.append(f"{t['type']}{opts}")
            continue
        if t.get("type") in ("meta", "debug/io-stats"):
            full.append(f"{t['type']}{opts}")
            continue
        shown = ",".join(f"{k}={v}" for k, v in opts.items())
        parts.append(t.get("type", "?").split("/")[-1] + (f"({shown})" if shown else ""))
        full.append(f"{t.get('type')}{opts}")
    digest = hashlib.sha256("\n".join(full).encode()).hexdigest()[:8]
    return " ".join(parts), digest


def node_config(fs):
    """One node's file-system configuration as text."""
    kind = fs.get("type") or "unknown"
    if fs.get("subtype"):
        kind += "." + fs["subtype"]
    text = f"{kind} ({','.join(_options(fs))})"
    loop = fs.get("loop")
    if loop:
        text += " on a loop device" + (" with direct I/O" if loop.get("direct_io") else
                                       " through the page cache")
    volume = fs.get("volume")
    if volume:
        summary, digest = _graph(volume)
        args = _client_args(volume.get("client_command_line"))
        text += f"; volume: {summary}" + (f"; client: {' '.join(args)}" if args else "") + \
            f" [graph {digest}]"
    return text


def file_system_config(doc):
    """The run's file-system configuration (every node's, each different one once)."""
    nodes = [h.get("file_system") for h in doc.get("hosts") or []]
    if not nodes or not all(isinstance(fs, dict) and fs.get("type") for fs in nodes):
        return doc.get("file_system")
    return " | ".join(sorted({node_config(fs) for fs in nodes}))
