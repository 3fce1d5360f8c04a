#include "exchange.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "pio/mpi_handles.hpp"

namespace pio::b_eff {

const char *method_name(Method m) {
  switch (m) {
  case Method::Sendrecv:
    return "Sendrecv";
  case Method::Alltoallv:
    return "Alltoallv";
  default:
    return "Irecv/Isend/Waitall";
  }
}

namespace {

/// Offsets of the steps whose peer (to or from) is set, ordered by (peer, step); -1 elsewhere.
/// Fills counts / displacements per peer in units of length bytes.
std::vector<std::int64_t> layout(const std::vector<Step> &steps, bool sending, std::int64_t length,
                                 std::vector<int> &counts, std::vector<int> &displs) {
  std::vector<size_t> order(steps.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto peer = [&](size_t k) { return sending ? steps[k].to : steps[k].from; };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return peer(a) < peer(b); });
  std::vector<std::int64_t> at(steps.size(), -1);
  std::fill(counts.begin(), counts.end(), 0);
  std::fill(displs.begin(), displs.end(), 0);
  std::int64_t next = 0;
  for (size_t k : order) {
    const int p = peer(k);
    if (p == kNone)
      continue;
    at[k] = next;
    if (counts[static_cast<size_t>(p)] == 0)
      displs[static_cast<size_t>(p)] = static_cast<int>(next);
    counts[static_cast<size_t>(p)] += static_cast<int>(length);
    next += length;
  }
  return at;
}

} // namespace

void Exchange::prepare(MPI_Comm comm, int rank, const std::vector<Step> &steps,
                       std::int64_t length) {
  comm_ = comm;
  rank_ = rank;
  steps_ = steps;
  length_ = length;
  int size = 1;
  MPI_Comm_size(comm, &size);
  scounts_.assign(static_cast<size_t>(size), 0);
  sdispls_ = rcounts_ = rdispls_ = scounts_;
  send_at_ = layout(steps_, true, length, scounts_, sdispls_);
  recv_at_ = layout(steps_, false, length, rcounts_, rdispls_);
  sends_ = std::count_if(steps_.begin(), steps_.end(), [](const Step &s) { return s.to != kNone; });
  const auto receives =
      std::count_if(steps_.begin(), steps_.end(), [](const Step &s) { return s.from != kNone; });
  // Keep capacity across tests: only grow (the largest length comes last).
  send_.resize(static_cast<size_t>(std::max<std::int64_t>(1, sends_ * length)));
  recv_.resize(static_cast<size_t>(std::max<std::int64_t>(1, receives * length)));
  requests_.resize(2 * steps_.size());
}

void Exchange::stamp() {
  for (size_t k = 0; k < steps_.size(); ++k)
    if (send_at_[k] >= 0) {
      unsigned char *p = send_.data() + send_at_[k];
      for (std::int64_t i = 0; i < length_; ++i)
        p[i] = stamp_byte(rank_, static_cast<int>(k), i);
    }
}

void Exchange::clear_received() { std::memset(recv_.data(), 0, recv_.size()); }

void Exchange::run(Method m) {
  const int count = static_cast<int>(length_);
  if (m == Method::Sendrecv) {
    // §4: with MPI_Sendrecv the messages of a rank go one after the other.
    for (size_t k = 0; k < steps_.size(); ++k) {
      const Step &s = steps_[k];
      const int tag = static_cast<int>(k);
      if (s.from == kNone && s.to == kNone)
        continue;
      if (s.from == kNone)
        mpi_check(MPI_Send(send_.data() + send_at_[k], count, MPI_BYTE, s.to, tag, comm_),
                  "MPI_Send");
      else if (s.to == kNone)
        mpi_check(MPI_Recv(recv_.data() + recv_at_[k], count, MPI_BYTE, s.from, tag, comm_,
                           MPI_STATUS_IGNORE),
                  "MPI_Recv");
      else
        mpi_check(MPI_Sendrecv(send_.data() + send_at_[k], count, MPI_BYTE, s.to, tag,
                               recv_.data() + recv_at_[k], count, MPI_BYTE, s.from, tag, comm_,
                               MPI_STATUS_IGNORE),
                  "MPI_Sendrecv");
    }
  } else if (m == Method::Alltoallv) {
    mpi_check(MPI_Alltoallv(send_.data(), scounts_.data(), sdispls_.data(), MPI_BYTE, recv_.data(),
                            rcounts_.data(), rdispls_.data(), MPI_BYTE, comm_),
              "MPI_Alltoallv");
  } else {
    int n = 0;
    for (size_t k = 0; k < steps_.size(); ++k)
      if (steps_[k].from != kNone)
        mpi_check(MPI_Irecv(recv_.data() + recv_at_[k], count, MPI_BYTE, steps_[k].from,
                            static_cast<int>(k), comm_, &requests_[static_cast<size_t>(n++)]),
                  "MPI_Irecv");
    for (size_t k = 0; k < steps_.size(); ++k)
      if (steps_[k].to != kNone)
        mpi_check(MPI_Isend(send_.data() + send_at_[k], count, MPI_BYTE, steps_[k].to,
                            static_cast<int>(k), comm_, &requests_[static_cast<size_t>(n++)]),
                  "MPI_Isend");
    mpi_check(MPI_Waitall(n, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }
}

std::string Exchange::check() const {
  for (size_t k = 0; k < steps_.size(); ++k) {
    if (recv_at_[k] < 0)
      continue;
    const unsigned char *p = recv_.data() + recv_at_[k];
    for (std::int64_t i = 0; i < length_; ++i)
      if (p[i] != stamp_byte(steps_[k].from, static_cast<int>(k), i))
        return "rank " + std::to_string(rank_) + ", step " + std::to_string(k) + ": byte " +
               std::to_string(i) + " of the message from rank " + std::to_string(steps_[k].from) +
               " is " + std::to_string(p[i]) + ", expected " +
               std::to_string(stamp_byte(steps_[k].from, static_cast<int>(k), i));
  }
  return {};
}

} // namespace pio::b_eff
