// How each b_eff_io pattern type places and moves its bytes (b_eff_io paper §5.1, Fig. 1).
#include "access.hpp"

#include <string>

#include "pio/patterns/strided_geometry.hpp"

namespace pio::beff {

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

void transfer(MPI_File file, const TypeAccess &access, bool write, void *buf, std::int64_t bytes,
              int number) {
  const int count = static_cast<int>(bytes);
  MPI_Status st;
  int rc = MPI_SUCCESS;
  const char *call = "";
  switch (access.call) {
  case Call::Collective:
    call = write ? "MPI_File_write_all" : "MPI_File_read_all";
    rc = write ? MPI_File_write_all(file, buf, count, MPI_BYTE, &st)
               : MPI_File_read_all(file, buf, count, MPI_BYTE, &st);
    break;
  case Call::Ordered:
    call = write ? "MPI_File_write_ordered" : "MPI_File_read_ordered";
    rc = write ? MPI_File_write_ordered(file, buf, count, MPI_BYTE, &st)
               : MPI_File_read_ordered(file, buf, count, MPI_BYTE, &st);
    break;
  case Call::Independent:
    call = write ? "MPI_File_write" : "MPI_File_read";
    rc = write ? MPI_File_write(file, buf, count, MPI_BYTE, &st)
               : MPI_File_read(file, buf, count, MPI_BYTE, &st);
  }
  mpi_check(rc, call);
  if (write)
    return;
  int got = 0;
  MPI_Get_count(&st, MPI_BYTE, &got);
  if (got != count)
    throw Error(std::string(call) + " read " + std::to_string(got) + " of " +
                    std::to_string(count) + " bytes (pattern " + std::to_string(number) + ")",
                "the file is shorter than the initial write left it; is another program "
                "using it?");
}

} // namespace pio::beff
