// The b_eff_io plan (b_eff_io paper §5.1, Table 2, §5.4).
#include "plan.hpp"

#include <algorithm>

#include "access.hpp"
#include "pio/error.hpp"
#include "pio/mpi_handles.hpp"
#include "schedule.hpp"

namespace pio::beff {
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
    const double nominal = pattern_budget(in.scheduled_time, p.U, m.sum_u);
    m.phases.push_back({i, false, nominal});
    if (m.method != Method::Read)
      m.phases.push_back({i, true, 0.0});
  }
  for (const auto &d : m.phases) {
    const Pattern &p = m.patterns[d.pattern];
    Phase ph;
    ph.label = phase_label(m.method, p, d.sync);
    ph.work_units = 1; // set per repetition in describe_test
    // Loops of types 0-2 are time-driven: T/3 * U/ΣU each (§5.1); rewrite and read too unless
    // ReadRewrite count. A write loop ends at the pattern's share of MaxFileSize (all ranks'
    // bytes) as a safety cap; all selected pattern types' files exist together, so the cap is
    // shared by U over all of them.
    const bool time_driven = !d.sync && m.type <= 2 && p.U > 0 && in.fixed_units == 0 &&
                             (m.method == Method::Write || !in.repeat_exactly);
    if (time_driven)
      ph.time_budget_s = d.nominal;
    if (time_driven && m.method == Method::Write) {
      const std::int64_t per_unit = m.procs * p.L; // type 2: the sum of the ranks' files
      if (in.max_file_size > 0 && m.sum_u > 0)
        ph.max_work_units = std::max<std::int64_t>(1, in.max_file_size / m.sum_u * p.U / per_unit);
    }
    m.spec.phases.push_back(ph);
  }
}

} // namespace

std::vector<int> partitions_of(int processes, const std::vector<std::int64_t> &listed) {
  std::vector<int> out;
  for (auto p : listed) {
    if (p > processes)
      throw Error("Partitions: " + std::to_string(p) + " is more than the " +
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
    for (const auto &p : table)
      if (selected(p))
        sum_u += p.U;
    // One template per pattern type; the tests are then laid out method-major (§5.1).
    std::vector<TestPlan> per_type;
    for (int type : in.types) {
      TestPlan m;
      m.procs = procs;
      m.type = type;
      m.mpart = mpart;
      m.mpart_by_definition = by_definition;
      m.sum_u = sum_u;
      for (const auto &p : table)
        if (p.type == type && selected(p))
          m.patterns.push_back(p);
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
        TestPlan m = type_plan;
        m.method = method;
        m.spec.label = "P" + std::to_string(procs) + " type " + std::to_string(m.type) + " " +
                       method_name(method);
        // The write and the rewrite leave the file for the tests after them; the read is its
        // last use, after which the harness deletes it (the next partition writes it anew).
        m.spec.keep_file = method != Method::Read;
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

} // namespace pio::beff
