// The SWAP calls of the COMMTEST description, per protocol (protocols.hpp) and variant.
//
// Basic SWAP of one message, as the listings give it:
//   unordered, both processors:  [IRECV]  [handshake]  send  (RECV | WAIT recv)  [WAIT send]
//   ordered, processor 1:        the same (send first, then receive the reply)
//   ordered, processor 2:        (RECV | IRECV handshake WAIT)  reply send
// Ready sends need the receive posted before the send starts; the listings leave that
// handshake out. Here every ready send follows a zero-byte MPI_SENDRECV made by both
// processors after posting their receive, so the partner's receive is posted when the ready
// send starts (processor 2's ready reply follows the arrival of processor 1's message, which
// processor 1 sent after posting the reply's receive).
//
// The reorganised variant ("Prepost one receive request. Synchronize. Begin timing. for i:
// Prepost receive request for next message. Begin send and complete receive for current
// message. Complete send for previous message. Stop timing."): prepare() posts the first
// receive before the harness's barrier; run() is the loop.
#include "swap.hpp"

#include "pio/error.hpp"
#include "pio/mpi_handles.hpp"

namespace commtest {

namespace {
constexpr int kDataTag = 4242;
constexpr int kHandshakeTag = 4243;
} // namespace

Swap::Swap(const SwapPlan &plan, MPI_Comm comm, const std::uint8_t *send, std::uint8_t *recv)
    : plan_(plan), comm_(comm), send_(send), recv_(recv) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank_);
  if (size != 2)
    throw pio::Error("a COMMTEST SWAP needs a pair of processes, this group has " +
                         std::to_string(size),
                     "pair the ranks with Pairings (0-1, 0-2, 0-2+1-3)");
  if (plan.messages < 1 || plan.volume % plan.messages != 0)
    throw pio::Error("COMMTEST: " + std::to_string(plan.messages) +
                         " messages do not divide the volume of " + std::to_string(plan.volume) +
                         " bytes",
                     "choose Messages that divide the experiment's volume");
  if (plan.message_bytes() > 2147483647)
    throw pio::Error("COMMTEST: a message of " + std::to_string(plan.message_bytes()) +
                         " bytes exceeds an MPI count",
                     "use more messages");
  if (plan.reorganised && !plan.protocol->reorganisable())
    throw pio::Error("COMMTEST: protocol (" + plan.protocol->id() +
                         ") has no nonblocking receive to pre-post",
                     "use the basic variant for it");
  partner_ = 1 - rank_;
  count_ = static_cast<int>(plan.message_bytes());
  if (plan.protocol->send == SendCall::Bsend) {
    // One message in flight each way, plus slack for MPI's bookkeeping.
    bsend_.resize(4 * (static_cast<size_t>(count_) + MPI_BSEND_OVERHEAD));
    pio::mpi_check(MPI_Buffer_attach(bsend_.data(), static_cast<int>(bsend_.size())),
                   "MPI_Buffer_attach");
  }
  // Two receives of the same message must not be pending into the same bytes: in the
  // reorganised variant with repeats, every other repeat lands in a scratch message.
  if (plan.reorganised && plan.repeats > 1)
    scratch_.resize(static_cast<size_t>(count_));
}

Swap::~Swap() {
  for (auto *reqs : {&rreq_, &sreq_})
    for (auto &r : *reqs)
      if (r != MPI_REQUEST_NULL) {
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
      }
  if (!bsend_.empty()) {
    void *old = nullptr;
    int old_size = 0;
    MPI_Buffer_detach(&old, &old_size); // waits for buffered messages to leave
  }
}

std::int64_t Swap::offset(std::int64_t k) const {
  return (k / plan_.repeats) * plan_.message_bytes();
}

std::uint8_t *Swap::recv_target(std::int64_t k) {
  if (!scratch_.empty() && (k % plan_.repeats) % 2 == 1)
    return scratch_.data();
  return recv_ + offset(k);
}

void Swap::post_recv(std::int64_t k, MPI_Request *req) {
  pio::mpi_check(MPI_Irecv(recv_target(k), count_, MPI_BYTE, partner_, kDataTag, comm_, req),
                 "MPI_Irecv");
}

void Swap::recv_now(std::int64_t k) {
  pio::mpi_check(
      MPI_Recv(recv_ + offset(k), count_, MPI_BYTE, partner_, kDataTag, comm_, MPI_STATUS_IGNORE),
      "MPI_Recv");
}

void Swap::handshake() {
  char out = 0, in = 0;
  pio::mpi_check(MPI_Sendrecv(&out, 0, MPI_BYTE, partner_, kHandshakeTag, &in, 0, MPI_BYTE,
                              partner_, kHandshakeTag, comm_, MPI_STATUS_IGNORE),
                 "MPI_Sendrecv (handshake)");
}

void Swap::send(SendCall call, std::int64_t k, MPI_Request *req) {
  *req = MPI_REQUEST_NULL;
  const void *buf = send_ + offset(k);
  auto *b = const_cast<void *>(buf); // MPI-2 signatures in some headers
  switch (call) {
  case SendCall::Send:
    pio::mpi_check(MPI_Send(b, count_, MPI_BYTE, partner_, kDataTag, comm_), "MPI_Send");
    break;
  case SendCall::Bsend:
    pio::mpi_check(MPI_Bsend(b, count_, MPI_BYTE, partner_, kDataTag, comm_), "MPI_Bsend");
    break;
  case SendCall::Isend:
    pio::mpi_check(MPI_Isend(b, count_, MPI_BYTE, partner_, kDataTag, comm_, req), "MPI_Isend");
    break;
  case SendCall::Rsend:
    pio::mpi_check(MPI_Rsend(b, count_, MPI_BYTE, partner_, kDataTag, comm_), "MPI_Rsend");
    break;
  case SendCall::Irsend:
    pio::mpi_check(MPI_Irsend(b, count_, MPI_BYTE, partner_, kDataTag, comm_, req), "MPI_Irsend");
    break;
  case SendCall::Ssend:
    pio::mpi_check(MPI_Ssend(b, count_, MPI_BYTE, partner_, kDataTag, comm_), "MPI_Ssend");
    break;
  case SendCall::Issend:
    pio::mpi_check(MPI_Issend(b, count_, MPI_BYTE, partner_, kDataTag, comm_, req), "MPI_Issend");
    break;
  case SendCall::Sendrecv:
    pio::mpi_check(MPI_Sendrecv(b, count_, MPI_BYTE, partner_, kDataTag, recv_ + offset(k), count_,
                                MPI_BYTE, partner_, kDataTag, comm_, MPI_STATUS_IGNORE),
                   "MPI_Sendrecv");
    break;
  }
}

void Swap::basic(std::int64_t k) {
  const Protocol &p = *plan_.protocol;
  MPI_Request &rreq = rreq_[0];
  MPI_Request &sreq = sreq_[0];
  const bool first = rank_ == 0; // processor 1 of the ordered protocols
  if (p.ordered() && p.handshake == Handshake::Synchronous) {
    // (1,6): each MPI_RECV is posted (and announced) before the MPI_SEND it matches.
    char none = 0;
    if (first) {
      pio::mpi_check(
          MPI_Recv(&none, 0, MPI_BYTE, partner_, kHandshakeTag, comm_, MPI_STATUS_IGNORE),
          "MPI_Recv (handshake)");
      send(p.send, k, &sreq);
      post_recv(k, &rreq);
      pio::mpi_check(MPI_Send(&none, 0, MPI_BYTE, partner_, kHandshakeTag, comm_),
                     "MPI_Send (handshake)");
      pio::mpi_check(MPI_Wait(&rreq, MPI_STATUS_IGNORE), "MPI_Wait");
    } else {
      post_recv(k, &rreq);
      pio::mpi_check(MPI_Send(&none, 0, MPI_BYTE, partner_, kHandshakeTag, comm_),
                     "MPI_Send (handshake)");
      pio::mpi_check(MPI_Wait(&rreq, MPI_STATUS_IGNORE), "MPI_Wait");
      pio::mpi_check(
          MPI_Recv(&none, 0, MPI_BYTE, partner_, kHandshakeTag, comm_, MPI_STATUS_IGNORE),
          "MPI_Recv (handshake)");
      send(p.reply, k, &sreq);
    }
    return;
  }
  if (p.send == SendCall::Sendrecv) { // (0,6)
    send(p.send, k, &sreq);
    return;
  }
  if (p.ordered() && !first) {
    // Processor 2: receive, then reply.
    if (p.handshake == Handshake::Ready) {
      post_recv(k, &rreq);
      handshake();
      pio::mpi_check(MPI_Wait(&rreq, MPI_STATUS_IGNORE), "MPI_Wait");
    } else {
      recv_now(k);
    }
    send(p.reply, k, &sreq); // blocking in every ordered listing
    return;
  }
  // Unordered (both) and ordered processor 1: send, then receive.
  if (p.recv == RecvCall::Irecv)
    post_recv(k, &rreq);
  if (p.handshake == Handshake::Ready)
    handshake();
  send(p.send, k, &sreq);
  if (p.recv == RecvCall::Irecv)
    pio::mpi_check(MPI_Wait(&rreq, MPI_STATUS_IGNORE), "MPI_Wait");
  else
    recv_now(k);
  if (sreq != MPI_REQUEST_NULL)
    pio::mpi_check(MPI_Wait(&sreq, MPI_STATUS_IGNORE), "MPI_Wait");
}

void Swap::prepare() {
  if (!plan_.reorganised)
    return;
  post_recv(0, &rreq_[0]); // "Prepost one receive request."
  if (plan_.protocol->handshake == Handshake::Ready)
    handshake(); // the partner may now ready-send transfer 0
}

void Swap::reorganised_step(std::int64_t k) {
  const Protocol &p = *plan_.protocol;
  const std::int64_t transfers = plan_.messages * plan_.repeats;
  const size_t cur = static_cast<size_t>(k % 2), next = 1 - cur;
  // "Prepost receive request for next message."
  if (k + 1 < transfers) {
    post_recv(k + 1, &rreq_[next]);
    if (p.handshake == Handshake::Ready)
      handshake(); // announces receive k + 1 (receive k was announced one step earlier)
  }
  // "Begin send and complete receive for current message." Processor 2 of an ordered
  // protocol replies only after the message has arrived.
  if (p.ordered() && rank_ == 1) {
    pio::mpi_check(MPI_Wait(&rreq_[cur], MPI_STATUS_IGNORE), "MPI_Wait");
    send(p.reply, k, &sreq_[cur]);
  } else {
    send(p.send, k, &sreq_[cur]);
    pio::mpi_check(MPI_Wait(&rreq_[cur], MPI_STATUS_IGNORE), "MPI_Wait");
  }
  // "Complete send for previous message."
  if (sreq_[next] != MPI_REQUEST_NULL)
    pio::mpi_check(MPI_Wait(&sreq_[next], MPI_STATUS_IGNORE), "MPI_Wait");
}

std::int64_t Swap::run() {
  const std::int64_t transfers = plan_.messages * plan_.repeats;
  for (std::int64_t k = 0; k < transfers; ++k) {
    if (plan_.reorganised)
      reorganised_step(k);
    else
      basic(k);
  }
  // The last send of the reorganised loop completes inside the timing.
  for (auto &r : sreq_)
    if (r != MPI_REQUEST_NULL)
      pio::mpi_check(MPI_Wait(&r, MPI_STATUS_IGNORE), "MPI_Wait");
  return transfers * plan_.message_bytes();
}

} // namespace commtest
