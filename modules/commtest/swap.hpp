#pragma once
/// One SWAP experiment between two processes (COMMTEST description): a fixed volume exchanged in
/// N messages of volume / N bytes, each message sent `repeats` times in an inner loop, by a
/// protocol of protocols.hpp, in its basic form or reorganised (receives pre-posted one message
/// ahead, sends completed one message late).

#include <mpi.h>

#include <array>
#include <cstdint>
#include <vector>

#include "protocols.hpp"

namespace commtest {

/// What a Swap exchanges, and how.
struct SwapPlan {
  const Protocol *protocol = nullptr; ///< the protocol
  bool reorganised = false;           ///< the reorganised variant (needs reorganisable())
  std::int64_t volume = 0;            ///< bytes each processor sends (and receives)
  std::int64_t messages = 1;          ///< N: messages the volume is split into
  std::int64_t repeats = 1;           ///< sends of each message, in an inner loop
  /// Bytes of one message.
  std::int64_t message_bytes() const { return volume / messages; }
};

/// A SWAP between the two ranks of `comm` (rank 0 is processor 1 of the ordered protocols).
/// The buffers belong to the caller and must hold plan.volume bytes. Message i moves bytes
/// [i * message_bytes, (i+1) * message_bytes) of the send buffer to the same bytes of the
/// partner's receive buffer, so the whole volume moves linearly through memory.
class Swap {
public:
  /// comm: a communicator of exactly two ranks.
  Swap(const SwapPlan &plan, MPI_Comm comm, const std::uint8_t *send, std::uint8_t *recv);
  ~Swap();
  Swap(const Swap &) = delete;
  Swap &operator=(const Swap &) = delete;

  /// Untimed, before the barrier: the reorganised variant's "Prepost one receive request".
  void prepare();
  /// Timed: the exchange itself. Returns the bytes this rank sent.
  std::int64_t run();

private:
  /// Transfer k sends message k / repeats.
  std::int64_t offset(std::int64_t k) const;
  /// Where transfer k is received.
  std::uint8_t *recv_target(std::int64_t k);
  void post_recv(std::int64_t k, MPI_Request *req);
  void recv_now(std::int64_t k);
  void handshake();
  /// Starts (or, for a blocking call, does) the send of transfer k; req gets a nonblocking
  /// call's request, MPI_REQUEST_NULL otherwise.
  void send(SendCall call, std::int64_t k, MPI_Request *req);
  void basic(std::int64_t k);
  void reorganised_step(std::int64_t k);

  SwapPlan plan_;
  MPI_Comm comm_;
  int rank_ = 0, partner_ = 1;
  int count_ = 0; ///< message bytes as an MPI count
  const std::uint8_t *send_;
  std::uint8_t *recv_;
  std::vector<std::uint8_t> bsend_;   ///< attached for MPI_BSEND
  std::vector<std::uint8_t> scratch_; ///< reorganised repeats: the odd repeats' receive
  std::array<MPI_Request, 2> rreq_{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::array<MPI_Request, 2> sreq_{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

} // namespace commtest
