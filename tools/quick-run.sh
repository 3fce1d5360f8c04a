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
# More ranks than cores: let MPICH's waiting ranks yield instead of busy-polling.
[ "$NP" -le "$CORES" ] || export MPIR_CVAR_POLLS_BEFORE_YIELD=${MPIR_CVAR_POLLS_BEFORE_YIELD:-1}
mpiexec -n "$NP" "$ROOT/build/install/bin/pio-harness" -c "$ROOT/conf/quick.conf"
echo "scratch directory: $SCRATCH (JSON results: $SCRATCH/quick-results.json)"
# One page with the run, its warnings, figures of merit, pictures and tables.
echo "report: $("$ROOT/build/install/bin/pio-report" quick-results.json -o "$SCRATCH/report.html")"
