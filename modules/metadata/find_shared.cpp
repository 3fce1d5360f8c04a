#include "find_shared.hpp"

#include <cstdint>

#include "directories.hpp"
#include "pio/error.hpp"
#include "pio/mpi_handles.hpp"

namespace pio::metadata {

std::vector<std::string> gather_paths(MPI_Comm comm, const std::vector<std::string> &mine) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  // Each path with its terminating NUL, back to back.
  std::string packed;
  for (const auto &p : mine) {
    packed += p;
    packed += '\0';
  }
  // Lengths in 64 bits, so that every rank sees the same total and refuses it alike.
  const std::int64_t len = static_cast<std::int64_t>(packed.size());
  std::vector<std::int64_t> lens(static_cast<std::size_t>(ranks));
  mpi_check(MPI_Allgather(&len, 1, MPI_INT64_T, lens.data(), 1, MPI_INT64_T, comm),
            "MPI_Allgather");
  std::vector<int> counts(lens.size()), offsets(lens.size());
  std::int64_t total = 0;
  for (std::size_t r = 0; r < lens.size(); ++r) {
    offsets[r] = static_cast<int>(total);
    counts[r] = static_cast<int>(lens[r]);
    total += lens[r];
  }
  if (total > INT32_MAX)
    throw Error("find: one level of the tree holds " + std::to_string(total) +
                    " bytes of directory names, more than one MPI_Allgatherv moves",
                "use fewer directories per level (lower Branching)");
  std::vector<char> all(static_cast<std::size_t>(total));
  mpi_check(MPI_Allgatherv(packed.data(), static_cast<int>(len), MPI_CHAR, all.data(),
                           counts.data(), offsets.data(), MPI_CHAR, comm),
            "MPI_Allgatherv");
  std::vector<std::string> out;
  for (std::size_t at = 0; at < all.size();) {
    out.emplace_back(all.data() + at);
    at += out.back().size() + 1;
  }
  return out;
}

FindCount find_walk_shared(io::Backend &b, const std::string &top, const FindRule &rule,
                           MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  FindCount count;
  std::vector<std::string> level{top}, found;
  while (!level.empty()) {
    found.clear();
    std::string error;
    try {
      for (std::size_t k = 0; k < level.size(); ++k)
        if (reads_dir(k, rank, ranks))
          count += find_in_dir(b, level[k], rule, found);
    } catch (const Error &e) {
      error = std::string(e.what()) + " (fix: " + e.hint() + ")";
    }
    raise_agreed(comm, error); // no rank waits in the gather for one that failed
    level = gather_paths(comm, found);
  }
  return count;
}

} // namespace pio::metadata
