#pragma once
// A replayed trace as the pattern engine's Geometry: run rank r's unit u is its u-th operation
// in replay order, one extent (docs/guides/replay.md). The units of a rank with fewer operations
// are empty. Reads of the trace (which several ranks may make of the same bytes) are prepared by
// rank 0 alone and checked against its stamps; with Timing recorded or scaled each unit is
// released at its recorded start.

#include <cstdint>
#include <memory>
#include <vector>

#include "op_store.hpp"
#include "pio/patterns/geometry.hpp"

namespace pio::replay {

/// The replay's Geometry over an OpStore.
class ReplayGeometry : public patterns::Geometry {
public:
  /// `ranks` run ranks, at most `units` operations each; `shared_reads`: every byte is rank
  /// 0's data; `scale` < 0: as fast as possible, else unit u of rank r is released at
  /// (start - first_start) x scale seconds.
  ReplayGeometry(std::shared_ptr<const OpStore> store, int ranks, std::int64_t units,
                 bool shared_reads, double first_start, double scale);
  std::vector<patterns::Extent> extents(int rank, std::int64_t unit) const override;
  int data_rank(int rank, std::int64_t unit) const override;
  std::vector<patterns::Extent> prepares(int rank, std::int64_t unit) const override;
  double release_time(int rank, std::int64_t unit) const override;

private:
  bool has(int rank, std::int64_t unit) const;
  std::shared_ptr<const OpStore> store_;
  int ranks_;
  std::int64_t units_;
  bool shared_reads_;
  double first_start_, scale_;
};

} // namespace pio::replay
