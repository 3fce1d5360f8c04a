#pragma once
/// One execution of a b_eff pattern on one rank with each of the three methods of the b_eff
/// paper §4 ("On communication methods"): MPI_Sendrecv, MPI_Alltoallv, and nonblocking
/// MPI_Irecv / MPI_Isend / MPI_Waitall. All three move the same messages: the message of step k
/// goes from send slot k to the receiver's receive slot k.
///
/// Where the bytes live follows b_eff 3.6 (b_eff.c, `base`): the send and receive buffers are
/// (largest length + 16) x 6 bytes each, and every execution takes the next block of them,
/// wrapping to the start, so that a loop moves its messages through memory as a program would
/// rather than sending one slot that stays in the cache. Reusing one slot made the middle
/// lengths (14 kB - 8 MB) about twice as fast as b_eff 3.6 on a 2-rank node
/// (docs/reference/beff.md).

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "patterns.hpp"

namespace pio::b_eff {

/// The three methods of §4, by index.
enum class Method { Sendrecv = 0, Alltoallv = 1, Nonblocking = 2 };

/// "Sendrecv", "Alltoallv", "Irecv/Isend/Waitall".
const char *method_name(Method m);

/// b_eff 3.6's MAXSR: the most messages a process sends in one pattern; its buffers hold this
/// many messages of the largest length.
constexpr std::int64_t kWalkMessages = 6;

/// What each message carries, written before it is sent and checked after it arrives.
enum class Stamp {
  Ends, ///< its first and last byte (b_eff 3.6's check, inside the loop)
  All   ///< every byte (Verify on; the loop then times the stamping too)
};

/// The buffers and MPI arguments of one rank's steps at one message length.
class Exchange {
public:
  /// Allocates (and touches, so no page is first faulted inside a timed loop) the two walked
  /// buffers for messages up to `largest` bytes. Keeps the walk position.
  void reserve(std::int64_t largest);
  /// Lays out one send and one receive slot of `length` bytes per step, grouped by peer so that
  /// MPI_Alltoallv sends each peer its messages in one contiguous block, in step order, each
  /// peer's block 8-byte aligned. Restarts the execution count; the walk goes on.
  void prepare(MPI_Comm comm, int rank, const std::vector<Step> &steps, std::int64_t length,
               Stamp stamp = Stamp::Ends);
  /// One execution of the pattern with method m, in the next block of the buffers: stamps the
  /// messages, moves them, checks what arrived. Returns "" or what arrived wrong (first only).
  std::string run(Method m);
  /// Bytes this rank sends in one execution.
  std::int64_t bytes_sent() const { return sends_ * length_; }
  /// Bytes one execution takes of each buffer (its messages, 8-byte aligned).
  std::int64_t block_bytes() const { return block_; }
  /// Offset of the block the most recent execution used.
  std::int64_t last_block() const { return last_; }
  /// Size of each walked buffer.
  std::int64_t walk_bytes() const { return static_cast<std::int64_t>(send_.size()); }
  /// Where byte i of a step's message sits in the stream the stamps are made for: the sender,
  /// this position and the execution (the generation) give each byte its pio::stamp_byte.
  std::int64_t stream_offset(int step, std::int64_t i) const { return step * length_ + i; }

private:
  void stamp_sends(std::int64_t at);
  std::string check_received(std::int64_t at) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  Stamp stamp_ = Stamp::Ends;
  std::int64_t length_ = 0, sends_ = 0, block_ = 0;
  std::int64_t base_ = 0, last_ = 0, execution_ = 0;
  std::vector<Step> steps_;
  std::vector<std::int64_t> send_at_, recv_at_; ///< slot offsets in a block per step (-1: none)
  std::vector<int> scounts_, sdispls_, rcounts_, rdispls_;
  std::vector<int> send_peers_, recv_peers_;     ///< peers with a block, for the displacements
  std::vector<int> send_peer_at_, recv_peer_at_; ///< their block offsets
  std::vector<unsigned char> send_, recv_;
  std::vector<MPI_Request> requests_;
};

} // namespace pio::b_eff
