#pragma once
/// The IMB-MPI1 family's directives (IMB 3.2 User Guide §5.1.2 command line, §5.2.1 settings.h)
/// and their parsed values.

#include <cstdint>
#include <string>
#include <vector>

#include "pio/directive.hpp"

namespace imb {

/// The directives every IMB-MPI1 kernel accepts.
std::vector<pio::DirectiveSpec> directives();

/// A block's methodology settings.
struct Config {
  std::vector<std::int64_t> lengths;   ///< message lengths X (before a kernel's rounding)
  int np_min = 2;                      ///< -npmin
  bool multi = false;                  ///< -multi given
  int outflag = 0;                     ///< -multi <outflag>: 1 = every group in the console
  int px = 0, py = 0;                  ///< -map PxQ (0 = none)
  std::int64_t msgs_per_sample = 1000; ///< MSGSPERSAMPLE (-iter)
  std::int64_t overall_vol = 40 << 20; ///< OVERALL_VOL (-iter)
  double time_limit = 10;              ///< SECS_PER_SAMPLE (-time), 0 = no limit
  bool warm_up = true;                 ///< §5.2.6
  std::int64_t cache_size = 0;         ///< -off_cache size in bytes (0 = off)
  std::int64_t cache_line = 64;        ///< -off_cache line size
  bool root_shift = true;              ///< rotate roots i % np (§3.3.4)
  bool split_scatter = true;           ///< Reduce_scatter splits L (§3.3.4.2)
  bool page_buffers = false;           ///< page-aligned buffers instead of MPI_Alloc_mem's
  std::string mbytes_unit = "MiB";     ///< Mbytes/sec as 2^20 (guide) or 10^6 (IMB 2019+) B/s
};

/// Reads a block's settings (and a MsgLengthsFile) into a Config; throws pio::Error.
Config read_config(const pio::Settings &s);

} // namespace imb
