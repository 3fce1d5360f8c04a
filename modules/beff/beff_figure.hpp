#pragma once
/// The b_eff figure (b_eff paper §4 and Table 1), MPI-free: computed from the block's typed
/// results (each repetition's maximum over processes of the loop time) and what the module knows
/// about each test (pattern, length, method, looplength), never from strings read back.

#include <cstdint>
#include <string>
#include <vector>

#include "averaging.hpp"
#include "pio/results.hpp"

namespace pio::b_eff {

/// What one test measures: TestResult::index selects it.
struct TestMeta {
  int pattern = 0; ///< index into FigureFacts::patterns
  int length = 0;  ///< index into FigureFacts::lengths (0 .. 20)
  int method = 0;  ///< index into FigureFacts::methods
};

/// What the module knows about the run.
struct FigureFacts {
  std::vector<PatternInfo> patterns;                  ///< in measuring order
  std::vector<std::int64_t> lengths;                  ///< the 21 message lengths
  std::vector<bool> measured;                         ///< per length: measured in this run
  std::vector<std::string> methods;                   ///< method names by index
  std::vector<TestMeta> tests;                        ///< per test index
  std::vector<std::vector<std::int64_t>> looplengths; ///< [test index][rep]
  int processes = 0;                                  ///< size of MPI_COMM_WORLD
  std::int64_t memory_per_process = 0;                ///< bytes (0 when L_max was set directly)
  std::string memory_source;                          ///< how it was found
  std::uint64_t seed = 0;                             ///< seed of the random patterns
  std::int64_t walk_bytes = 0;                        ///< size of each walked message buffer
  bool stamps_every_byte = false;                     ///< Verify: loops stamp and check all bytes
};

/// b(pat, L, mthd, rep) of every completed repetition, maximised over reps and methods (§4).
Curves curves_from(const FigureFacts &facts, const ModuleResult &results);

/// The figure: values (b_eff first, then the Table 1 columns, the ring and random averages),
/// tables ("Table 1", "b_eff per message length", "patterns", "methods", "protocol": b per
/// pattern, length and method) and notes. Bandwidths in MB/s = 10^6 bytes/s as in the paper.
Figure make_figure(const FigureFacts &facts, const ModuleResult &results);

} // namespace pio::b_eff
