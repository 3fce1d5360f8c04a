#pragma once
/// The family a module belongs to, and its one spelling: what the tools read to know how a
/// module's results are shown (docs/reference/results.md, `family`).

namespace pio {

/// A module's family: the papers' groups of benchmarks, each shown its own way by the tools.
enum class ModuleFamily {
  /// File I/O tests in MiB/s: the spatial patterns, the replay of a trace (both on the pattern
  /// engine), and a site's own module that moves bytes
  Patterns,
  Metadata, ///< the mdtest-style metadata family: operations per second per phase
  BeffIo,   ///< b_eff_io (its figure: the effective I/O bandwidth)
  Beff,     ///< b_eff (its figure: the effective communication bandwidth)
  Imb,      ///< the IMB kernels (MPI-1, EXT, IO): IMB's tables, time per operation
  Commtest, ///< COMMTEST (its figure: the communication matrix)
};

/// The one spelling of a ModuleFamily: the results' JSON `family`.
inline const char *to_string(ModuleFamily f) {
  switch (f) {
  case ModuleFamily::Patterns:
    return "patterns";
  case ModuleFamily::Metadata:
    return "metadata";
  case ModuleFamily::BeffIo:
    return "beff_io";
  case ModuleFamily::Beff:
    return "beff";
  case ModuleFamily::Imb:
    return "imb";
  case ModuleFamily::Commtest:
    return "commtest";
  }
  return "?";
}

} // namespace pio
