#pragma once
/// How each b_eff_io pattern type places and moves its bytes (b_eff_io paper §5.1, Table 2,
/// Fig. 1): the per-type access table and what it needs of the backend, the file offsets of every
/// piece (MPI-free), the seam's calls that position, and the transfer each unit hands to it.

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "beff_math.hpp"
#include "pio/io/capability.hpp"
#include "pio/io/interface.hpp"
#include "pio/mpi_handles.hpp"
#include "pio/spec.hpp"

namespace pio::beff_io {

/// Which MPI-IO call a pattern type makes per unit.
enum class Call {
  Collective,  ///< MPI_File_write_all / read_all, individual file pointer
  Ordered,     ///< MPI_File_write_ordered / read_ordered, shared file pointer
  Independent, ///< MPI_File_write / read, individual file pointer
};

/// One row of the access table.
struct TypeAccess {
  FileUse file = FileUse::Shared; ///< which file the harness opens
  Call call = Call::Independent;  ///< the call per unit
  bool strided_view = false;      ///< positioned through a strided file view of l-byte tiles
};

/// The access table: 0 scatter (collective, strided view), 1 shared (ordered on the byte view,
/// or collective on the strided view without shared pointers), 2 separate (a file per process)
/// and 3 segmented (independent), 4 seg-coll (collective). All but type 2 share one file.
inline TypeAccess type_access(int type, bool shared_pointers) {
  switch (type) {
  case 0:
    return {FileUse::Shared, Call::Collective, true};
  case 1:
    return {FileUse::Shared, shared_pointers ? Call::Ordered : Call::Collective, !shared_pointers};
  case 2:
    return {FileUse::FilePerProcess, Call::Independent, false};
  case 3:
    return {FileUse::Shared, Call::Independent, false};
  default:
    return {FileUse::Shared, Call::Collective, false};
  }
}

/// Where one rank's pieces of the running pattern go.
struct Placement {
  int type = 0;                  ///< pattern type
  int rank = 0, size = 1;        ///< in the test's communicator
  std::int64_t base = 0;         ///< where the pattern starts (types 3, 4: within each segment)
  std::int64_t segment = 0;      ///< LSEG of types 3 and 4
  std::int64_t segment_used = 0; ///< bytes before the fill pattern in each segment
};

/// Where pattern `index` starts (§5.1 footnote: where the previous patterns of its type ended,
/// each having written write_units[j] units).
std::int64_t pattern_base(int type, int size, const std::vector<Pattern> &patterns,
                          const std::vector<std::int64_t> &write_units, size_t index);
/// Bytes one rank moves per unit of p (the fill pattern: the rest of its segment).
std::int64_t unit_bytes(const Placement &at, const Pattern &p);

/// Calls fn(buffer offset, file offset, length) for each piece one rank moves in unit u of p.
template <class Fn>
void for_each_piece(const Placement &at, const Pattern &p, std::int64_t u, Fn fn) {
  const std::int64_t n = at.size, r = at.rank;
  switch (at.type) {
  case 0: // chunk k of the call's L bytes goes to tile u*L/l + k of the strided view
    for (std::int64_t k = 0; k < p.L / p.l; ++k)
      fn(k * p.l, at.base + u * n * p.L + (k * n + r) * p.l, p.l);
    break;
  case 1: // one chunk per call, in rank order (write_ordered or the strided view)
    fn(0, at.base + u * n * p.l + r * p.l, p.l);
    break;
  case 2: // the rank's own file
    fn(0, at.base + u * p.l, p.l);
    break;
  default: // the rank's segment of the shared file
    if (p.fill)
      fn(0, r * at.segment + at.segment_used, at.segment - at.segment_used);
    else
      fn(0, r * at.segment + at.base + u * p.l, p.l);
  }
}

/// What a type's access needs of the backend (the capabilities of its table row): its file
/// pointer (individual, or shared for Call::Ordered), collective calls, its strided view.
std::vector<io::Capability> access_needs(const TypeAccess &access);
/// Sets the plain byte view (type 1 with shared pointers on a backend with file views; it also
/// resets the shared pointer).
void set_byte_view(io::Interface &io);
/// Sets up pattern p: its strided view if the type uses one (kept in `filetype`), then
/// rewind_pattern.
void start_pattern(io::Interface &io, const TypeAccess &access, const Placement &at,
                   const Pattern &p, Datatype &filetype);
/// Positions the file pointer at the start of pattern p for this rank.
void rewind_pattern(io::Interface &io, const TypeAccess &access, const Placement &at,
                    const Pattern &p);
/// The transfer of one unit: `bytes` of buf written or read with the type's positioning and
/// coordination (blocking, MPI_BYTE; reads count what they got). Built untimed.
io::Transfer unit_transfer(const TypeAccess &access, bool write, void *buf, std::int64_t bytes);
/// Makes t through the seam; a short read is an error naming pattern `number`.
void transfer(io::Interface &io, const io::Transfer &t, int number);

} // namespace pio::beff_io
