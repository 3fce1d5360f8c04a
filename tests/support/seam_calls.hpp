#pragma once
/// What the tests of a backend's Interface share: this rank's file, a transfer over extents,
/// the message of the pio::Error a call throws, and page-aligned memory for O_DIRECT.

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "pio/error.hpp"
#include "pio/io/transfer.hpp"

namespace pio::test {

/// This rank's file `name` in dir (name.RANK).
inline std::string my_file(const TempDir &dir, const std::string &name) {
  return dir.file(name + "." + std::to_string(rank()));
}

/// The message of the pio::Error f throws, with its fix ("" when it throws none).
inline std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const pio::Error &e) {
    return std::string(e.what()) + " | fix: " + e.hint();
  }
  return "";
}

/// Whether text holds part.
inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// A blocking explicit-offset write (or read) of `bytes` MPI_BYTEs at b covering `extents`.
inline pio::io::Transfer transfer(pio::io::Direction d, void *b, int bytes,
                                  const std::vector<pio::io::Extent> &extents) {
  pio::io::Transfer t;
  t.direction = d;
  t.buffer = b;
  t.count = bytes;
  t.datatype = MPI_BYTE;
  t.extents = extents.empty() ? nullptr : extents.data();
  t.extent_count = extents.size();
  return t;
}

/// Memory aligned to 4096 bytes, for O_DIRECT.
struct Aligned {
  explicit Aligned(size_t n) {
    if (posix_memalign(&p, 4096, n) != 0)
      p = nullptr;
  }
  ~Aligned() { std::free(p); }
  Aligned(const Aligned &) = delete;
  Aligned &operator=(const Aligned &) = delete;
  std::uint8_t *bytes() const { return static_cast<std::uint8_t *>(p); }
  void *p = nullptr;
};

} // namespace pio::test
