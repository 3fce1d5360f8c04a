#pragma once
/// IMB's methodology as pure functions (IMB 3.2 User Guide §5): message lengths, repetition
/// counts, warm-up, process counts, -multi / -map groups, -off_cache buffer layout. No MPI calls,
/// so each rule is unit-tested against the guide's formula.

#include <cstdint>
#include <string>
#include <vector>

#include <mpi.h>

#include "pio/mpi_handles.hpp"
#include "pio/spec.hpp"

namespace imb {

/// IMB's default lengths (§5.2.1 Table 19): 0, then 2^min_log .. 2^max_log.
std::vector<std::int64_t> log_lengths(int min_log, int max_log);

/// The lengths of a -msglen file (§5.1.2.9): one non-negative length a line, '#' comments.
std::vector<std::int64_t> parse_lengths(const std::string &text, const std::string &where);

/// The lengths a kernel runs: reductions round up to whole floats (§5.2.1 MINMSGLOG: the unit
/// is sizeof(float)), dropping repeats, order kept.
std::vector<std::int64_t> kernel_lengths(const std::vector<std::int64_t> &lengths,
                                         std::int64_t unit);

/// n_sample (§5.2.1 Table 19, §5.2.8): MSGSPERSAMPLE for X = 0, else
/// min(MSGSPERSAMPLE, max(1, OVERALL_VOL / X)).
std::int64_t sample_count(std::int64_t x, std::int64_t msgs_per_sample, std::int64_t overall_vol);

/// Repetitions of the timing probe (§5.1.2.6: "preparatory runs that use ~1 second"): as many
/// operations as fit in one second at `t_one` seconds each (1000 below 1 ms), at most n_sample.
std::int64_t probe_count(std::int64_t n_sample, double t_one);
/// Seconds per operation for the run-time limit (§5.1.2.6): one operation, then as many as fit
/// in about a second (probe_count), the slowest rank of `all` deciding. `timed(n)` runs n
/// operations and returns their seconds on this rank.
template <class Timed>
double probe_time_per_op(MPI_Comm all, std::int64_t n_sample, Timed &&timed) {
  double mine = timed(1), t_one = 0;
  pio::mpi_check(MPI_Allreduce(&mine, &t_one, 1, MPI_DOUBLE, MPI_MAX, all), "MPI_Allreduce");
  double t_op = t_one;
  const std::int64_t probe = probe_count(n_sample, t_one);
  if (probe > 1) {
    mine = timed(probe) / static_cast<double>(probe);
    pio::mpi_check(MPI_Allreduce(&mine, &t_op, 1, MPI_DOUBLE, MPI_MAX, all), "MPI_Allreduce");
  }
  return t_op;
}

/// The run-time limit (§5.1.2.6, SECS_PER_SAMPLE): n_sample cut to 1 + secs / t_op, and never
/// above the previous length's count of the same table (`previous`, 0 = first length).
std::int64_t time_limited_count(std::int64_t n_sample, double t_op, double secs,
                                std::int64_t previous);

/// Warm-up operations (§5.2.6; IMB 2019+: WARMUP_PERCENT 10, MIN_WARMUP_ITERS 10):
/// n_sample / 10, at least min(10, n_sample).
std::int64_t warmup_count(std::int64_t n_sample);

/// Process counts (§5.1.1, §5.1.2.2): P_min, 2 P_min, 4 P_min, ... below P, then P
/// (P_min > P counts as P). Single transfers run on 2 processes only (empty below 2).
std::vector<int> process_counts(int world, int np_min, bool single_transfer);

/// A -map PxQ position (§5.1.2.10): world rank w is numbered along the rows of a P x Q matrix,
/// so that consecutive positions alternate between the Q blocks of P ranks. Identity when
/// P or Q is 1 (or no map: px = py = 0).
int map_position(int world_rank, int px, int py);

/// The ranks running a test of `np` processes (§5.2.2): without -multi the first np positions,
/// one group; with -multi world / np groups of np consecutive positions (§5.1.2.3).
pio::RankGroups rank_groups(int world, int np, bool multi, int px, int py);

/// Each group's world ranks in -map order, as IMB lists them under a Multi- table ("# Group  0:
/// 0 1"): one list per group, e.g. {{0, 1}, {2, 3}}.
std::vector<std::vector<int>> group_ranks(const pio::RankGroups &groups, int px, int py);

/// group_ranks as text for a test's params: groups separated by ';', ranks by spaces, "0 1;2 3".
std::string group_members(const pio::RankGroups &groups, int px, int py);

/// What IMB's methodology decides of a test's table (IMB 3.2 User Guide §6): the -multi output
/// flag's rows, the groups' ranks under a Multi- title (several groups) and the Mbytes/sec unit
/// ("MiB" or "MB"). The kernel or benchmark adds its title, columns and mode.
pio::ImbTable methodology_table(const pio::RankGroups &groups, bool multi, int outflag, int px,
                                int py, const std::string &mbytes_unit);

/// The -off_cache layout of one buffer (§5.1.2.4): each message starts at least one cache line
/// past the previous one's end, cycling through ~2 x cache_size bytes.
struct CacheLayout {
  std::int64_t stride = 0; ///< bytes between consecutive messages' starts (0: no cycling)
  std::int64_t slots = 1;  ///< distinct message positions cycled through
  /// Bytes to allocate for `length` bytes per message.
  std::int64_t bytes(std::int64_t length) const { return slots > 1 ? slots * stride : length; }
};

/// The layout for messages of `length` bytes (cache_size 0 = off_cache off).
CacheLayout cache_layout(std::int64_t length, std::int64_t cache_size, std::int64_t line,
                         std::int64_t n_sample);

} // namespace imb
