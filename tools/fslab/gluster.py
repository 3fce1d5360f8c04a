"""A GlusterFS volume on emulated server hosts, mounted on emulated client hosts (Debian's
glusterfs-server and glusterfs-client). Each server runs its own glusterd in its own network,
UTS and mount namespace, with a private /run (tmpfs) and its own /var/lib/glusterd and
/var/log/glusterfs (bind mounts of its directory in the lab). Servers start before any client
mount; the volume is stopped before the servers go (ledger.py), since bricks outlive glusterd."""
import os
import subprocess
import time

from . import hosts, proc
from .ledger import run

VOLUME = "piovol"

# The client-side caching translators (what `gluster volume set` turns off) and the FUSE
# client's page cache (direct-io-mode): off together, every read and write goes to the bricks.
CACHING_OFF = ["performance.write-behind=off", "performance.read-ahead=off",
               "performance.io-cache=off", "performance.quick-read=off",
               "performance.stat-prefetch=off", "performance.open-behind=off",
               "performance.readdir-ahead=off", "performance.nl-cache=off"]


def brick_layout(cfg):
    """The `gluster volume create` arguments after the volume name, and the bricks."""
    kind = cfg["layout"]
    if kind == "distribute":
        return [], cfg["servers"]
    if kind == "replicate":
        return ["replica", str(cfg["servers"])], cfg["servers"]
    if kind == "disperse":
        n = max(cfg["servers"], 3)
        return ["disperse", str(n), "redundancy", str(cfg.get("redundancy", 1))], n
    raise ValueError(f"layout {kind}")


def up(ledger, cfg, lab, net, say):
    """Servers, then the volume, then its mounts on the client hosts and on this machine."""
    base = ledger.directory
    mnt = os.path.join(base, "mnt")
    os.makedirs(mnt, exist_ok=True)
    hosts.bridge(ledger, net.bridge, net.address(254))
    servers = []
    for i in range(1, cfg["servers"] + 1):
        name = f"{net.tag}-s{i}"
        h = hosts.make_host(ledger, name, "server", net.address(i), net.bridge, net.veth("s", i),
                            lab)
        d = os.path.join(base, f"s{i}")
        for sub in ("glusterd", "log", "bricks"):
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        on = hosts.enter(h)
        run(on + ["mount", "-t", "tmpfs", "-o", "mode=755", "pio-fslab-run", "/run"])
        run(on + ["mount", "--bind", os.path.join(d, "glusterd"), "/var/lib/glusterd"])
        run(on + ["mount", "--bind", os.path.join(d, "log"), "/var/log/glusterfs"])
        servers.append((name, net.address(i), h, d))
    say(f"  {len(servers)} server hosts made ({lab_time(ledger)})")
    # glusterd on every server at once (each takes seconds to answer), then wait for all.
    starting = [subprocess.Popen(hosts.enter(h) + ["glusterd", "-p", "/run/glusterd.pid"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
                for _, _, h, _ in servers]
    for (name, _, h, _), p in zip(servers, starting):
        out, _ = p.communicate(timeout=120)
        pid = _read_int(f"/proc/{h['pid']}/root/run/glusterd.pid")
        if pid:
            ledger.add("process", name=f"glusterd on {name}", pid=pid,
                       start=proc.start_time(pid))
        if p.returncode != 0 or not pid:
            raise RuntimeError(f"glusterd on {name} did not start (exit {p.returncode}): "
                               f"{out.strip()}; see {base}/s*/log/glusterd.log")
    first = servers[0][2]
    g = hosts.enter(first, uts=False) + ["gluster", "--mode=script"]
    for _ in range(100):  # glusterd has daemonised; its CLI socket answers a moment later
        if run(g + ["pool", "list"], check=False).returncode == 0:
            break
        time.sleep(0.1)
    for name, addr, _, _ in servers[1:]:
        run(g + ["peer", "probe", addr])
    _wait_connected(g, len(servers) - 1)
    say(f"  glusterd on {len(servers)} servers, peers connected ({lab_time(ledger)})")
    layout, nbricks = brick_layout(cfg)
    bricks = []
    for k in range(nbricks):
        name, addr, _, d = servers[k % len(servers)]
        bricks.append(f"{addr}:{os.path.join(d, 'bricks', f'b{k}')}")
    ledger.add("volume", name=VOLUME, holder=first)
    run(g + ["volume", "create", VOLUME, *layout, "transport", "tcp", *bricks, "force"])
    options = ([] if cfg["cache"] else CACHING_OFF) + cfg.get("options", [])
    for opt in options:
        key, _, value = opt.partition("=")
        run(g + ["volume", "set", VOLUME, key, value])
    run(g + ["volume", "start", VOLUME])
    say(f"  volume {VOLUME} ({cfg['layout']}, {nbricks} bricks) started ({lab_time(ledger)})")
    client_args = [] if cfg["cache"] else ["--direct-io-mode=enable"]
    clients = []
    for i in range(1, cfg["clients"] + 1):
        name = f"{net.tag}-c{i}"
        addr = net.address(100 + i)
        h = hosts.make_host(ledger, name, "client", addr, net.bridge, net.veth("c", i), lab)
        _mount(ledger, os.path.join(base, f"c{i}"), name, h, servers[0][1], mnt, client_args)
        clients.append({"host": name, "address": addr})
    _mount(ledger, os.path.join(base, "local"), "this machine", None, servers[0][1], mnt,
           client_args)
    say(f"  mounted on {len(clients)} client hosts and here ({lab_time(ledger)})")
    return {"mount_point": mnt, "clients": clients,
            "servers": [{"host": n, "address": a} for n, a, _, _ in servers],
            "volume": VOLUME, "bricks": bricks, "volume_options": options,
            "client_args": client_args, "bridge": net.bridge}


def _mount(ledger, d, host, holder, server, mnt, client_args):
    """The FUSE client (glusterfs) on `host` (holder) or on this machine (holder None)."""
    os.makedirs(d, exist_ok=True)
    pidfile = os.path.join(d, "glusterfs.pid")
    ledger.add("mount", path=mnt, host=host, holder=holder)
    on = hosts.enter(holder) if holder else []
    run(on + ["glusterfs", f"--volfile-server={server}", f"--volfile-id={VOLUME}",
              f"--pid-file={pidfile}", f"--log-file={os.path.join(d, 'glusterfs.log')}",
              *client_args, mnt], timeout=60)
    pid = _read_int(pidfile)
    if pid:
        ledger.add("process", name=f"glusterfs client on {host}", pid=pid,
                   start=proc.start_time(pid))
    mounted = {m[0]: m[1] for m in proc.mountinfo(holder["pid"] if holder else "self")}
    if mounted.get(mnt) != "fuse.glusterfs":
        raise RuntimeError(f"glusterfs did not mount {VOLUME} at {mnt} on {host}; see "
                           f"{d}/glusterfs.log")


def _wait_connected(g, peers, timeout=30):
    deadline = time.time() + timeout
    while True:
        out = run(g + ["peer", "status"]).stdout
        if out.count("(Connected)") >= peers:
            return
        if time.time() > deadline:
            raise RuntimeError(f"gluster peers not connected after {timeout} s:\n{out}")
        time.sleep(0.1)


def _read_int(path, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with open(path) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            time.sleep(0.05)
    return None


def lab_time(ledger):
    return f"{time.time() - ledger.meta['started']:.1f} s"
