#pragma once
/// The family a module belongs to, and its one spelling: what the tools read to know how a
/// module's results are shown (docs/reference/results.md, `family`).

namespace pio {

/// A module's family: the papers' groups of benchmarks, each shown its own way by the tools.
enum class Family {
  /// File I/O tests in MiB/s: the spatial patterns, the replay of a trace (both on the pattern
  /// engine), and a site's own module that moves bytes
  Patterns,
  Metadata, ///< the mdtest-style metadata family: operations per second per phase
  BeffIo,   ///< b_eff_io (its figure: the effective I/O bandwidth)
  Beff,     ///< b_eff (its figure: the effective communication bandwidth)
  Imb,      ///< the IMB kernels (MPI-1, EXT, IO): IMB's tables, time per operation
  Commtest, ///< COMMTEST (its figure: the communication matrix)
};

/// The one spelling of a Family: the results' JSON `family`.
inline const char *to_string(Family f) {
  switch (f) {
  case Family::Patterns:
    return "patterns";
  case Family::Metadata:
    return "metadata";
  case Family::BeffIo:
    return "beff_io";
  case Family::Beff:
    return "beff";
  case Family::Imb:
    return "imb";
  case Family::Commtest:
    return "commtest";
  }
  return "?";
}

} // namespace pio
