#pragma once
/// What a node is like when a run starts, and what it sees while a test runs
/// (docs/reference/results.md, "Conditions"): its usable cores against the ranks placed on it, its
/// load, CPU frequency governor, a virtual machine's free page reporting, its memory copy rate, CPU
/// pressure and swapping. Read on the node itself; the collective parts run on the node's ranks.

#include <mpi.h>

#include <cstdint>

#include "pio/results.hpp"

namespace pio::harness {

/// Collective over `node` (the run's ranks on one node): the union of their CPU affinity masks
/// and the node's copy rate with every rank copying at once (a short STREAM-like copy, untimed),
/// and, on node rank 0, the rest read from /proc and /sys. Complete on node rank 0 only.
NodeConditions measure_node_conditions(MPI_Comm node);

/// One reading of a node's CPU pressure and swap counters.
struct NodeSample {
  double wall_s = 0;               ///< MPI_Wtime when read
  double cpu_some_us = -1;         ///< /proc/pressure/cpu "some" total, microseconds (-1: none)
  std::int64_t swapped_pages = -1; ///< /proc/vmstat pswpin + pswpout (-1: unreadable)
};

/// Reads this node's counters now (a node's leader, before and after a test).
NodeSample sample_node();

/// The calling thread's time so far runnable but waiting for a CPU (/proc/thread-self/schedstat's
/// run_delay), microseconds; -1 where unreadable.
double own_run_delay_us();

/// The run-queue delay, in nanoseconds, of a /proc/<pid>/schedstat line ("<on cpu ns> <run
/// delay ns> <timeslices>"); -1 for a line that is not one.
double run_delay_ns_of(const std::string &schedstat);

/// CPUs in a cpu list such as "0-3,8" (0 for an empty or bad list).
int cpu_list_count(const std::string &list);

/// cgroup v2's cpu.max text ("max 100000", "200000 100000") as CPUs (0: no quota).
double cpu_quota_of(const std::string &cpu_max);

/// Whether a virtio feature string (one '0'/'1' per bit, bit 0 first, as sysfs shows it) has
/// VIRTIO_BALLOON_F_REPORTING (bit 5).
bool balloon_reports_free_pages(const std::string &features);

} // namespace pio::harness
