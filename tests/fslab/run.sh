#!/bin/sh
# ctest entry of the file-system lab's tests (tools/pio-fslab, docs/guides/fslab.md): exit 77
# (ctest's SKIP_RETURN_CODE) with the reason where the lab cannot exist here (not root, no
# /dev/fuse, no namespaces), else pytest. A missing GlusterFS is a failure, not a skip:
# tools/install-deps.sh installs it.
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIPPED: the file-system lab cannot run here: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (namespaces, FUSE mounts)"
[ -c /dev/fuse ] || skip "no /dev/fuse (GlusterFS's client is a FUSE file system)"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
unshare --net --uts --mount true 2>/dev/null ||
  skip "cannot create network, UTS and mount namespaces (CAP_SYS_ADMIN)"
for c in glusterd glusterfs gluster; do
  command -v $c >/dev/null || { echo "FAIL: $c missing: run tools/install-deps.sh"; exit 1; }
done
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider "$here" "$@"
