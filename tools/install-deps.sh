#!/bin/sh
# Installs what pio-bench needs to build and test on Debian 12 (Debian packages only).
# chromium and python3-websocket: the browser test of pio-report's page (tests/tools).
# python3-pytest-xdist: the tools' tests on two workers (tests/tools).
# python3-optuna: pio-tune's search (docs/guides/tuning.md); python3-sklearn: Optuna's parameter
# importances. libhdf5-mpich-dev: parallel HDF5 built for this MPICH (the hdf5 I/O interface,
# pio::io). liburing-dev: the io_uring backend (backends/io_uring; without it that backend is not
# built). iproute2 and util-linux: the emulated hosts of tests/multihost (network + UTS namespaces);
# strace: the multihost test that only rank 0 reads the config and manifests, the replay's strace
# tests (tests/modules/replay) and tools/dev/bench-replay.sh; time: bench-startup;
# slurmctld, slurmd, slurm-client and munge: the private Slurm of tests/batch.
# clang-tidy: the harness's function sizes (tools/dev/check-function-sizes.sh, tests/harness).
# glusterfs-server, glusterfs-client, xfsprogs and btrfs-progs: the file-system lab
# (tools/pio-fslab, tests/fslab; without recommends: no NFS-Ganesha, no samba hooks).
set -e
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
  g++ cmake make pkg-config mpich libmpich-dev libdotconf-dev libboost-dev \
  libboost-filesystem-dev catch2 nlohmann-json3-dev libcli11-dev libhdf5-mpich-dev liburing-dev \
  python3 python3-numpy python3-scipy python3-matplotlib python3-pytest python3-pytest-xdist \
  python3-optuna python3-sklearn \
  chromium python3-websocket iproute2 util-linux strace time slurmctld slurmd slurm-client munge \
  clang-tidy >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  glusterfs-server glusterfs-client xfsprogs btrfs-progs >/dev/null
