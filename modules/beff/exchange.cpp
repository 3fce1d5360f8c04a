#include "exchange.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "pio/mpi_handles.hpp"
#include "pio/stamp.hpp"

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

std::int64_t align8(std::int64_t n) { return (n + 7) / 8 * 8; }

/// One side's slots in a block: per step its offset (-1: no peer), per peer its count, and the
/// peers in order with their block offsets.
struct Layout {
  std::vector<std::int64_t> at;
  std::vector<int> peers, peer_at;
  std::int64_t end = 0;
};

/// The steps whose peer (to or from) is set, ordered by (peer, step); a peer's messages are
/// contiguous and start 8-byte aligned (b_eff 3.6 aligns every message: Msglng8). Fills counts
/// per peer in bytes.
Layout layout(const std::vector<Step> &steps, bool sending, std::int64_t length,
              std::vector<int> &counts) {
  std::vector<size_t> order(steps.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto peer = [&](size_t k) { return sending ? steps[k].to : steps[k].from; };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return peer(a) < peer(b); });
  Layout out;
  out.at.assign(steps.size(), -1);
  std::fill(counts.begin(), counts.end(), 0);
  for (size_t k : order) {
    const int p = peer(k);
    if (p == kNone)
      continue;
    if (counts[static_cast<size_t>(p)] == 0) {
      out.end = align8(out.end);
      out.peers.push_back(p);
      out.peer_at.push_back(static_cast<int>(out.end));
    }
    out.at[k] = out.end;
    counts[static_cast<size_t>(p)] += static_cast<int>(length);
    out.end += length;
  }
  return out;
}

} // namespace

void Exchange::reserve(std::int64_t largest) {
  const auto bytes = static_cast<size_t>((largest + 16) * kWalkMessages);
  if (send_.size() >= bytes)
    return;
  // value-initialised: every page written once here, untimed
  send_.assign(bytes, 0);
  recv_.assign(bytes, 0);
  base_ = 0;
}

void Exchange::prepare(MPI_Comm comm, int rank, const std::vector<Step> &steps, std::int64_t length,
                       Stamp stamp) {
  comm_ = comm;
  rank_ = rank;
  steps_ = steps;
  length_ = length;
  stamp_ = stamp;
  execution_ = 0;
  int size = 1;
  MPI_Comm_size(comm, &size);
  scounts_.assign(static_cast<size_t>(size), 0);
  sdispls_ = rcounts_ = rdispls_ = scounts_;
  const Layout sends = layout(steps_, true, length, scounts_);
  const Layout receives = layout(steps_, false, length, rcounts_);
  send_at_ = sends.at;
  recv_at_ = receives.at;
  send_peers_ = sends.peers;
  send_peer_at_ = sends.peer_at;
  recv_peers_ = receives.peers;
  recv_peer_at_ = receives.peer_at;
  sends_ = std::count_if(steps_.begin(), steps_.end(), [](const Step &s) { return s.to != kNone; });
  block_ = std::max<std::int64_t>(8, align8(std::max(sends.end, receives.end)));
  if (static_cast<std::int64_t>(send_.size()) < block_)
    reserve(std::max(length, block_));
  requests_.resize(2 * steps_.size());
}

void Exchange::stamp_sends(std::int64_t at) {
  for (size_t k = 0; k < steps_.size(); ++k) {
    if (send_at_[k] < 0)
      continue;
    unsigned char *p = send_.data() + at + send_at_[k];
    const std::int64_t from = stream_offset(static_cast<int>(k), 0);
    const int generation = static_cast<int>(execution_);
    if (stamp_ == Stamp::All)
      stamp_fill(p, length_, rank_, from, generation);
    else {
      p[0] = stamp_byte(rank_, from, generation);
      p[length_ - 1] = stamp_byte(rank_, from + length_ - 1, generation);
    }
  }
}

std::string Exchange::check_received(std::int64_t at) const {
  for (size_t k = 0; k < steps_.size(); ++k) {
    if (recv_at_[k] < 0)
      continue;
    const unsigned char *p = recv_.data() + at + recv_at_[k];
    const int from = steps_[k].from, generation = static_cast<int>(execution_);
    const std::int64_t start = stream_offset(static_cast<int>(k), 0), last = length_ - 1;
    auto expected = [&](std::int64_t i) { return stamp_byte(from, start + i, generation); };
    std::int64_t bad = -1;
    if (stamp_ == Stamp::All)
      bad = stamp_mismatch(p, length_, from, start, generation);
    else if (p[0] != expected(0))
      bad = 0;
    else if (p[last] != expected(last))
      bad = last;
    if (bad >= 0)
      return "rank " + std::to_string(rank_) + ", step " + std::to_string(k) + ", execution " +
             std::to_string(execution_) + ": byte " + std::to_string(bad) +
             " of the message from rank " + std::to_string(from) + " is " + std::to_string(p[bad]) +
             ", expected " + std::to_string(expected(bad));
  }
  return {};
}

std::string Exchange::run(Method m) {
  if (base_ + block_ > static_cast<std::int64_t>(send_.size()))
    base_ = 0;
  const std::int64_t at = last_ = base_;
  base_ += block_;
  stamp_sends(at);
  unsigned char *send = send_.data() + at, *recv = recv_.data() + at;
  const int count = static_cast<int>(length_);
  if (m == Method::Sendrecv) {
    // §4: with MPI_Sendrecv the messages of a rank go one after the other.
    for (size_t k = 0; k < steps_.size(); ++k) {
      const Step &s = steps_[k];
      const int tag = static_cast<int>(k);
      if (s.from == kNone && s.to == kNone)
        continue;
      if (s.from == kNone)
        mpi_check(MPI_Send(send + send_at_[k], count, MPI_BYTE, s.to, tag, comm_), "MPI_Send");
      else if (s.to == kNone)
        mpi_check(
            MPI_Recv(recv + recv_at_[k], count, MPI_BYTE, s.from, tag, comm_, MPI_STATUS_IGNORE),
            "MPI_Recv");
      else
        mpi_check(MPI_Sendrecv(send + send_at_[k], count, MPI_BYTE, s.to, tag, recv + recv_at_[k],
                               count, MPI_BYTE, s.from, tag, comm_, MPI_STATUS_IGNORE),
                  "MPI_Sendrecv");
    }
  } else if (m == Method::Alltoallv) {
    // The displacements follow the block, as b_eff 3.6 sets sdispls / rdispls per execution.
    for (size_t i = 0; i < send_peers_.size(); ++i)
      sdispls_[static_cast<size_t>(send_peers_[i])] = static_cast<int>(at) + send_peer_at_[i];
    for (size_t i = 0; i < recv_peers_.size(); ++i)
      rdispls_[static_cast<size_t>(recv_peers_[i])] = static_cast<int>(at) + recv_peer_at_[i];
    mpi_check(MPI_Alltoallv(send_.data(), scounts_.data(), sdispls_.data(), MPI_BYTE, recv_.data(),
                            rcounts_.data(), rdispls_.data(), MPI_BYTE, comm_),
              "MPI_Alltoallv");
  } else {
    int n = 0;
    for (size_t k = 0; k < steps_.size(); ++k)
      if (steps_[k].from != kNone)
        mpi_check(MPI_Irecv(recv + recv_at_[k], count, MPI_BYTE, steps_[k].from,
                            static_cast<int>(k), comm_, &requests_[static_cast<size_t>(n++)]),
                  "MPI_Irecv");
    for (size_t k = 0; k < steps_.size(); ++k)
      if (steps_[k].to != kNone)
        mpi_check(MPI_Isend(send + send_at_[k], count, MPI_BYTE, steps_[k].to, static_cast<int>(k),
                            comm_, &requests_[static_cast<size_t>(n++)]),
                  "MPI_Isend");
    mpi_check(MPI_Waitall(n, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }
  std::string bad = check_received(at);
  ++execution_;
  return bad;
}

} // namespace pio::b_eff
