// The b_eff_io plan (b_eff_io paper §5.1, Table 2, §5.4).
#include "plan.hpp"

#include <algorithm>

#include "access.hpp"
#include "pio/error.hpp"
#include "pio/mpi_handles.hpp"
#include "schedule.hpp"

namespace pio::beff_io {
namespace {

const char *const kTypeTitles[kPatternTypes] = {
    "scatter (strided collective, file view)", "shared (strided collective, one call per chunk)",
    "separate (one file per process, non-collective)", "segmented (non-collective)",
    "seg-coll (segmented, collective)"};

/// The test's parameters for the results (CSV columns, compare keys); never read back.
std::map<std::string, std::string> params_of(const PlanInput &in, const TestPlan &m,
                                             bool all_patterns, std::int64_t per_process,
                                             int on_node) {
  std::string list;
  for (const auto &p : m.patterns)
    list += (list.empty() ? "" : " ") + std::to_string(p.number);
  std::map<std::string, std::string> params = {
      {"partition", std::to_string(m.procs)},
      {"pattern_type", std::to_string(m.type)},
      {"pattern_type_name", kTypeTitles[m.type]},
      {"access_method", method_name(m.method)},
      {"patterns", list},
      {"all_patterns", all_patterns ? "yes" : "no"},
      {"scheduled_time_s", std::to_string(in.scheduled_time)},
      {"sum_U", std::to_string(m.sum_u)},
      {"definition", definition_name(in.definition)},
      {"schedule_units", std::to_string(m.schedule_units)},
      {"partition_time_s", std::to_string(m.partition_time)},
      {"M_PART", std::to_string(m.mpart)},
      {"mpart_by_definition", m.mpart_by_definition ? "yes" : "no"},
      {"memory_per_node", std::to_string(in.node_memory)},
      {"memory_source", in.memory_source},
      {"processes_per_node", std::to_string(on_node)},
      {"memory_per_process", std::to_string(per_process)},
      {"fixed_units", std::to_string(in.fixed_units)},
      {"max_file_size", std::to_string(in.max_file_size)},
      {"open_mode", "MPI_MODE_RDWR|MPI_MODE_CREATE (no MPI_MODE_UNIQUE_OPEN, §5.4)"},
      {"chunk_hints", describe_chunk_hints(m.chunk_hints)},
      {"order", "all pattern types written, then rewritten, then read; one open and close per "
                "pattern type and access method (§5.1)"},
      {"rewrite_types", in.rewrite_all ? "all" : "0"},
      {"read_rewrite", in.repeat_exactly ? "count: exactly the units of the initial write"
                                         : "time: T/3*U/sumU, cycling through the units of the "
                                           "initial write"}};
  if (m.type == 1)
    params["positioning"] = in.positioning;
  if (m.type >= 3)
    params["segment"] = "size-driven from the initial writes of types 0-2, LSEG rounded up to "
                        "1 MB (§5.1, §5.4)";
  return params;
}

/// The phases of one test: each pattern's loop, followed by its sync for write and rewrite.
void add_phases(const PlanInput &in, TestPlan &m) {
  for (size_t i = 0; i < m.patterns.size(); ++i) {
    const Pattern &p = m.patterns[i];
    // Paper: T/3 * U/ΣU per method (§5.1); original: T_n * U / U_sum (b_eff_io 2.1).
    const double nominal = in.definition == Definition::Original
                               ? m.partition_time * p.U / std::max(1, m.schedule_units)
                               : pattern_budget(m.partition_time, p.U, m.sum_u);
    m.phases.push_back({i, false, nominal});
    if (m.method != Method::Read)
      m.phases.push_back({i, true, 0.0});
  }
  for (const auto &d : m.phases) {
    const Pattern &p = m.patterns[d.pattern];
    Phase ph;
    ph.label = phase_label(m.method, p, d.sync);
    ph.work_units = 1; // set per repetition in describe_test
    // Write loops of types 0-2 are time-driven (§5.1); rewrite and read too with ReadRewrite
    // time. A write loop also ends at the pattern's share of MaxFileSize (file_cap).
    const bool time_driven = !d.sync && m.type <= 2 && p.U > 0 && in.fixed_units == 0 &&
                             (m.method == Method::Write || !in.repeat_exactly);
    if (time_driven)
      ph.time_budget_s = d.nominal;
    // b_eff_io 2.1 decides after every call; the paper's §5.4 in geometric batches.
    if (in.definition == Definition::Original)
      ph.end_check = EndCheck::PerUnit;
    if (time_driven && m.method == Method::Write && m.cap_units[d.pattern] > 0)
      ph.max_work_units = m.cap_units[d.pattern];
    // What the harness measures the page cache before (CacheMode): the read's loops.
    ph.access = d.sync                     ? PhaseAccess::Unstated
                : m.method == Method::Read ? PhaseAccess::Read
                                           : PhaseAccess::Write;
    m.spec.phases.push_back(ph);
  }
}

} // namespace

std::int64_t unit_bytes_all(const Pattern &p, int procs) {
  return p.fill ? 0 : static_cast<std::int64_t>(procs) * p.L;
}

std::int64_t default_max_file_size(std::int64_t free_bytes, bool in_memory) {
  const std::int64_t f = std::max<std::int64_t>(0, free_bytes);
  return in_memory ? f / 5 * 2 : f / 10 * 9;
}

FileCap file_cap(const std::vector<Pattern> &selected, int procs, std::int64_t max_file_size) {
  FileCap cap;
  int sum_u = 0;
  std::set<int> segmented;
  for (const auto &p : selected) {
    cap.minimum += unit_bytes_all(p, procs);
    sum_u += p.U;
    if (p.type >= 3)
      segmented.insert(p.type);
  }
  // LSEG is rounded up to 1 MB per rank (§5.4): reserve it for each segmented file.
  cap.minimum += static_cast<std::int64_t>(segmented.size()) * procs * kSegmentAlign;
  if (max_file_size < cap.minimum)
    throw Error("MaxFileSize " + std::to_string(max_file_size) + " bytes is below the " +
                    std::to_string(cap.minimum) +
                    " bytes that one call of every selected "
                    "b_eff_io pattern needs on " +
                    std::to_string(procs) +
                    " processes (all "
                    "pattern types' files exist together, from the write to the read)",
                std::string("raise MaxFileSize (") + kMaxFileSizeDefault +
                    "), free space in the TestFile's directory, or lower M_PART with "
                    "MemoryPerNode");
  const std::int64_t extra = max_file_size - cap.minimum;
  for (const auto &p : selected)
    if (p.U > 0 && !p.fill) {
      const double share = static_cast<double>(extra) * p.U / sum_u;
      cap.max_units[p.number] =
          1 + static_cast<std::int64_t>(share / static_cast<double>(unit_bytes_all(p, procs)));
    }
  return cap;
}

std::int64_t most_bytes_written(const TestPlan &m) {
  std::int64_t most = m.type >= 3 ? static_cast<std::int64_t>(m.procs) * kSegmentAlign : 0;
  for (size_t i = 0; i < m.patterns.size(); ++i) {
    const Pattern &p = m.patterns[i];
    if (p.U > 0 && (i >= m.cap_units.size() || m.cap_units[i] <= 0))
      return 0;
    most += (p.U > 0 ? m.cap_units[i] : 1) * unit_bytes_all(p, m.procs);
  }
  return most;
}

int schedule_units(Definition d, const std::vector<Pattern> &selected,
                   const std::set<int> &rewritten_types) {
  int units = 0;
  for (const auto &p : selected) {
    units += p.U;
    if (d == Definition::Original)
      units += p.U * (1 + static_cast<int>(rewritten_types.count(p.type)));
  }
  return units;
}

std::vector<int> partitions_of(int processes, const std::vector<std::int64_t> &listed) {
  std::vector<int> out;
  for (auto p : listed) {
    if (p > processes)
      throw DirectiveError("Partitions",
                           "Partitions: " + std::to_string(p) + " is more than the " +
                               std::to_string(processes) + " processes of the run",
                           "list process counts up to the mpiexec -n count, e.g. Partitions 1 2 4");
    if (std::find(out.begin(), out.end(), p) == out.end())
      out.push_back(static_cast<int>(p));
  }
  if (out.empty())
    out.push_back(processes);
  return out;
}

Plan make_plan(const PlanInput &in) {
  Plan plan;
  plan.partitions = partitions_of(in.processes, in.partitions);
  plan.definition = in.definition;
  // b_eff_io 2.1 rewrites only pattern type 0 unless run with -rewrite (RewriteTypes all).
  for (int type : in.types)
    if (in.rewrite_all || type == 0)
      plan.rewritten_types.insert(type);
  // The paper definition's running schedule keeps each partition to T; b_eff_io 2.1 gives every
  // write loop its share and lets the count-driven rewrites and reads end where they end.
  plan.catch_up = in.definition == Definition::Paper;
  plan.all_patterns = in.types.size() == kPatternTypes && in.numbers.empty();
  const auto selected = [&](const Pattern &p) {
    return in.types.count(p.type) && (in.numbers.empty() || in.numbers.count(p.number));
  };
  for (int procs : plan.partitions) {
    // M_PART from the memory of one process of this partition (§5.1).
    auto node = in.processes_per_node.find(procs);
    const int on_node = std::max(node == in.processes_per_node.end() ? 1 : node->second, 1);
    const std::int64_t per_process = in.node_memory / on_node;
    std::int64_t mpart = mpart_for(per_process);
    bool by_definition = !in.mpart;
    if (in.mpart)
      mpart = *in.mpart;
    // One MPI call per chunk: keep M_PART within an int count (§5.4 notes the same limit).
    if (mpart > kMaxBytesPerCall) {
      mpart = kMaxBytesPerCall;
      by_definition = false;
    }
    const auto table = table2(mpart);
    int sum_u = 0;
    std::vector<Pattern> chosen;
    for (const auto &p : table)
      if (selected(p)) {
        sum_u += p.U;
        chosen.push_back(p);
      }
    const FileCap cap =
        in.max_file_size > 0 ? file_cap(chosen, procs, in.max_file_size) : FileCap{};
    const int units = schedule_units(in.definition, chosen, plan.rewritten_types);
    // One template per pattern type; the tests are then laid out method-major (§5.1).
    std::vector<TestPlan> per_type;
    for (int type : in.types) {
      TestPlan m;
      m.procs = procs;
      m.type = type;
      m.mpart = mpart;
      m.mpart_by_definition = by_definition;
      m.sum_u = sum_u;
      m.schedule_units = units;
      // b_eff_io 2.1 shares T among the partitions (T_n = T / partitions); the paper
      // definition gives each partition its own T.
      m.partition_time = in.definition == Definition::Original
                             ? in.scheduled_time / static_cast<double>(plan.partitions.size())
                             : in.scheduled_time;
      for (const auto &p : table)
        if (p.type == type && selected(p)) {
          m.patterns.push_back(p);
          auto c = cap.max_units.find(p.number);
          m.cap_units.push_back(c == cap.max_units.end() ? 0 : c->second);
        }
      if (m.patterns.empty())
        continue;
      m.chunk_hints = chunk_hints_for(type, m.patterns, in.chunk_hints);
      TestSpec &t = m.spec;
      t.file = type_access(type, true).file;
      // §5.4: never MPI_MODE_UNIQUE_OPEN (it would let MPI defer MPI_File_sync to close).
      t.amode = MPI_MODE_RDWR | MPI_MODE_CREATE;
      t.groups = RankGroups::first(procs);
      auto hints = in.type_hints.find(type);
      if (hints != in.type_hints.end())
        t.hints = hints->second;
      // Each pattern type has its own file (§5.1), kept from its write to its read.
      t.file_suffix = ".type" + std::to_string(type);
      t.phases.clear();
      per_type.push_back(std::move(m));
    }
    for (Method method : all_methods())
      for (const TestPlan &type_plan : per_type) {
        if (method == Method::Rewrite && !plan.rewritten_types.count(type_plan.type))
          continue;
        TestPlan m = type_plan;
        m.method = method;
        m.spec.label = "P" + std::to_string(procs) + " type " + std::to_string(m.type) + " " +
                       method_name(method);
        // The write and the rewrite leave the file for the tests after them; the read is its
        // last use, after which the harness deletes it (the next partition writes it anew).
        m.spec.keep_file = method != Method::Read;
        // b_eff_io 2.1 opens the read with MPI_MODE_DELETE_ON_CLOSE (unless -keep), so the
        // read's close time includes removing the file.
        if (method == Method::Read && in.delete_on_close)
          m.spec.amode |= MPI_MODE_DELETE_ON_CLOSE;
        m.spec.params = params_of(in, m, plan.all_patterns, per_process, on_node);
        add_phases(in, m);
        plan.tests.push_back(std::move(m));
      }
  }
  if (plan.tests.empty())
    throw Error("no b_eff_io pattern is selected",
                "check PatternTypes and Patterns (Table 2 numbers of those types)");
  return plan;
}

} // namespace pio::beff_io
