#pragma once
/// The IMB-IO benchmarks (IMB 3.2 User Guide §4.1 Table 1, §4.2.4) and their file layout as pure
/// functions: which bytes of X each process moves, and where transfer j of a process lies in
/// the file. No MPI calls, so the layout is unit-tested against the guide's figures.

#include <cstdint>
#include <string>
#include <vector>

namespace imb::io {

/// Read or Write (§4.2.4: [ACTION]); None for Open_Close.
enum class Action { Write, Read, None };
/// File positioning (§4.1 postfixes): individual pointer, explicit offset, shared pointer, or an
/// individual pointer on a private file per process (opened on MPI_COMM_SELF).
enum class Positioning { Indv, Expl, Shared, Priv };
/// Classification (§4.2.1): S_ (1 active process), P_ (concurrent, non-collective calls),
/// C_ (collective calls), or Other (Open_Close).
enum class Class { Single, Parallel, Collective, Other };

/// One IMB-IO benchmark.
struct Benchmark {
  std::string name;    ///< IMB's name, e.g. "P_Write_indv"
  std::string section; ///< where the guide defines it, e.g. "§4.2.4.3"
  Class cls = Class::Parallel;
  Action action = Action::Write;
  Positioning pos = Positioning::Indv;
  bool nonblocking = false; ///< the IWrite / IRead variant (§4.2.5)
};

/// Every benchmark of Table 1: Open_Close, then S_, P_ and C_ flavours, blocking and
/// non-blocking, Write before Read.
std::vector<Benchmark> benchmarks();

/// The bytes [first, first + length) of X a process moves in one transfer.
struct Portion {
  std::int64_t first = 0, length = 0;
};

/// Process `rank`'s portion of X over np processes in units of `unit` bytes (IMB's
/// IMB_get_rank_portion with sizeof(int) units: the first (X/unit mod np) ranks get one unit
/// more; the last portion is cut at X). Single transfers: the whole of X on the one process.
Portion rank_portion(int rank, int np, std::int64_t x, std::int64_t unit = 4);

/// File offset of transfer j of a process with portion p (§4.2.4 Figures 15-18): on a common
/// file j X + p.first (the tiled view of _indv, the explicit offsets of _expl, and the order
/// write_ordered keeps in C_shared); on a private file j p.length.
std::int64_t file_offset(Positioning pos, const Portion &p, std::int64_t x, std::int64_t j);

/// The byte rank r writes at byte k of its portion (each rank's data is recognisable).
char data_byte(int rank, std::int64_t k);

/// The byte at offset o of a common file holding transfers of X laid out over np ranks
/// (transfer o / X, the rank whose portion holds o mod X).
char file_byte(int np, std::int64_t x, std::int64_t o);

} // namespace imb::io
