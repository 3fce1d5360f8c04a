#pragma once
/// COMMTEST's figure: per series (pairing, experiment, protocol, variant, way) the statistics
/// of statistics.hpp, and the T_N and MiB/s behind the description's graphs (total time vs
/// number of messages, MBytes/second vs message size).

#include <string>
#include <vector>

#include "pio/results.hpp"
#include "plan.hpp"
#include "statistics.hpp"

namespace commtest {

/// Builds the figure from a block's typed results; meta[i] describes the test with index i.
/// T_N is each test's best repetition's t_max (the maximum over the participating processes).
pio::Figure make_figure(const pio::ModuleResult &results, const std::vector<TestMeta> &meta,
                        const StatsChoice &choice, std::vector<std::string> notes);

} // namespace commtest
