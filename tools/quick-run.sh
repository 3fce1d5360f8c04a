#!/bin/sh
# Builds and installs pio-bench (the harness and its modules only, not the test suite), then runs
# conf/quick.conf under mpiexec on a scratch directory it creates, printing the table and where
# the JSON results and the HTML report (pio-report) went.
set -e
cd "$(dirname "$0")/.."
ROOT=$PWD
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$ROOT/build/install" >/dev/null
cmake --build build -j"$(nproc)" --target pio-harness pio_all_modules >/dev/null
# Everything installed is built by those two targets (tests and tools install nothing).
cmake --install build >/dev/null
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/pio-quick-XXXXXX")
cd "$SCRATCH"
export HWLOC_COMPONENTS=-pci
# Ranks not above the cores by default (4 at most): more ranks than cores measure the scheduler,
# and every test would be flagged oversubscribed. NP=4 asks for 4 anyway.
CORES=$(nproc)
NP=${NP:-$([ "$CORES" -lt 4 ] && echo "$CORES" || echo 4)}
# Each rank on a core of its own: MPICH's waiting ranks poll, and unbound ranks queue behind each
# other when one wakes from I/O on the other's CPU (docs/reference/results.md, "Conditions":
# 15-16 of the 38 tests flagged unbound on 2 cores, 2-4 bound). More ranks than cores: let
# waiting ranks yield instead of busy-polling, unbound.
BIND="-bind-to core"
[ "$NP" -le "$CORES" ] || { BIND=""; export MPIR_CVAR_POLLS_BEFORE_YIELD=${MPIR_CVAR_POLLS_BEFORE_YIELD:-1}; }
# shellcheck disable=SC2086
mpiexec $BIND -n "$NP" "$ROOT/build/install/bin/pio-harness" -c "$ROOT/conf/quick.conf"
echo "scratch directory: $SCRATCH (JSON results: $SCRATCH/quick-results.json)"
# One page with the run, its warnings, figures of merit, pictures and tables.
echo "report: $("$ROOT/build/install/bin/pio-report" quick-results.json -o "$SCRATCH/report.html")"
