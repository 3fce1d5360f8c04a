#include "report/save_schedule.hpp"

namespace pio::harness {

bool SaveSchedule::due(Clock::time_point now) const {
  if (!any_ || last_bytes_ < kSmallBytes)
    return true;
  return std::chrono::duration<double>(now - last_end_).count() >= kRatio * last_cost_;
}

void SaveSchedule::saved(Clock::time_point start, Clock::time_point end, std::size_t bytes) {
  any_ = true;
  last_bytes_ = bytes;
  last_end_ = end;
  last_cost_ = std::chrono::duration<double>(end - start).count();
}

} // namespace pio::harness
