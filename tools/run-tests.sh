#!/bin/sh
# Builds pio-bench and runs every test (Catch2 under mpiexec -n 1 and 2, and 4 where 4 ranks
# test what 2 cannot: tests/CMakeLists.txt; each with a timeout),
# including the pattern author's example built against the installed tree.
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$PWD/$BUILD/install"
cmake --build "$BUILD" -j"$(nproc)"
cmake --install "$BUILD" >/dev/null
export HWLOC_COMPONENTS=-pci
ctest --test-dir "$BUILD" --output-on-failure -j2 ${CTEST_ARGS:-}
