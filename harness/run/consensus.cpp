#include "run/consensus.hpp"

#include <exception>
#include <vector>

#include "pio/error.hpp"
#include "guard/position.hpp"

namespace pio::harness {

std::optional<Failure> agree(MPI_Comm comm, const std::string &local_error) {
  heartbeat_wait();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = local_error.empty() ? size : rank, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size)
    return std::nullopt;
  int len = rank == first ? static_cast<int>(local_error.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  std::vector<char> text(static_cast<size_t>(len));
  if (rank == first)
    text.assign(local_error.begin(), local_error.end());
  MPI_Bcast(text.data(), len, MPI_CHAR, first, comm);
  return Failure{first, std::string(text.begin(), text.end())};
}

std::string describe_current_exception(const std::string &step) {
  try {
    throw;
  } catch (const Error &e) {
    return step + ": " + e.what() + (e.hint().empty() ? "" : " (fix: " + e.hint() + ")");
  } catch (const std::exception &e) {
    return step + ": " + e.what();
  } catch (...) {
    return step + ": unknown exception";
  }
}

} // namespace pio::harness
