#pragma once
/// One execution of a b_eff pattern on one rank with each of the three methods of the b_eff
/// paper §4 ("On communication methods"): MPI_Sendrecv, MPI_Alltoallv, and nonblocking
/// MPI_Irecv / MPI_Isend / MPI_Waitall. All three move the same messages: the message of step k
/// goes from send slot k to the receiver's receive slot k.

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

/// The buffers and MPI arguments of one rank's steps at one message length.
class Exchange {
public:
  /// Lays out one send and one receive slot of `length` bytes per step, grouped by peer so that
  /// MPI_Alltoallv sends each peer its messages in one contiguous block, in step order.
  void prepare(MPI_Comm comm, int rank, const std::vector<Step> &steps, std::int64_t length);
  /// Fills every send slot with the stamp of (this rank, step).
  void stamp();
  /// Zeroes the receive slots (so a message that does not arrive is seen).
  void clear_received();
  /// One execution of the pattern with method m.
  void run(Method m);
  /// "" if every receive slot holds the stamp of its sender and step, else what is wrong.
  std::string check() const;
  /// Bytes this rank sends in one execution.
  std::int64_t bytes_sent() const { return sends_ * length_; }

  /// The byte at position i of the message `sender` sends in `step`.
  static unsigned char stamp_byte(int sender, int step, std::int64_t i) {
    return static_cast<unsigned char>(sender * 29 + step * 7 + i + 1);
  }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  std::int64_t length_ = 0, sends_ = 0;
  std::vector<Step> steps_;
  std::vector<std::int64_t> send_at_, recv_at_; ///< slot offsets per step (-1: none)
  std::vector<int> scounts_, sdispls_, rcounts_, rdispls_;
  std::vector<unsigned char> send_, recv_;
  std::vector<MPI_Request> requests_;
};

} // namespace pio::b_eff
