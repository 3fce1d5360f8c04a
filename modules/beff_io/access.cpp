// How each b_eff_io pattern type places and moves its bytes (b_eff_io paper §5.1, Fig. 1).
#include "access.hpp"

#include <string>

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

std::vector<io::Capability> access_needs(const TypeAccess &access) {
  std::vector<io::Capability> needs;
  needs.push_back(access.call == Call::Ordered ? io::Capability::SharedPointers
                                               : io::Capability::IndividualPointers);
  if (access.call != Call::Independent) // write_all / write_ordered
    needs.push_back(io::Capability::Collective);
  if (access.strided_view)
    needs.push_back(io::Capability::FileViews);
  return needs;
}

void set_byte_view(io::Interface &io) { io.set_view(0, MPI_BYTE, MPI_BYTE); }

void start_pattern(io::Interface &io, const TypeAccess &access, const Placement &at,
                   const Pattern &p, Datatype &filetype) {
  if (access.strided_view) {
    // Strided view: l bytes at rank*l in every tile of size*l bytes (§5.1, Fig. 1).
    filetype = patterns::strided_vector(1, p.l, p.l, p.l * at.size);
    io.set_view(at.base + at.rank * p.l, MPI_BYTE, filetype.get());
  }
  rewind_pattern(io, access, at, p);
}

void rewind_pattern(io::Interface &io, const TypeAccess &access, const Placement &at,
                    const Pattern &p) {
  if (access.call == Call::Ordered)
    io.seek_shared(at.base);
  else if (access.strided_view) // offset 0 of the pattern's strided view is its start
    io.seek(0);
  else if (at.type == 2)
    io.seek(at.base);
  else
    io.seek(at.rank * at.segment + (p.fill ? at.segment_used : at.base));
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
  throw Error(std::string("a read on the ") + io::to_string(t.positioning) + " moved " +
                  std::to_string(got) + " of " + std::to_string(t.count) + " bytes (pattern " +
                  std::to_string(number) + ")",
              "the file is shorter than the initial write left it; is another program "
              "using it?");
}

} // namespace pio::beff_io
