#include "trace_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pio::replay {

int size_class(std::int64_t n) {
  int k = 0;
  while (n > 1) {
    n >>= 1;
    ++k;
  }
  return k;
}

double DirectionSummary::sequential_share() const {
  return followers > 0 ? static_cast<double>(sequential) / static_cast<double>(followers)
                       : std::numeric_limits<double>::quiet_NaN();
}

double DirectionSummary::busy_bandwidth_MiBps() const {
  const double s = busy.seconds();
  return s > 0 ? static_cast<double>(bytes) / s / 1048576.0
               : std::numeric_limits<double>::quiet_NaN();
}

double DirectionSummary::span_bandwidth_MiBps() const {
  const double s = last_end - first_start;
  return ops > 0 && s > 0 ? static_cast<double>(bytes) / s / 1048576.0
                          : std::numeric_limits<double>::quiet_NaN();
}

void TraceSummary::add(const TraceOp &op) {
  if (op.length <= 0)
    return;
  DirectionSummary &d = op.kind == OpKind::Read ? read_ : write_;
  d.first_start = d.ops == 0 ? op.start : std::min(d.first_start, op.start);
  d.last_end = d.ops == 0 ? op.end : std::max(d.last_end, op.end);
  ++d.ops;
  d.bytes += op.length;
  ++d.sizes[size_class(op.length)];
  d.busy.add(op.start, op.end);
  both_.add(op.start, op.end);
  const auto key = std::make_pair(op.rank, static_cast<int>(op.kind));
  const auto it = last_end_.find(key);
  if (it != last_end_.end()) {
    ++d.followers;
    if (it->second == op.offset)
      ++d.sequential;
  }
  last_end_[key] = op.offset + op.length;
}

} // namespace pio::replay
