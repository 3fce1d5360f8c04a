// The clock of a window's unit boundaries (harness/run/window_clock.hpp): its readings ascend
// and, converted by the window's two MPI_Wtime anchors, measure what MPI_Wtime measures.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "mpi_test.hpp"
#include "run/window_clock.hpp"

using pio::harness::WindowClock;
using pio::test::all_ranks;

TEST_CASE("WindowClock: readings ascend, and a sleep converted by the window's anchors lies "
          "between the sleep and MPI_Wtime's bracket of the window",
          "[window_clock]") {
  INFO("ticks: " << (WindowClock::is_tsc() ? "the time-stamp counter" : "CLOCK_MONOTONIC"));
  const double before = MPI_Wtime();
  WindowClock clock;
  double last = clock.now();
  bool ascending = last >= 0;
  for (int i = 0; i < 1000; ++i) {
    const double t = clock.now();
    ascending = ascending && t >= last;
    last = t;
  }
  const double slept_from = clock.now();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double slept_to = clock.now();
  CHECK(clock.seconds_per_tick_so_far() > 0);
  clock.close();
  const double after = MPI_Wtime();
  const double spt = clock.seconds_per_tick();
  const double slept = (slept_to - slept_from) * spt;
  CHECK(ascending);
  CHECK(spt > 0);
  // A sleep of 20 ms lasts at least 20 ms on any clock; the readings lie inside the window, so
  // their converted span is at most MPI_Wtime's bracket around it (1 us for the anchors' reads).
  CHECK(slept >= 0.020 * (1 - 1e-6));
  CHECK(slept_to * spt <= after - before + 1e-6);
  REQUIRE(all_ranks(ascending && spt > 0 && slept >= 0.020 * (1 - 1e-6) &&
                    slept_to * spt <= after - before + 1e-6));
}
