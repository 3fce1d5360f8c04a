#include "run/consensus.hpp"

#include <exception>
#include <vector>

#include "guard/position.hpp"
#include "pio/error.hpp"

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
  // The failing rank sends its host, a NUL, then its message.
  std::string mine_text;
  if (rank == first) {
    char host[MPI_MAX_PROCESSOR_NAME] = {0};
    int host_len = 0;
    MPI_Get_processor_name(host, &host_len);
    mine_text = std::string(host, static_cast<size_t>(host_len)) + '\0' + local_error;
  }
  int len = static_cast<int>(mine_text.size());
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  std::vector<char> text(static_cast<size_t>(len));
  if (rank == first)
    text.assign(mine_text.begin(), mine_text.end());
  MPI_Bcast(text.data(), len, MPI_CHAR, first, comm);
  const std::string all(text.begin(), text.end());
  const auto nul = all.find('\0');
  return Failure{first, all.substr(nul + 1), all.substr(0, nul)};
}

bool any_rank(MPI_Comm comm, bool mine) {
  int local = mine ? 1 : 0, any = 0;
  MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, comm);
  return any != 0;
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
