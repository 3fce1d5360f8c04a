#include "one_sided.hpp"

#include <algorithm>

#include "settings.hpp"

namespace imb::ext {

void OneSided::configure(const pio::Settings &s, Config &c) {
  if (has_modes_ && s.has("Mode"))
    mode_ = s.text("Mode") == "non-aggregate" ? Mode::NonAggregate : Mode::Aggregate;
  if (has_modes_ && s.has("Sections"))
    zero_sections_ = s.text("Sections") == "zero";
  // The repetition count of non-aggregate benchmarks (and of Window, which has no mode) comes
  // from MSGS_NONAGGR instead of MSGSPERSAMPLE (§5.2.8).
  if (mode_ == Mode::NonAggregate && s.has("MsgsNonAggr"))
    c.msgs_per_sample = s.integer("MsgsNonAggr");
}

std::map<std::string, std::string> OneSided::params() const {
  if (!has_modes_)
    return {};
  std::map<std::string, std::string> p{
      {"mode", mode_ == Mode::Aggregate ? "aggregate" : "non-aggregate"}};
  if (zero_sections_)
    p["sections"] = "zero";
  return p;
}

pio::TableMode OneSided::table_mode() const {
  if (!has_modes_)
    return pio::TableMode::None;
  return mode_ == Mode::Aggregate ? pio::TableMode::Aggregate : pio::TableMode::NonAggregate;
}

void OneSided::open_window(const Op &op, std::int64_t bytes_per_slot, bool expose, int unit) {
  slots_ = mode_ == Mode::Aggregate && !zero_sections_ ? std::max<std::int64_t>(1, op.n_max) : 1;
  memory_.assign(expose ? static_cast<size_t>(slots_ * bytes_per_slot) : 0, 0);
  pio::mpi_check(MPI_Win_create(memory_.data(), static_cast<MPI_Aint>(memory_.size()), unit,
                                MPI_INFO_NULL, op.comm, win_.out()),
                 "MPI_Win_create");
  fence();
}

void OneSided::fence() const { pio::mpi_check(MPI_Win_fence(0, win_.get()), "MPI_Win_fence"); }

void OneSided::release(const Op &) {
  MPI_Win w = win_.release();
  if (w != MPI_WIN_NULL)
    pio::mpi_check(MPI_Win_free(&w), "MPI_Win_free");
  memory_.clear();
}

std::vector<pio::DirectiveSpec> directives(bool has_modes) {
  // IMB-EXT keeps the guide's methodology: its aggregate modes time a sample as a whole.
  std::vector<pio::DirectiveSpec> d;
  for (auto &s : imb::directives())
    if (s.name != "Methodology" && s.name != "Sync")
      d.push_back(s);
  d.push_back(pio::DirectiveSpec{"MsgsNonAggr", pio::DirectiveType::Integer, "100",
                                 "MSGS_NONAGGR: most operations per sample in non-aggregate "
                                 "mode and for Window (§5.2.1, §5.2.8)"}
                  .at_least(1));
  if (has_modes)
    d.push_back(pio::DirectiveSpec{"Sections",
                                   pio::DirectiveType::Text,
                                   "disjoint",
                                   "aggregate mode: transfer i at section i (disjoint, §4.2.2.2.2) "
                                   "or every transfer at displacement 0 (zero: IMB 2019+ without "
                                   "-off_cache)",
                                   {"disjoint", "zero"}});
  if (has_modes)
    d.push_back(pio::DirectiveSpec{"Mode",
                                   pio::DirectiveType::Text,
                                   "aggregate",
                                   "aggregate: M = n_sample transfers per fence; non-aggregate: "
                                   "M = 1 (§4.2.2.2)",
                                   {"aggregate", "non-aggregate"}});
  return d;
}

} // namespace imb::ext
