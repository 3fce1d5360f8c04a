"""The lab's named configurations (docs/guides/fslab.md lists them), and its network's names."""

GIB = 1 << 30

GLUSTER = {
    # name: (layout, default servers, with the caching translators and the client's page cache)
    "gluster-dist": ("distribute", 2, True),
    "gluster-dist-nocache": ("distribute", 2, False),
    "gluster-repl": ("replicate", 2, True),
    "gluster-repl-nocache": ("replicate", 2, False),
    "gluster-disp": ("disperse", 3, True),
    "gluster-disp-nocache": ("disperse", 3, False),
}

LOOP = {
    # name: (file system, mount options)
    "ext4-ordered": ("ext4", "data=ordered"),
    "ext4-journal": ("ext4", "data=journal"),
    "xfs": ("xfs", ""),
    "xfs-alloc64m": ("xfs", "allocsize=64m"),
    "btrfs": ("btrfs", ""),
    "btrfs-nodatacow": ("btrfs", "nodatacow"),
}

DESCRIPTION = {
    "gluster-dist": "GlusterFS distributed volume, one brick per server, default caching",
    "gluster-repl": "GlusterFS replicated volume (replica = servers), default caching",
    "gluster-disp": "GlusterFS dispersed volume (servers + 1 redundancy, at least 3 bricks), "
                    "default caching",
    "ext4-ordered": "ext4, data=ordered (the default journal mode)",
    "ext4-journal": "ext4, data=journal (data through the journal; O_DIRECT quietly buffered)",
    "xfs": "xfs, default mount options",
    "xfs-alloc64m": "xfs, allocsize=64m (speculative preallocation of 64 MiB)",
    "btrfs": "btrfs, default (copy-on-write data)",
    "btrfs-nodatacow": "btrfs, nodatacow (data written in place)",
}


def names():
    return sorted(GLUSTER) + sorted(LOOP)


def describe(name):
    if name.endswith("-nocache"):
        return (DESCRIPTION[name[:-len("-nocache")]].replace("default caching", "") +
                "caching translators off, clients with direct-io-mode=enable")
    return DESCRIPTION[name]


def resolve(name, servers=None, clients=None, options=(), size=None):
    """The configuration `name` with the command line's overrides, as a dict; ValueError with
    the known names if there is no such configuration or an override does not apply to it."""
    if name in GLUSTER:
        layout, default_servers, cache = GLUSTER[name]
        if size is not None:
            raise ValueError("--size is for the loop-device configurations")
        servers = servers or default_servers
        clients = clients or 2
        if layout == "disperse" and servers < 2:
            raise ValueError("a dispersed volume needs 2 or more servers")
        for o in options:
            if "=" not in o:
                raise ValueError(f"--option {o}: give KEY=VALUE (a gluster volume option)")
        return {"name": name, "kind": "gluster", "layout": layout, "servers": servers,
                "clients": clients, "cache": cache, "options": list(options)}
    if name in LOOP:
        if servers or clients or options:
            raise ValueError("--servers, --clients and --option are for the gluster-* "
                             "configurations")
        fs, mount_options = LOOP[name]
        return {"name": name, "kind": "loop", "fs": fs, "mount_options": mount_options,
                "size": size or 2 * GIB}
    raise ValueError(f"no configuration '{name}'; the lab has: {', '.join(names())}")


class Net:
    """The names and addresses of one lab network: bridge TAG-br at SUBNET.254, servers at
    SUBNET.1.., clients at SUBNET.101.. (hydra's host names for them)."""

    def __init__(self, tag="fslab", subnet="10.78.0"):
        if not tag.isalnum() or len(tag) > 8:
            raise ValueError(f"--net-tag {tag}: at most 8 letters and digits (it names links)")
        parts = subnet.split(".")
        if len(parts) != 3 or not all(p.isdigit() and int(p) < 256 for p in parts):
            raise ValueError(f"--subnet {subnet}: give the first three numbers, e.g. 10.78.0")
        self.tag, self.subnet = tag, subnet
        self.bridge = f"{tag}-br"

    def address(self, n):
        return f"{self.subnet}.{n}"

    def veth(self, role, i):
        return f"{self.tag}-{role}{i}"
