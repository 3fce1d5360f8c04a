#pragma once
/// Message buffers (IMB 3.2 User Guide §5.2.5): separate send and receive buffers, each message
/// position cycled through a region larger than the cache under -off_cache (§5.1.2.4), and the
/// known contents that make every transfer checkable.

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "schedule.hpp"

namespace imb {

/// The byte a sender puts at `offset` of its send buffer (MPI_BYTE kernels).
std::uint8_t byte_of(int rank, std::int64_t offset);
/// The float a sender puts at element `index` of its send buffer (reductions, §3.3.4: MPI_FLOAT).
/// Small whole numbers, so MPI_SUM over any number of ranks is exact.
float float_of(int rank, std::int64_t index);

/// Where a region starts in memory.
enum class Placement {
  Malloc, ///< MPI_Alloc_mem, as IMB allocates its buffers (IMB_v_alloc), wherever malloc puts it
  Page    ///< on a page boundary
};

/// One buffer of `length` bytes per message, laid out for `layout`.
class Region {
public:
  Region() = default;
  /// Allocates and zeroes the region.
  Region(std::int64_t length, CacheLayout layout, Placement placement = Placement::Malloc);
  /// The message position used by operation i.
  char *at(std::int64_t i) {
    return data_.get() + (layout_.slots > 1 ? (i % layout_.slots) * layout_.stride : 0);
  }
  /// The same, read-only.
  const char *at(std::int64_t i) const {
    return data_.get() + (layout_.slots > 1 ? (i % layout_.slots) * layout_.stride : 0);
  }
  /// Bytes of one message.
  std::int64_t length() const { return length_; }
  /// Fills every message position with `rank`'s bytes (byte_of) or floats (float_of).
  void fill(int rank, bool floats);

private:
  std::int64_t length_ = 0;
  CacheLayout layout_;
  struct Free {
    Free() : mpi(true) {}
    explicit Free(bool from_mpi) : mpi(from_mpi) {}
    void operator()(char *p) const;
    bool mpi; ///< from MPI_Alloc_mem, else from Boost.Align's aligned_alloc
  };
  std::unique_ptr<char[], Free> data_;
};

/// The send and receive buffers of one test on one rank.
struct Buffers {
  Region send; ///< what this rank sends (never written by a transfer)
  Region recv; ///< where this rank receives
};

} // namespace imb
