#pragma once
/// A fixed, hand-made typed run for the reporters' approval tests, and a replay of it through a
/// reporter in the order the runner calls it.

#include "pio/results.hpp"
#include "report/reporter.hpp"

namespace pio::test {

/// Three blocks: an I/O table block (two tests of two repetitions with parameters and hints,
/// one failed test, a figure), an IMB block (PingPong, Multi-PingPong, Allreduce, Barrier,
/// Sendrecv) and a block that failed in init_module. The run failed (exit code 1).
RunResult sample_run();

/// Calls r as the runner would while `run` is measured: run_started with no blocks, then per
/// block block_started (no tests yet), test_finished per test, block_finished (figure and error
/// set), and run_finished; the results passed are complete up to each event.
void replay(const RunResult &run, harness::Reporter &r);

} // namespace pio::test
