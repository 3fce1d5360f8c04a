#pragma once
/// The run's TestFiles checked before any I/O, as the run will meet them: a link, a file not
/// ours, a stale or foreign owner record, a missing directory, or an output file that is also a
/// TestFile, each at the line that names it.

#include <iosfwd>
#include <string>

#include "config/config.hpp"
#include "guard/owned_files.hpp"

namespace pio::harness {

/// The run's output files as decided (an option, else the config), to be kept apart from the
/// TestFiles.
struct OutputFiles {
  std::string results;              ///< the JSON results document
  std::string csv;                  ///< the CSV file ("" = none)
  bool results_from_option = false; ///< given with --results (or -o json=)
  bool csv_from_option = false;     ///< given with -o csv=
};

/// Checks every TestFile of the run (the global one and the blocks' own) through `probe` (which
/// may remove a leftover of a dead run, or only name it under --check, on `note`), and that no
/// output file is also a TestFile. Throws ConfigError at the TestFile's line (or the output's
/// own line for the default TestFile), or pio::Error for the default TestFile with no line.
void check_test_files(const Config &config, const OutputFiles &outputs, OwnedFiles &probe,
                      std::ostream *note);

} // namespace pio::harness
