// The protocol listings of the COMMTEST description ("Unordered" / "Ordered"): unordered
// protocols run the same calls on both processors; in the ordered ones processor 1 sends first
// and then receives the reply, processor 2 receives and then replies.
#include "protocols.hpp"

#include <algorithm>

#include "pio/error.hpp"

namespace commtest {

namespace {

Protocol unordered(int n, const char *name, SendCall send, RecvCall recv,
                   Handshake hs = Handshake::None) {
  Protocol p;
  p.klass = 0;
  p.number = n;
  p.name = name;
  p.send = send;
  p.recv = recv;
  p.reply = send;
  p.handshake = hs;
  return p;
}

Protocol ordered(int n, const char *name, SendCall send, RecvCall recv, SendCall reply,
                 Handshake hs = Handshake::None) {
  Protocol p = unordered(n, name, send, recv, hs);
  p.klass = 1;
  p.reply = reply;
  return p;
}

std::vector<Protocol> make_protocols() {
  using S = SendCall;
  using R = RecvCall;
  using H = Handshake;
  return {
      // Unordered: "Processor 1 and 2" make the same calls.
      unordered(0, "simple", S::Bsend, R::Recv),                               // BSEND, RECV
      unordered(1, "nonblocking send", S::Isend, R::Recv),                     // ISEND, RECV
      unordered(2, "nonblocking receive", S::Send, R::Irecv),                  // IRECV, SEND
      unordered(3, "nonblocking send and receive", S::Isend, R::Irecv),        // IRECV, ISEND
      unordered(4, "ready send", S::Rsend, R::Irecv, H::Ready),                // IRECV, RSEND
      unordered(5, "nonblocking ready send", S::Irsend, R::Irecv, H::Ready),   // IRECV, IRSEND
      unordered(6, "native sendrecv", S::Sendrecv, R::Recv),                   // SENDRECV
      unordered(7, "nonblocking sync. send", S::Issend, R::Recv),              // ISSEND, RECV
      unordered(8, "sync. send and nonblocking receive", S::Ssend, R::Irecv),  // IRECV, SSEND
      unordered(9, "nonblocking sync. send and receive", S::Issend, R::Irecv), // IRECV, ISSEND
      // Ordered: processor 1's calls, then processor 2's (receive, then reply).
      ordered(0, "simple", S::Send, R::Recv, S::Send),
      ordered(1, "nonblocking send", S::Isend, R::Recv, S::Send),
      ordered(2, "nonblocking receive", S::Send, R::Irecv, S::Send),
      ordered(3, "nonblocking send and receive", S::Isend, R::Irecv, S::Send),
      ordered(4, "ready send", S::Rsend, R::Irecv, S::Rsend, H::Ready),
      ordered(5, "nonblocking ready send", S::Irsend, R::Irecv, S::Rsend, H::Ready),
      ordered(6, "synchronous", S::Send, R::Recv, S::Send, H::Synchronous),
      ordered(7, "nonblocking sync. send", S::Issend, R::Recv, S::Ssend),
      ordered(8, "sync. send and nonblocking receive", S::Ssend, R::Irecv, S::Ssend),
      ordered(9, "nonblocking sync. send and receive", S::Issend, R::Irecv, S::Ssend),
      ordered(10, "sync. send", S::Ssend, R::Recv, S::Ssend),
  };
}

} // namespace

std::string Protocol::id() const { return std::to_string(klass) + "," + std::to_string(number); }

const std::vector<Protocol> &protocols() {
  static const std::vector<Protocol> all = make_protocols();
  return all;
}

std::vector<std::string> protocol_choices() {
  std::vector<std::string> out = {"all", "unordered", "ordered"};
  for (const auto &p : protocols())
    out.push_back(p.id());
  return out;
}

std::vector<const Protocol *> select_protocols(const std::vector<std::string> &words) {
  std::vector<bool> chosen(protocols().size(), false);
  for (const auto &w : words) {
    bool known = false;
    for (size_t i = 0; i < protocols().size(); ++i) {
      const Protocol &p = protocols()[i];
      if (w == "all" || (w == "unordered" && !p.ordered()) || (w == "ordered" && p.ordered()) ||
          w == p.id()) {
        chosen[i] = true;
        known = true;
      }
    }
    if (!known)
      throw pio::Error("unknown COMMTEST protocol '" + w + "'",
                       "write all, unordered, ordered or ids 0,0 .. 0,9 and 1,0 .. 1,10");
  }
  std::vector<const Protocol *> out;
  for (size_t i = 0; i < protocols().size(); ++i)
    if (chosen[i])
      out.push_back(&protocols()[i]);
  return out;
}

std::string call_name(SendCall call) {
  switch (call) {
  case SendCall::Send:
    return "MPI_SEND";
  case SendCall::Bsend:
    return "MPI_BSEND";
  case SendCall::Isend:
    return "MPI_ISEND";
  case SendCall::Rsend:
    return "MPI_RSEND";
  case SendCall::Irsend:
    return "MPI_IRSEND";
  case SendCall::Ssend:
    return "MPI_SSEND";
  case SendCall::Issend:
    return "MPI_ISSEND";
  case SendCall::Sendrecv:
    return "MPI_SENDRECV";
  }
  return "?";
}

} // namespace commtest
