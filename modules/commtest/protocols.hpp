#pragma once
/// The SWAP protocols of the COMMTEST description (PSTSWM SWAP experiments, "Unordered" and
/// "Ordered" listings): which MPI calls each processor makes, as data.

#include <string>
#include <vector>

namespace commtest {

/// How a message is sent.
enum class SendCall { Send, Bsend, Isend, Rsend, Irsend, Ssend, Issend, Sendrecv };

/// How a message is received: blocking MPI_RECV, or MPI_IRECV posted before the send.
enum class RecvCall { Recv, Irecv };

/// The handshake a protocol needs before its sends. The description's sketches leave it out
/// ("handshaking messages required for correct use of the ready send command have been omitted").
enum class Handshake {
  None,        ///< none
  Ready,       ///< a zero-byte exchange after the receive is posted, before every ready send
  Synchronous, ///< (1,6): each MPI_RECV is posted before the MPI_SEND it matches
};

/// One protocol, e.g. (0,3) "nonblocking send and receive": MPI_IRECV, MPI_ISEND.
struct Protocol {
  int klass = 0;                         ///< 0 unordered (ping-ping), 1 ordered (ping-pong)
  int number = 0;                        ///< 0..9 unordered, 0..10 ordered
  std::string name;                      ///< the description's name, e.g. "nonblocking send"
  SendCall send = SendCall::Send;        ///< unordered: both processors; ordered: processor 1
  RecvCall recv = RecvCall::Recv;        ///< unordered: both processors; ordered: processor 1
  SendCall reply = SendCall::Send;       ///< ordered: processor 2's send, after its receive
  Handshake handshake = Handshake::None; ///< the handshake the sends need

  /// True for the ordered (ping-pong) protocols.
  bool ordered() const { return klass == 1; }
  /// "0,3": the form Protocols takes in a config.
  std::string id() const;
  /// True when the reorganised variant applies: the protocol receives with MPI_IRECV, which
  /// the variant pre-posts one message ahead.
  bool reorganisable() const { return recv == RecvCall::Irecv; }
};

/// The 21 protocols, (0,0)..(0,9) then (1,0)..(1,10).
const std::vector<Protocol> &protocols();

/// The protocols a Protocols directive names: ids ("0,3"), "unordered", "ordered" or "all", in
/// the order of protocols(), each once. Throws pio::Error on an unknown word.
std::vector<const Protocol *> select_protocols(const std::vector<std::string> &words);

/// Every word Protocols accepts, for the directive's choices.
std::vector<std::string> protocol_choices();

/// The MPI call's name, e.g. "MPI_ISSEND".
std::string call_name(SendCall call);

} // namespace commtest
