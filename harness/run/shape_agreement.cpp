// The shape of a test agreed across its ranks before its first work unit (shape_agreement.hpp).
#include "run/shape_agreement.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pio::harness {

namespace {

/// "0-2, 5" for ranks {0, 1, 2, 5}.
std::string rank_list(const std::vector<int> &ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]) +
           (j > i ? "-" + std::to_string(ranks[j]) : "");
    i = j + 1;
  }
  return out;
}

/// "3 on ranks 0-2, 5 on rank 3" for value[r] of each rank r.
std::string by_value(const std::vector<std::int64_t> &value,
                     const std::string &(*name)(std::int64_t, std::string &)) {
  std::map<std::int64_t, std::vector<int>> ranks;
  for (std::size_t r = 0; r < value.size(); ++r)
    ranks[value[r]].push_back(static_cast<int>(r));
  std::string out, text;
  for (const auto &[v, rs] : ranks)
    out += (out.empty() ? "" : ", ") + name(v, text) + " on rank" + (rs.size() > 1 ? "s " : " ") +
           rank_list(rs);
  return out;
}

const std::string &count_name(std::int64_t v, std::string &text) {
  text = std::to_string(v);
  return text;
}

const std::string &units_name(std::int64_t v, std::string &text) {
  text = v < 0 ? std::string("a time budget") : std::to_string(v) + " work units";
  return text;
}

/// The first rank whose value differs from rank 0's (-1: none).
int first_other(const std::vector<std::int64_t> &value) {
  for (std::size_t r = 1; r < value.size(); ++r)
    if (value[r] != value[0])
      return static_cast<int>(r);
  return -1;
}

const char *const kFix = " (fix: a bug in the module: every rank of a test must declare the same "
                         "phases, work units and time budgets, in init_module and describe_test)";

} // namespace

std::optional<Failure> disagreement_on_shape(MPI_Comm comm, const TestSpec &spec) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const auto n = static_cast<std::size_t>(size);
  std::int64_t phases = static_cast<std::int64_t>(spec.phases.size());
  std::vector<std::int64_t> all(n);
  MPI_Allgather(&phases, 1, MPI_INT64_T, all.data(), 1, MPI_INT64_T, comm);
  if (const int r = first_other(all); r >= 0)
    return Failure{r,
                   "the ranks of the test disagree on its number of phases before its first "
                   "work unit: " +
                       by_value(all, count_name) + kFix,
                   {}};
  // Per phase: -1 if time-driven (the root alone decides when it ends), else its work units.
  std::vector<std::int64_t> mine;
  for (const Phase &p : spec.phases)
    mine.push_back(p.time_budget_s > 0 ? -1 : p.work_units);
  std::vector<std::int64_t> units(n * mine.size());
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_INT64_T, units.data(),
                static_cast<int>(mine.size()), MPI_INT64_T, comm);
  for (std::size_t k = 0; k < mine.size(); ++k) {
    std::vector<std::int64_t> phase(n);
    for (std::size_t r = 0; r < n; ++r)
      phase[r] = units[r * mine.size() + k];
    if (const int r = first_other(phase); r >= 0)
      return Failure{r,
                     "the ranks of the test disagree on phase " + std::to_string(k + 1) +
                         (spec.phases[k].label.empty() ? "" : " (" + spec.phases[k].label + ")") +
                         " before its first work unit: " + by_value(phase, units_name) + kFix,
                     {}};
  }
  return std::nullopt;
}

} // namespace pio::harness
