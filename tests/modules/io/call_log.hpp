#pragma once
/// The MPI-IO data calls the test executable made, in order: each MPI_File_{read,write}* the
/// seam can make is intercepted through MPI's profiling interface (PMPI) and logged by name.

#include <string>
#include <vector>

namespace pio::test {

/// Names of the logged calls since the last clear_calls().
const std::vector<std::string> &calls();
/// Empties the log.
void clear_calls();

} // namespace pio::test
