#include "buffers.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include <boost/align/aligned_alloc.hpp>
#include <mpi.h>

#include "pio/mpi_handles.hpp"

namespace imb {

std::uint8_t byte_of(int rank, std::int64_t offset) {
  return static_cast<std::uint8_t>(rank * 131 + offset * 7 + offset / 251 + 1);
}

float float_of(int rank, std::int64_t index) { return static_cast<float>(rank + 1 + index % 64); }

Region::Region(std::int64_t length, CacheLayout layout, Placement placement)
    : length_(length), layout_(layout) {
  const size_t bytes = static_cast<size_t>(std::max<std::int64_t>(1, layout.bytes(length)));
  char *p = nullptr;
  if (placement == Placement::Malloc) {
    // IMB allocates the send, then the receive buffer of every length with MPI_Alloc_mem and
    // frees both after the length (IMB_alloc_buf, IMB_del_s_buf / IMB_del_r_buf); the module's
    // tests do the same, so the buffers land where IMB's do. Where that is matters on this
    // machine: a receive buffer a few bytes past the send buffer modulo 4 KiB (two heap chunks
    // in a row) slows the copies (4 KiB aliasing), e.g. IMB's Allgather at 64 KiB 22 us
    // against 14 us with page-aligned buffers (docs/reference/imb.md).
    pio::mpi_check(MPI_Alloc_mem(static_cast<MPI_Aint>(bytes), MPI_INFO_NULL, &p), "MPI_Alloc_mem");
  } else {
    p = static_cast<char *>(boost::alignment::aligned_alloc(4096, bytes));
  }
  if (!p)
    throw std::bad_alloc();
  data_ = std::unique_ptr<char[], Free>(p, Free{placement == Placement::Malloc});
  std::memset(data_.get(), 0, bytes);
}

void Region::Free::operator()(char *p) const {
  if (mpi)
    MPI_Free_mem(p);
  else
    boost::alignment::aligned_free(p);
}

void Region::fill(int rank, bool floats) {
  char *first = at(0);
  if (floats) {
    const std::int64_t n = length_ / static_cast<std::int64_t>(sizeof(float));
    for (std::int64_t k = 0; k < n; ++k) {
      const float v = float_of(rank, k);
      std::memcpy(first + k * static_cast<std::int64_t>(sizeof(float)), &v, sizeof v);
    }
  } else {
    for (std::int64_t k = 0; k < length_; ++k)
      first[k] = static_cast<char>(byte_of(rank, k));
  }
  for (std::int64_t s = 1; s < layout_.slots; ++s)
    std::memcpy(at(s), first, static_cast<size_t>(length_));
}

} // namespace imb
