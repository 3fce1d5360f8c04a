// The words of the Interface directive, beside the enum's use, and the MPI-IO-only check.
#include "pio/io/options.hpp"

#include <algorithm>
#include <cctype>

#include "pio/error.hpp"

namespace pio::io {

const char *to_string(InterfaceKind k) {
  switch (k) {
  case InterfaceKind::MpiIo:
    return "mpiio";
  case InterfaceKind::Posix:
    return "posix";
  case InterfaceKind::Hdf5:
    return "hdf5";
  }
  return "?";
}

std::optional<InterfaceKind> interface_kind(const std::string &word) {
  std::string w = word;
  std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return std::tolower(c); });
  for (InterfaceKind k : {InterfaceKind::MpiIo, InterfaceKind::Posix, InterfaceKind::Hdf5})
    if (w == to_string(k))
      return k;
  return std::nullopt;
}

void require_mpiio(const Options &o, const std::string &module) {
  if (o.kind != InterfaceKind::MpiIo)
    throw DirectiveError("Interface",
                         module + " makes MPI-IO's own calls and cannot run through Interface " +
                             to_string(o.kind),
                         "write Interface mpiio in this block (a global Interface line reaches "
                         "every block)");
}

} // namespace pio::io
