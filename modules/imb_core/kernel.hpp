#pragma once
/// One IMB-MPI1 kernel (IMB 3.2 User Guide §3.3): its classification and scaling, its buffer
/// lengths, one operation, and the check of what that operation left in the buffers. The module
/// (imb_module.hpp) supplies the methodology of §5 around it.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "buffers.hpp"
#include "pio/mpi_handles.hpp"
#include "pio/spec.hpp"
#include "settings.hpp"

namespace imb {

/// IMB's benchmark classes (§3.3.1): they decide what is reported.
enum class Kind {
  Single,     ///< PingPong, PingPing: 2 active processes, time and throughput
  Parallel,   ///< Sendrecv, Exchange: time and throughput of the whole turnover
  Collective, ///< bare time only
};

/// The datatype and operation of a kernel's messages.
enum class Data {
  Bytes,    ///< MPI_BYTE
  FloatSum, ///< MPI_FLOAT with MPI_SUM: the reductions (§3.3.4)
};

/// Whether a kernel has a root.
enum class Root {
  None,     ///< no root
  Rotating, ///< the root rotates i % np in iteration i (RootShift off: always 0)
};

/// Whether a kernel runs per message length.
enum class Message {
  Sized, ///< one test per message length X
  None,  ///< no message (Barrier): one test, no length column (§6)
};

/// What the guide says about a kernel, besides its pattern. Made by name, e.g.
///   Traits("PingPong", "§3.3.2.1", Kind::Single).with_time_scale(0.5)
struct Traits {
  /// IMB's name (the title of its table, e.g. "PingPong"), where the guide defines it, its class.
  Traits(const char *name, const char *section, Kind kind)
      : name(name), section(section), kind(kind) {}

  const char *name;                 ///< IMB's name, e.g. "PingPong"
  const char *section;              ///< where the guide defines it, e.g. "§3.3.2.1"
  Kind kind;                        ///< IMB's class: what is reported
  Data data = Data::Bytes;          ///< the messages' datatype
  double bytes_scale = 1;           ///< messages per sample in the throughput (nmsg, §3.3.3)
  double time_scale = 1;            ///< PingPong: 0.5, half the round trip (§3.3.2.1)
  Root root = Root::None;           ///< whether a root rotates
  Message message = Message::Sized; ///< whether the kernel runs per message length

  /// Sets the datatype (Data::FloatSum for the reductions).
  Traits &with_data(Data d) {
    data = d;
    return *this;
  }
  /// Sets the messages per sample counted in the throughput.
  Traits &with_bytes_scale(double s) {
    bytes_scale = s;
    return *this;
  }
  /// Sets the factor on the time per operation (PingPong 0.5).
  Traits &with_time_scale(double s) {
    time_scale = s;
    return *this;
  }
  /// Sets whether a root rotates.
  Traits &with_root(Root r) {
    root = r;
    return *this;
  }
  /// Sets whether the kernel runs per message length.
  Traits &with_message(Message m) {
    message = m;
    return *this;
  }

  /// True for the reductions (MPI_FLOAT with MPI_SUM).
  bool floats() const { return data == Data::FloatSum; }
  /// True unless the kernel has no message (Barrier).
  bool sized() const { return message == Message::Sized; }
};

/// Bytes of one message position in the send and the receive buffer.
struct Lengths {
  std::int64_t send = 0, recv = 0;
};

/// What a kernel operates on in one test, on one rank.
struct Op {
  MPI_Comm comm = MPI_COMM_NULL; ///< the active processes (the group, in -map order)
  int rank = 0;                  ///< rank in comm
  int np = 1;                    ///< active processes
  std::int64_t x = 0;            ///< message length X in bytes
  bool rotate_root = true;       ///< root = i % np (§3.3.4), else always 0
  bool split_scatter = true;     ///< Reduce_scatter splits L over the ranks (§3.3.4.2)
  Buffers *buf = nullptr;        ///< this rank's buffers
  std::int64_t n_max = 1;        ///< most operations in one sample (n_sample before the time cut)
  /// The root of operation i.
  int root(std::int64_t i) const { return rotate_root ? static_cast<int>(i % np) : 0; }
  /// X in elements of the kernel's datatype.
  int count(bool floats) const { return static_cast<int>(floats ? x / 4 : x); }
};

/// One kernel of §3.3.
class Kernel {
public:
  virtual ~Kernel() = default;
  /// The kernel's classification and scaling.
  virtual const Traits &traits() const = 0;
  /// Buffer lengths for X bytes on np processes (IMB_mem_manager's s_len / r_len).
  virtual Lengths lengths(std::int64_t x, int /*np*/) const { return {x, x}; }
  /// Reads the kernel's own directives (IMB-EXT's Mode) and adjusts the block's settings
  /// (non-aggregate mode: n_sample from MSGS_NONAGGR). Once, in init_module.
  virtual void configure(const pio::Settings &, Config &) {}
  /// Parameters the kernel adds to every test's params (e.g. its mode).
  virtual std::map<std::string, std::string> params() const { return {}; }
  /// The MODE line of the kernel's tables (IMB-EXT's aggregate / non-aggregate modes).
  virtual pio::TableMode table_mode() const { return pio::TableMode::None; }
  /// Builds counts and displacements, windows (untimed, once per test).
  virtual void prepare(const Op &) {}
  /// Frees what prepare built (untimed, once per test, collective over op.comm).
  virtual void release(const Op &) {}
  /// Operation i of a sample: the measured pattern, nothing else.
  virtual void run(const Op &op, std::int64_t i) = 0;
  /// One sample of n operations (IMB 3.2 User Guide §5.2.8): operations 0 .. n-1, and for
  /// IMB-EXT's aggregate mode the completion after all of them (§4.2.2.2, Figure 5).
  virtual void sample(const Op &op, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i)
      run(op, i);
  }
  /// After operation i: "" when this rank's buffers hold what the pattern delivers, else what
  /// differs.
  virtual std::string check(const Op &op, std::int64_t i) const = 0;
  /// Bytes this rank sends in one operation.
  virtual std::int64_t bytes_sent(const Op &op) const { return op.x; }
};

/// A kernel's blocks of equal count at displacements 0, count, 2 count, ... (the v-variants).
struct Blocks {
  std::vector<int> counts, displs;
};
/// np blocks of `count` elements each, one after the other.
Blocks equal_blocks(int np, int count);

/// "" if `n` bytes at got are sender's bytes from its offset `from`, else where they differ.
std::string expect_bytes(const char *got, int sender, std::int64_t from, std::int64_t n);
/// "" if block p (x bytes at got + p x) holds rank p's bytes from its offset `from`, for every p
/// of np, else the first block and byte that differ.
std::string expect_blocks(const char *got, int np, std::int64_t x, std::int64_t from);
/// "" if `n` floats at got are the sum over np ranks of float_of(r, first + k), else the first
/// difference.
std::string expect_sums(const char *got, int np, std::int64_t first, std::int64_t n);

/// The share [first, first + count) of L elements rank i gets in Reduce_scatter (§3.3.4.2:
/// L = r np + s, ranks below s get r + 1).
struct Share {
  std::int64_t first = 0, count = 0;
};
/// Rank i's share of L elements over np ranks.
Share scatter_share(std::int64_t l, int np, int i);
/// The recvcounts MPI_Reduce_scatter gets for L = X / 4 floats on np ranks: split, each rank's
/// share of L (§3.3.4.2; IMB 2018's src_c build); or L for every rank, an np L vector reduced
/// (IMB-MPI1 2019 Update 3 and later: src_cpp builds IMB_reduce_scatter.c without IMB2018).
std::vector<int> reduce_scatter_counts(std::int64_t l, int np, bool split);

} // namespace imb
