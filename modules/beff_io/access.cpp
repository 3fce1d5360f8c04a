// How each b_eff_io pattern type places and moves its bytes (b_eff_io paper §5.1, Fig. 1).
#include "access.hpp"

#include <string>

#include "pio/io/mpiio.hpp"
#include "pio/patterns/strided_geometry.hpp"

namespace pio::beff_io {

std::int64_t pattern_base(int type, int size, const std::vector<Pattern> &patterns,
                          const std::vector<std::int64_t> &write_units, size_t index) {
  std::int64_t base = 0;
  for (size_t j = 0; j < index; ++j) {
    const Pattern &q = patterns[j];
    if (q.fill)
      continue;
    base += write_units[j] * q.L * (type <= 1 ? size : 1);
  }
  return base;
}

std::int64_t unit_bytes(const Placement &at, const Pattern &p) {
  return p.fill ? at.segment - at.segment_used : p.L;
}

void set_byte_view(MPI_File file) {
  mpi_check(MPI_File_set_view(file, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
            "MPI_File_set_view");
}

void start_pattern(MPI_File file, const TypeAccess &access, const Placement &at, const Pattern &p,
                   Datatype &filetype) {
  if (access.strided_view) {
    // Strided view: l bytes at rank*l in every tile of size*l bytes (§5.1, Fig. 1).
    filetype = patterns::strided_vector(1, p.l, p.l, p.l * at.size);
    mpi_check(MPI_File_set_view(file, at.base + at.rank * p.l, MPI_BYTE, filetype.get(), "native",
                                MPI_INFO_NULL),
              "MPI_File_set_view");
  }
  rewind_pattern(file, access, at, p);
}

void rewind_pattern(MPI_File file, const TypeAccess &access, const Placement &at,
                    const Pattern &p) {
  if (access.call == Call::Ordered)
    mpi_check(MPI_File_seek_shared(file, at.base, MPI_SEEK_SET), "MPI_File_seek_shared");
  else if (access.strided_view) // offset 0 of the pattern's strided view is its start
    mpi_check(MPI_File_seek(file, 0, MPI_SEEK_SET), "MPI_File_seek");
  else if (at.type == 2)
    mpi_check(MPI_File_seek(file, at.base, MPI_SEEK_SET), "MPI_File_seek");
  else
    mpi_check(MPI_File_seek(file, at.rank * at.segment + (p.fill ? at.segment_used : at.base),
                            MPI_SEEK_SET),
              "MPI_File_seek");
}

io::Transfer unit_transfer(const TypeAccess &access, bool write, void *buf, std::int64_t bytes) {
  io::Transfer t;
  t.direction = write ? io::Direction::Write : io::Direction::Read;
  t.positioning = access.call == Call::Ordered ? io::Positioning::SharedPointer
                                               : io::Positioning::IndividualPointer;
  t.coordination = access.call == Call::Independent ? io::Coordination::Independent
                                                    : io::Coordination::Collective;
  t.buffer = buf;
  t.count = static_cast<int>(bytes);
  t.datatype = MPI_BYTE;
  t.count_moved = !write; // a short read is an error
  return t;
}

void transfer(io::Interface &io, const io::Transfer &t, int number) {
  const std::int64_t got = io.start(t);
  if (t.direction == io::Direction::Write || got == t.count)
    return;
  throw Error(std::string(io::MpiIo::call_name(t)) + " read " + std::to_string(got) + " of " +
                  std::to_string(t.count) + " bytes (pattern " + std::to_string(number) + ")",
              "the file is shorter than the initial write left it; is another program "
              "using it?");
}

} // namespace pio::beff_io
