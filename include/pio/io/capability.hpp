#pragma once
/// What an I/O backend can do (IOR's aiori and fio's ioengines keep the same facts beside each
/// backend): the harness prints them (pio-harness --list-interfaces), refuses a block setting
/// that needs one its backend lacks, and a module refuses, before any I/O, a pattern that needs
/// one (ModuleContext::require). Each value's text lives here, beside the enum.

#include <cstdint>
#include <initializer_list>
#include <string>

namespace pio::io {

/// One thing a backend can do.
enum class Capability : unsigned {
  Collective,         ///< collective transfers: every rank of the file calls together
  FileViews,          ///< Interface::set_view: transfers placed by an MPI file view
  IndividualPointers, ///< a file pointer per rank: Interface::seek, Positioning::IndividualPointer
  SharedPointers,     ///< one pointer all ranks share: seek_shared, Positioning::SharedPointer
  NonBlocking,        ///< transfers still in flight when start() returns (they can overlap work)
  Split,              ///< split collectives: start() the begin, finish() the end
  ODirect,            ///< O_DIRECT: transfers that bypass the page cache
  Hints,              ///< MPI-IO hints at open (Hint lines) and Interface::set_info
  Metadata,           ///< Backend's namespace calls: stat, remove, mkdir, rmdir, readdir, sync
};

/// Every capability, in the order the enum declares them.
inline constexpr Capability kCapabilities[] = {
    Capability::Collective,     Capability::FileViews,   Capability::IndividualPointers,
    Capability::SharedPointers, Capability::NonBlocking, Capability::Split,
    Capability::ODirect,        Capability::Hints,       Capability::Metadata};

/// The capability's word: "collective", "file_views", ... (--list-interfaces, messages).
inline const char *to_string(Capability c) {
  switch (c) {
  case Capability::Collective:
    return "collective";
  case Capability::FileViews:
    return "file_views";
  case Capability::IndividualPointers:
    return "individual_pointers";
  case Capability::SharedPointers:
    return "shared_pointers";
  case Capability::NonBlocking:
    return "non_blocking";
  case Capability::Split:
    return "split";
  case Capability::ODirect:
    return "o_direct";
  case Capability::Hints:
    return "hints";
  case Capability::Metadata:
    return "metadata";
  }
  return "?";
}

/// What the capability is, for people: "collective transfers", "MPI file views", ...
inline const char *describe(Capability c) {
  switch (c) {
  case Capability::Collective:
    return "collective transfers";
  case Capability::FileViews:
    return "MPI file views";
  case Capability::IndividualPointers:
    return "individual file pointers";
  case Capability::SharedPointers:
    return "shared file pointers";
  case Capability::NonBlocking:
    return "non-blocking transfers";
  case Capability::Split:
    return "split collective transfers";
  case Capability::ODirect:
    return "O_DIRECT (bypassing the page cache)";
  case Capability::Hints:
    return "MPI-IO hints";
  case Capability::Metadata:
    return "metadata operations (create, open, close, stat, remove, mkdir, rmdir, readdir, sync)";
  }
  return "?";
}

/// A set of capabilities.
class Capabilities {
public:
  Capabilities() = default;
  /// The set of the listed capabilities.
  Capabilities(std::initializer_list<Capability> list) {
    for (Capability c : list)
      bits_ |= bit(c);
  }
  /// Whether c is in the set.
  bool has(Capability c) const { return (bits_ & bit(c)) != 0; }
  /// The words of the set's capabilities, ", " between them ("none" when empty).
  std::string words() const {
    std::string out;
    for (Capability c : kCapabilities)
      if (has(c))
        out += (out.empty() ? "" : ", ") + std::string(to_string(c));
    return out.empty() ? "none" : out;
  }

private:
  static std::uint32_t bit(Capability c) { return std::uint32_t(1) << static_cast<unsigned>(c); }
  std::uint32_t bits_ = 0;
};

} // namespace pio::io
