"""A local file system on a loop device with real direct I/O: a sparse image file, mkfs, a loop
device with `losetup --direct-io=on` (without it O_DIRECT I/O on the file system is served by
the image's page cache on this machine), mounted with the configuration's options."""
import os

from . import proc
from .ledger import run

MKFS = {
    # lazy_*_init=0: no ext4lazyinit thread writing inode tables behind the measurements
    "ext4": ["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0"],
    "xfs": ["mkfs.xfs", "-q", "-f"],
    "btrfs": ["mkfs.btrfs", "-q", "-f"],
}


def up(ledger, cfg, say):
    base = ledger.directory
    image = os.path.join(base, "image")
    mnt = os.path.join(base, "mnt")
    os.makedirs(mnt, exist_ok=True)
    ledger.add("image", path=image)
    with open(image, "wb") as f:
        f.truncate(cfg["size"])
    run(MKFS[cfg["fs"]] + [image], timeout=300)
    device = run(["losetup", "--direct-io=on", "--find", "--show", image]).stdout.strip()
    ledger.add("loop", device=device, image=image)
    if not proc.loop_direct_io(device):
        raise RuntimeError(f"{device}: losetup --direct-io=on did not take (the file system of "
                           f"{image} does not do direct I/O?)")
    ledger.add("mount", path=mnt, host=None, holder=None)
    opts = ["-o", cfg["mount_options"]] if cfg["mount_options"] else []
    run(["mount", "-t", cfg["fs"], *opts, device, mnt])
    say(f"  {cfg['fs']} on {device} (direct I/O) mounted at {mnt}")
    return {"mount_point": mnt, "device": device, "image": image, "size": cfg["size"],
            "mount_options": cfg["mount_options"]}
