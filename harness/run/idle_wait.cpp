// Waiting for a non-blocking collective with heartbeats (idle_wait.hpp).
#include "run/idle_wait.hpp"

#include <algorithm>
#include <thread>

#include "guard/position.hpp"

namespace pio::harness {

void wait_alive(MPI_Request &request, const char *step, std::chrono::microseconds longest) {
  heartbeat_wait();
  auto pause = std::min(std::chrono::microseconds(50), longest);
  for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done;) {
    heartbeat(step);
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, longest);
  }
}

} // namespace pio::harness
