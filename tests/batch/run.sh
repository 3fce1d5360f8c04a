#!/bin/sh
# ctest entry of the batch-system test: exit 77 (ctest's SKIP_RETURN_CODE) with the reason when
# a private Slurm (slurmctld, slurmd, munged from Debian's slurmctld, slurmd, slurm-client and
# munge packages) cannot run here, else pytest.
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIPPED: Slurm unavailable: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (slurmd runs jobs as their user)"
for c in slurmctld slurmd sbatch munged; do
  command -v $c >/dev/null || skip "no $c (apt-get install slurmctld slurmd slurm-client munge)"
done
exec /usr/bin/python3 -m pytest -q -p no:cacheprovider "$here" "$@"
