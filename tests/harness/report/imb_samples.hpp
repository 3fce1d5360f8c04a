#pragma once
/// Fixed typed runs of IMB-EXT, IMB-IO and -multi 1 blocks for the IMB table's approval tests.

#include "pio/results.hpp"

namespace pio::test {

/// IMB-EXT and IMB-IO blocks on 2 processes: Unidir_Put in aggregate and non-aggregate mode,
/// Window (no mode), S_Write_indv on 1 of the 2 processes, P_Read_shared and Open_Close.
RunResult imb_modes_run();

/// IMB-MPI1 with Multi 1 (outflag 1) on 4 processes: Multi-PingPong (2 groups of 2, two
/// lengths), Sendrecv on all 4 (one group), Multi-Barrier; every group's times in the results.
RunResult imb_multi_run();

} // namespace pio::test
