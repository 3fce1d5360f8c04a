#!/bin/sh
# Emulated hosts on one machine for the multihost tests: each host is a Linux network namespace
# (its own address on a bridge) whose processes also get their own UTS namespace, so
# MPI_Get_processor_name and gethostname differ per host, while the file system stays shared as
# a parallel file system is. MPICH's hydra starts its proxies in them through its ssh launcher
# hook (`mpiexec -launcher ssh -launcher-exec <this script>`), so ranks on different hosts talk
# over TCP between namespaces. Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN).
#
#   emulated_hosts.sh up N      create hosts 1..N (10.77.0.1 .. 10.77.0.N; mpiexec at .254)
#   emulated_hosts.sh down N    remove them and kill what still runs there (also after a
#                               failed up)
#   emulated_hosts.sh -x HOST CMD...   the launcher: hydra's ssh call, run CMD on HOST
#   emulated_hosts.sh hosts N R   the -hosts argument for N hosts with R ranks each
#
# Host i is named pio-mh<i> (hostname inside) and addressed 10.77.0.<i> (hydra's host name).
set -eu
BRIDGE=pio-mhbr
NET=10.77.0

down() {
  for i in $(seq 1 "$1"); do
    # What a failed test left running there (a rank, a proxy) would keep the namespace, and with
    # it the veth pair, alive after `ip netns del`: the next `up` could not make pio-mhv$i.
    pids=$(ip netns pids "pio-mh$i" 2>/dev/null) || true
    [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
    ip netns del "pio-mh$i" 2>/dev/null || true
    ip link del "pio-mhv$i" 2>/dev/null || true
  done
  ip link del "$BRIDGE" 2>/dev/null || true
}

up() {
  down "$1"
  ip link add "$BRIDGE" type bridge
  ip addr add "$NET.254/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for i in $(seq 1 "$1"); do
    ip netns add "pio-mh$i"
    ip link add "pio-mhv$i" type veth peer name eth0 netns "pio-mh$i"
    ip link set "pio-mhv$i" master "$BRIDGE" up
    ip -n "pio-mh$i" addr add "$NET.$i/24" dev eth0
    ip -n "pio-mh$i" link set eth0 up
    ip -n "pio-mh$i" link set lo up
  done
}

case "${1:-}" in
up) up "$2" ;;
down) down "$2" ;;
hosts)
  list=""
  for i in $(seq 1 "$2"); do list="$list${list:+,}$NET.$i:$3"; done
  echo "$list"
  ;;
-x)
  host=$2
  shift 2
  case $host in
  "$NET".*) i=${host##*.} ;;
  *) echo "emulated_hosts.sh: no emulated host '$host'" >&2; exit 1 ;;
  esac
  # hydra passes the proxy command as words already quoted for a remote shell
  exec ip netns exec "pio-mh$i" unshare --uts sh -c "hostname pio-mh$i && exec $*"
  ;;
*)
  echo "usage: emulated_hosts.sh up N | down N | hosts N R | -x HOST CMD..." >&2
  exit 2
  ;;
esac
