#pragma once
/// Agreeing on failures across ranks, so that one rank's error reaches all ranks before the
/// next collective step and no rank waits forever (docs/reference/reliability.md).

#include <mpi.h>

#include <optional>
#include <string>

namespace pio::harness {

/// A failure that all ranks agreed on: the lowest failing rank and its message.
struct Failure {
  int rank = 0;        ///< rank (in the agreeing communicator) whose message this is
  std::string message; ///< what failed, where, and how to fix it
  std::string host;    ///< the node of that rank (MPI_Get_processor_name)
};

/// Collective over comm: every rank passes its local error ("" = none). Returns, on every rank,
/// the failure of the lowest failing rank, or nothing if no rank failed. One MPI_Allreduce when
/// nothing failed.
std::optional<Failure> agree(MPI_Comm comm, const std::string &local_error);

/// Collective over comm: true on every rank if `mine` is true on any rank. One MPI_Allreduce of
/// one int, so it is also a barrier (the unit loop's B2).
bool any_rank(MPI_Comm comm, bool mine);

/// Runs f(); returns "" if it returned, else "<step>: <what> (fix: <hint>)". The step (a
/// string or a literal) becomes a std::string only on failure: the unit loop calls this twice
/// per work unit, and "before_work_unit" is too long for the short-string buffer (a malloc).
template <class Step, class F> std::string capture(const Step &step, F &&f);

/// Formats the exception currently being handled as "<step>: <what> (fix: <hint>)".
std::string describe_current_exception(const std::string &step);

template <class Step, class F> std::string capture(const Step &step, F &&f) {
  try {
    f();
    return {};
  } catch (...) {
    return describe_current_exception(step);
  }
}

} // namespace pio::harness
