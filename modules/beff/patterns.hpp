#pragma once
/// b_eff's communication patterns (b_eff paper §4, "On communication patterns"), MPI-free: the six
/// ring patterns on a one-dimensional cyclic topology of the ranks, the random patterns (the same
/// ring communication on randomly permuted ranks) and the additional patterns reported but not
/// averaged (worst-case cycle, best and worst bi-section, 2-D and 3-D Cartesian partitionings,
/// ping-pong between the first two processes).
///
/// A pattern is, per rank, a list of steps; in step k a rank sends one message of L bytes to
/// `to` and receives one from `from` (either may be kNone). Every pattern keeps the invariant
/// that the message rank r sends in step k is the one rank `to` receives in its step k, so each
/// method can match messages by step (tag) and all three methods move the same messages.

#include <cstdint>
#include <string>
#include <vector>

namespace pio::b_eff {

/// No partner in a step (MPI_PROC_NULL).
constexpr int kNone = -1;

/// Which average a pattern enters (§4: b_eff averages rings and random patterns separately).
enum class Family { Ring, Random, Extra };

/// One step of one rank: send a message to `to`, receive one from `from`.
struct Step {
  int to = kNone;   ///< destination rank, or kNone
  int from = kNone; ///< source rank, or kNone
};

/// A communication pattern on the first `participants` ranks.
struct Pattern {
  std::string name;                     ///< e.g. "ring-1", "random-3", "cart2d-x"
  Family family = Family::Ring;         ///< which average it enters
  int participants = 0;                 ///< ranks 0 .. participants-1 take part
  std::string layout;                   ///< e.g. "2*2+1*3" (ring sizes), "3x2" (grid)
  bool sendrecv_only = false;           ///< ping-pong: measured with MPI_Sendrecv only
  std::vector<std::vector<Step>> steps; ///< per participating rank

  /// Total number of messages of the pattern (§4: "total number of messages of a pattern").
  std::int64_t messages() const;
};

/// The standard ring size of ring pattern k = 1..6 for n processes (§4): 2, 4, 8,
/// min(max(16, n/4), n), min(max(32, n/2), n), n (each at most n).
int standard_ring_size(int k, int n);

/// The ring sizes of ring pattern k = 1..6 for n processes, in rank order (§4): rings of the
/// standard size m, the remainder spread as rings of m-1 or m+1 - the rule of b_eff's
/// ring_numbers.c [19]: rings = max(1, min(floor(n/m + 0.4), n/2)), the sizes n/rings and
/// n/rings + 1, the larger first when the smaller is odd. Pattern 2 with n <= 7 is one ring (§4).
std::vector<int> ring_sizes(int k, int n);

/// A ring pattern over `order` (the ranks in ring order) cut into rings of `sizes`: each process
/// sends to its left neighbour and receives from its right neighbour, then sends back to its
/// right neighbour and receives from its left (§4). Left = previous in the ring. In a ring of
/// two (or one) left and right are the same process: one message, as b_eff 3.6 has it.
Pattern ring_pattern(const std::string &name, Family family, const std::vector<int> &order,
                     const std::vector<int> &sizes);

/// Ring pattern k = 1..6 on the 1-D cyclic topology of n ranks (§4).
Pattern ring(int k, int n);

/// A random permutation of 0..n-1, reproducible from the seed (Fisher-Yates on mt19937_64).
std::vector<int> random_order(int n, std::uint64_t seed);

/// Random pattern k (1-based): one ring of all n processes sorted by random ranks (§4), the
/// permutation drawn from seed and k.
Pattern random_ring(int k, int n, std::uint64_t seed);

/// The worst-case cycle: one ring in the order 0, n-1, 1, n-2, ... (§4 additional patterns).
Pattern worst_cycle(int n);

/// Best bi-section: pairs (0,1), (2,3), ... of the first n/2*2 ranks, ping then pong.
Pattern best_bisection(int n);

/// Worst bi-section: pairs (0,m-1), (1,m-2), ... of the first m = n/2*2 ranks, ping then pong.
Pattern worst_bisection(int n);

/// A balanced factorisation of n into ndims factors, largest first (as MPI_Dims_create).
std::vector<int> balanced_dims(int n, int ndims);

/// Processes used for an ndims Cartesian partitioning of n: the largest c <= n whose balanced
/// grid has no extent 1 in its last dimension, or c < 4, or c even and c < 8.
int cartesian_participants(int n, int ndims);

/// The periodic Cartesian partitioning of ndims dimensions: ping-pong with the neighbours in one
/// direction (0 = x, 1 = y, 2 = z), or in all directions together (direction = -1). Empty steps
/// when the grid has extent 1 in that direction.
Pattern cartesian(int n, int ndims, int direction);

/// Ping-pong between the first two processes (§4 additional patterns); MPI_Sendrecv only.
Pattern ping_pong();

/// What to build.
struct PatternChoice {
  bool rings = true;      ///< the six ring patterns
  bool random = true;     ///< the random patterns
  bool extra = true;      ///< the additional patterns
  int random_count = 6;   ///< number of random patterns
  std::uint64_t seed = 1; ///< seed of the random patterns
};

/// Every pattern for n processes in measuring order: rings 1-6, random 1..R, then the extra
/// patterns that exist for n (bi-sections and ping-pong need 2 processes, a direction needs an
/// extent of 2 or more).
std::vector<Pattern> all_patterns(int n, const PatternChoice &choice);

} // namespace pio::b_eff
