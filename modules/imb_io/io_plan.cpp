// The IMB 3.2 User Guide's IO methodology, the plan of one benchmark: its directives
// (settings_io.h, §5.2.1), process counts (§5.1.2.2), the active processes and their file
// (§5.2.2, §5.2.3.2), I/O lengths and n_sample (§5.2.4.2, §5.2.8: MSGSPERSAMPLE for reads and
// aggregate writes, MSGS_NONAGGR for non-aggregate writes and Open_Close), as tests.
#include <algorithm>

#include "io_module.hpp"
#include "schedule.hpp"

namespace imb::io {

std::vector<pio::DirectiveSpec> directives(const Benchmark &b) {
  // IMB-IO's standard values (settings_io.h, §5.2.1): MAXMSGLOG 24, MSGSPERSAMPLE 50,
  // MSGS_NONAGGR 10, OVERALL_VOL 16 MB, SECS_PER_SAMPLE 10. No warm-up (§5.2.6 is MPI1 and EXT
  // only), no off_cache.
  std::vector<pio::DirectiveSpec> d;
  for (auto s : imb::directives()) {
    if (s.name == "MaxMsgLog")
      s.default_value = "24";
    else if (s.name == "MsgsPerSample")
      s.default_value = "50";
    else if (s.name == "OverallVolume")
      s.default_value = "16M";
    else if (s.name == "WarmUp" || s.name == "OffCache" || s.name == "CacheLineSize" ||
             s.name == "RootShift" || s.name == "ReduceScatter" || s.name == "BufferAlignment" ||
             s.name == "Methodology" || s.name == "Sync")
      continue;
    d.push_back(std::move(s));
  }
  d.push_back(pio::DirectiveSpec{"MsgsNonAggr", pio::DirectiveType::Integer, "10",
                                 "MSGS_NONAGGR: transfers per sample of non-aggregate writes and "
                                 "Open_Close (§5.2.1, §5.2.8)"}
                  .at_least(1));
  if (is_write(b) && !b.nonblocking)
    d.push_back(pio::DirectiveSpec{"Mode",
                                   pio::DirectiveType::Text,
                                   "aggregate",
                                   "aggregate: M = n_sample writes per completion; "
                                   "non-aggregate: M = 1 (§4.2.2.2)",
                                   {"aggregate", "non-aggregate"}});
  if (b.nonblocking)
    d.push_back(pio::DirectiveSpec{"TargetCpuSecs", pio::DirectiveType::Real, "0.01",
                                   "TARGET_CPU_SECS: seconds of CPU exploit per transfer "
                                   "(§4.2.5.1, §5.2.8.3)"}
                    .between(1e-6, 10));
  return d;
}

std::vector<pio::io::Capability> needs(const Benchmark &b) {
  using C = pio::io::Capability;
  if (b.action == Action::None)
    return {C::IndividualPointers}; // Open_Close: MPI_File_write of one byte
  std::vector<C> out;
  switch (b.pos) {
  case Positioning::Indv: // the tiled view (§5.2.3.4, Table 11) and the individual pointer
    out = {C::FileViews, C::IndividualPointers};
    break;
  case Positioning::Priv:
    out = {C::IndividualPointers};
    break;
  case Positioning::Shared:
    out = {C::SharedPointers};
    break;
  case Positioning::Expl:
    break;
  }
  if (b.cls == Class::Collective)
    out.push_back(C::Collective);
  if (b.nonblocking) // split collectives for the collective ones (§4.2.5)
    out.push_back(b.cls == Class::Collective ? C::Split : C::NonBlocking);
  return out;
}

std::vector<pio::TestSpec> IoModule::init_module(const pio::ModuleContext &ctx) {
  ctx.require(ctx.module_name + " (IMB-IO " + b_.name + ")", needs(b_));
  cfg_ = read_config(ctx.settings);
  verify_ = untimed_verify_only(ctx.verify, ctx.module_name);
  hints_ = ctx.hints;
  if (ctx.settings.has("Mode") && ctx.settings.text("Mode") == "non-aggregate")
    mode_ = Mode::NonAggregate;
  if (ctx.settings.has("TargetCpuSecs"))
    target_cpu_s_ = ctx.settings.real("TargetCpuSecs");
  const bool single = b_.cls == Class::Single, none = b_.action == Action::None;
  // Reads and aggregate writes: MSGSPERSAMPLE; non-aggregate writes and Open_Close: MSGS_NONAGGR.
  const std::int64_t count = none || (is_write(b_) && mode_ == Mode::NonAggregate)
                                 ? ctx.settings.integer("MsgsNonAggr")
                                 : cfg_.msgs_per_sample;
  const std::vector<int> counts =
      single ? std::vector<int>{1} : process_counts(ctx.size, cfg_.np_min, false);
  const std::vector<std::int64_t> lengths = none ? std::vector<std::int64_t>{0} : cfg_.lengths;
  std::vector<pio::TestSpec> tests;
  for (int np : counts) {
    const pio::RankGroups groups = single ? pio::RankGroups::first(1)
                                          : rank_groups(ctx.size, np, cfg_.multi, cfg_.px, cfg_.py);
    const int ngroups = *std::max_element(groups.color.begin(), groups.color.end()) + 1;
    pio::ImbTable table =
        methodology_table(groups, cfg_.multi, cfg_.outflag, cfg_.px, cfg_.py, cfg_.mbytes_unit);
    table.title = b_.name;
    table.time = single ? pio::TimeColumns::Single : pio::TimeColumns::Range;
    table.bytes = none ? pio::BytesColumn::None : pio::BytesColumn::Shown;
    // IMB prints "MODE: AGGREGATE" for reads and non-blocking benchmarks too (their one mode:
    // no completion step, or aggregate only, §4.2.5); Open_Close has none.
    table.mode = none                       ? pio::TableMode::None
                 : mode_ == Mode::Aggregate ? pio::TableMode::Aggregate
                                            : pio::TableMode::NonAggregate;
    for (std::int64_t x : lengths) {
      const std::int64_t n = none ? count : sample_count(x, count, cfg_.overall_vol);
      pio::TestSpec s;
      s.label = b_.name + " np" + std::to_string(np) + (none ? "" : " " + pio::format_size(x));
      s.buffer_size = x;
      s.file = none                          ? pio::FileUse::None
               : b_.pos == Positioning::Priv ? pio::FileUse::FilePerProcess
                                             : pio::FileUse::Shared;
      s.amode = MPI_MODE_CREATE | MPI_MODE_RDWR;
      // §5.2.3.2: the file is prepared once per benchmark, before its message lengths, and each
      // length writes it from the start; so does this one (a fresh file per length made every
      // write on tmpfs allocate its pages: 1.3-1.7x IMB's t at 1-4 MiB on /dev/shm).
      s.keep_file = !none;
      s.groups = groups;
      s.phases[0].work_units = 1;
      if (!none) // the harness measures the page cache before a read (CacheMode)
        s.phases[0].access = is_write(b_) ? pio::PhaseAccess::Write : pio::PhaseAccess::Read;
      pio::CommSemantics comm;
      comm.ops_per_unit = n;
      comm.message_bytes = x;
      comm.report = none ? pio::Report::Latency : pio::Report::Both;
      comm.table = table;
      s.comm = comm;
      s.params = {{"benchmark", b_.name},
                  {"np", std::to_string(np)},
                  {"msg_bytes", std::to_string(x)},
                  {"n_sample", std::to_string(n)},
                  {"mbytes_unit", cfg_.mbytes_unit}};
      // IMB prints "MODE: AGGREGATE" for reads and non-blocking benchmarks too (their one mode:
      // no completion step, or aggregate only, §4.2.5); Open_Close has none.
      if (!none)
        s.params["mode"] = mode_ == Mode::Aggregate ? "aggregate" : "non-aggregate";
      if (cfg_.multi)
        s.params["multi_outflag"] = std::to_string(cfg_.outflag);
      if (ngroups > 1)
        s.params["group_ranks"] = group_members(groups, cfg_.px, cfg_.py);
      if (b_.nonblocking)
        s.params["target_cpu_secs"] = std::to_string(target_cpu_s_);
      tests.push_back(std::move(s));
    }
  }
  if (b_.nonblocking && !ctx.validate_only) // the pre-flight check skips the calibration
    t_cpu_ = cpu_.calibrate(target_cpu_s_);
  return tests;
}

} // namespace imb::io
