#pragma once
/// Opening a module object in a child process first, so a broken object (a truncated file:
/// SIGBUS; a static initialiser that crashes or exits) is reported by name instead of killing
/// the harness. Used by --list-modules and for objects without a manifest.

#include <functional>
#include <string>

#include "load/library.hpp"

namespace pio::harness {

/// What opening an object in a child process gave.
struct ProbeResult {
  std::string text;    ///< what describe returned in the child
  std::string problem; ///< "path: what is wrong" if the object could not be opened; "" if it was
};

/// Forks; the child opens path (load_library), returns describe(library) through a pipe and
/// exits without running exit handlers; the parent collects it and names what ended a child
/// that died (the signal, or its exit code). The child never calls MPI.
ProbeResult open_in_child(const std::string &path,
                          const std::function<std::string(const LoadedLibrary &)> &describe);

} // namespace pio::harness
