#!/bin/sh
# ctest entry of the multihost tests: exit 77 (ctest's SKIP_RETURN_CODE) with the reason when
# emulated hosts cannot be made here (not root, no CAP_NET_ADMIN, no unshare), else pytest.
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIPPED: emulated hosts unavailable: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
command -v ip >/dev/null || skip "no ip command (iproute2)"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
ip netns add pio-mhprobe 2>/dev/null || skip "cannot create a network namespace (CAP_NET_ADMIN)"
ok=yes
ip netns exec pio-mhprobe unshare --uts true 2>/dev/null || ok=no
ip netns del pio-mhprobe
[ $ok = yes ] || skip "cannot create a UTS namespace (CAP_SYS_ADMIN)"
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider "$here" "$@"
