"""Emulated hosts: a process (`sleep infinity` under unshare) holds a network, UTS and mount
namespace of its own; a veth pair joins the network namespace to the lab's bridge. Commands run
on a host through nsenter into all three. No `ip netns add` (it leaves a mount on /run/netns)."""
import subprocess
import time

from . import proc
from .ledger import run


def bridge(ledger, name, address):
    """The lab's bridge with address/24 (the machine's side: mpiexec talks to the hosts here)."""
    if run(["ip", "link", "show", name], check=False).returncode == 0:
        raise RuntimeError(f"the link {name} exists already: another lab configuration with this "
                           "--net tag is up (pio-fslab status), or a stale one (ip link del "
                           f"{name})")
    ledger.add("link", name=name)
    run(["ip", "link", "add", name, "type", "bridge"])
    run(["ip", "addr", "add", f"{address}/24", "dev", name])
    run(["ip", "link", "set", name, "up"])


def enter(holder, net=True, uts=True, mnt=True, wd=None):
    """The nsenter prefix that runs a command on the host held by holder ({'pid', 'start'})."""
    cmd = ["nsenter", "-t", str(holder["pid"])]
    cmd += (["-n"] if net else []) + (["-u"] if uts else []) + (["-m"] if mnt else [])
    if wd:
        cmd.append(f"--wd={wd}")
    return cmd


def make_host(ledger, name, role, address, bridge_name, veth, lab_dir):
    """A new emulated host named `name` at address/24 on the bridge. Mounts of the lab that its
    mount namespace copied from the machine's (a loop file system of another configuration, a
    volume's local mount) are dropped, so that they never outlive their `down`."""
    p = subprocess.Popen(["unshare", "--net", "--uts", "--mount", "--propagation", "private",
                          "sleep", "infinity"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    own_net = proc.namespace("self", "net")
    deadline = time.time() + 10
    while time.time() < deadline:  # until unshare has made the namespaces and run sleep
        ns = proc.namespace(p.pid, "net")
        if ns is not None and ns != own_net and proc.comm(p.pid) == "sleep":
            break
        if p.poll() is not None:
            raise RuntimeError(f"unshare for host {name} failed (exit {p.returncode}): cannot "
                               "make network, UTS and mount namespaces here")
        time.sleep(0.01)
    holder = {"pid": p.pid, "start": proc.start_time(p.pid)}
    ledger.add("host", host=name, role=role, address=address, veth=veth,
               net_ns=proc.namespace(p.pid, "net"), **holder)
    on = enter(holder)
    run(enter(holder, net=False, mnt=False) + ["hostname", name])
    for mnt, *_ in sorted(proc.mountinfo(p.pid), key=lambda m: -len(m[0])):
        if mnt.startswith(lab_dir.rstrip("/") + "/"):
            run(on + ["umount", "-l", mnt], check=False)
    ledger.add("link", name=veth)
    run(["ip", "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", str(p.pid)])
    run(["ip", "link", "set", veth, "master", bridge_name, "up"])
    run(on + ["ip", "addr", "add", f"{address}/24", "dev", "eth0"])
    run(on + ["ip", "link", "set", "eth0", "up"])
    run(on + ["ip", "link", "set", "lo", "up"])
    return holder

