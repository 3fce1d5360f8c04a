// The IMB 3.2 User Guide §5 methodology around one kernel: process counts and groups (§5.1.2.2,
// §5.1.2.3, §5.1.2.10, §5.2.2), message lengths (§5.2.4), repetitions (§5.2.8, §5.1.2.6), warm-up
// (§5.2.6), off_cache buffers (§5.1.2.4). The sample itself (§5.2.8.1) is the harness's work
// unit: its B1 barrier, each rank's clock around n_sample operations, B2.
#include "imb_module.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>

#include "schedule.hpp"

namespace imb {

ImbModule::~ImbModule() = default;

std::vector<pio::TestSpec> ImbModule::init_module(const pio::ModuleContext &ctx) {
  cfg_ = read_config(ctx.settings);
  kernel_->configure(ctx.settings, cfg_);
  verify_ = untimed_verify_only(ctx.verify, ctx.module_name);
  world_rank_ = ctx.rank;
  const Traits &t = kernel_->traits();
  const std::vector<int> counts = process_counts(ctx.size, cfg_.np_min, t.kind == Kind::Single);
  if (counts.empty())
    throw pio::Error(std::string(t.name) + " needs 2 processes (IMB 3.2 User Guide §3.3.1.1)",
                     "run with mpiexec -n 2 or more");
  if (cfg_.px > 0 && cfg_.px * cfg_.py < ctx.size)
    throw pio::Error("Map " + std::to_string(cfg_.px) + "x" + std::to_string(cfg_.py) +
                         " numbers fewer ranks than the " + std::to_string(ctx.size) + " running",
                     "give P x Q >= the process count (IMB -map)");
  const std::vector<std::int64_t> lengths =
      t.sized() ? kernel_lengths(cfg_.lengths, t.floats() ? 4 : 1) : std::vector<std::int64_t>{0};
  std::vector<pio::TestSpec> tests;
  for (int np : counts) {
    const pio::RankGroups groups = rank_groups(ctx.size, np, cfg_.multi, cfg_.px, cfg_.py);
    const int ngroups = *std::max_element(groups.color.begin(), groups.color.end()) + 1;
    pio::ImbTable table =
        methodology_table(groups, cfg_.multi, cfg_.outflag, cfg_.px, cfg_.py, cfg_.mbytes_unit);
    table.title = t.name;
    table.methodology = methodology_line(cfg_);
    table.time = t.kind == Kind::Single ? pio::TimeColumns::Single : pio::TimeColumns::Range;
    table.bytes = t.sized() ? pio::BytesColumn::Shown : pio::BytesColumn::None;
    table.mode = kernel_->table_mode();
    for (std::int64_t x : lengths) {
      const Lengths len = kernel_->lengths(x, np);
      if (std::max(len.send, len.recv) > INT_MAX)
        throw pio::Error(std::string(t.name) + " on " + std::to_string(np) + " processes needs " +
                             std::to_string(std::max(len.send, len.recv)) +
                             " bytes in one buffer, above IMB's int displacements",
                         "give smaller MsgLengths");
      const std::int64_t n = t.sized() ? sample_count(x, cfg_.msgs_per_sample, cfg_.overall_vol)
                                       : cfg_.msgs_per_sample;
      pio::TestSpec s;
      s.label = std::string(t.name) + " np" + std::to_string(np) +
                (t.sized() ? " " + pio::format_size(x) : std::string());
      s.buffer_size = x;
      s.file = pio::FileUse::None;
      s.groups = groups;
      // -sync 1 (IMB 2019+): one collective operation per unit, the harness's B2 and B1 between
      // them are the barrier after each operation, outside its time.
      const bool one_per_unit = per_operation();
      s.phases[0].work_units = one_per_unit ? n : 1;
      pio::CommSemantics comm;
      comm.ops_per_unit = one_per_unit ? 1 : n;
      comm.time_scale = t.time_scale;
      comm.message_bytes = x;
      comm.bytes_scale = t.bytes_scale;
      comm.report = t.kind == Kind::Collective ? pio::Report::Latency : pio::Report::Both;
      comm.table = table;
      s.comm = comm;
      s.params = {{"benchmark", t.name},
                  {"np", std::to_string(np)},
                  {"groups", std::to_string(ngroups)},
                  {"msg_bytes", std::to_string(x)},
                  {"n_sample_max", std::to_string(n)},
                  {"datatype", t.floats() ? "MPI_FLOAT" : "MPI_BYTE"},
                  {"mbytes_unit", cfg_.mbytes_unit},
                  {"methodology", methodology_name(cfg_.methodology)}};
      if (t.kind == Kind::Collective)
        s.params["sync"] = one_per_unit ? "1" : "0";
      for (const auto &[k, v] : kernel_->params())
        s.params[k] = v;
      if (t.root == Root::Rotating)
        s.params["root_shift"] = cfg_.root_shift ? "on" : "off";
      if (cfg_.multi)
        s.params["multi_outflag"] = std::to_string(cfg_.outflag);
      if (ngroups > 1)
        s.params["group_ranks"] = group_members(groups, cfg_.px, cfg_.py);
      if (cfg_.px > 0)
        s.params["map"] = std::to_string(cfg_.px) + "x" + std::to_string(cfg_.py);
      if (cfg_.cache_size > 0)
        s.params["off_cache"] =
            std::to_string(cfg_.cache_size) + "," + std::to_string(cfg_.cache_line);
      if (cfg_.page_buffers)
        s.params["buffer_alignment"] = "page";
      tests.push_back(std::move(s));
    }
  }
  return tests;
}

double ImbModule::run_ops(std::int64_t count) {
  const double start = MPI_Wtime();
  kernel_->sample(op_, count);
  return MPI_Wtime() - start;
}

std::int64_t ImbModule::limited_count(MPI_Comm all, std::int64_t n_sample) {
  // One operation, then as many as fit in about a second, the slowest rank deciding (§5.1.2.6).
  const double t_op = probe_time_per_op(all, n_sample, [&](std::int64_t n) { return run_ops(n); });
  return time_limited_count(n_sample, t_op, cfg_.time_limit, previous_n_);
}

void ImbModule::describe_test(pio::TestContext &test) {
  const pio::CommSemantics &comm = *test.spec().comm;
  const Traits &t = kernel_->traits();
  // The active processes in -map order (§5.1.2.10); the harness splits by world rank.
  op_.comm = test.comm;
  if (cfg_.px > 0) {
    pio::mpi_check(
        MPI_Comm_split(test.comm, 0, map_position(world_rank_, cfg_.px, cfg_.py), &mapped_),
        "MPI_Comm_split");
    op_.comm = mapped_;
  }
  MPI_Comm_rank(op_.comm, &op_.rank);
  MPI_Comm_size(op_.comm, &op_.np);
  op_.x = comm.message_bytes;
  op_.rotate_root = cfg_.root_shift;
  op_.split_scatter = cfg_.split_scatter;
  // Separate send and receive buffers (§5.2.5), cycled under -off_cache (§5.1.2.4).
  const Lengths len = kernel_->lengths(op_.x, op_.np);
  // n_sample before the run-time limit: per unit, or (-sync 1) the units of one operation each.
  const std::int64_t n = per_operation() ? test.spec().phases[0].work_units : comm.ops_per_unit;
  const Placement at = cfg_.page_buffers ? Placement::Page : Placement::Malloc;
  buf_.send = Region(len.send, cache_layout(len.send, cfg_.cache_size, cfg_.cache_line, n), at);
  buf_.recv = Region(len.recv, cache_layout(len.recv, cfg_.cache_size, cfg_.cache_line, n), at);
  buf_.send.fill(op_.rank, t.floats());
  op_.buf = &buf_;
  op_.n_max = n;
  kernel_->prepare(op_);
  // A new table (process count) starts the run-time limit's monotone sequence afresh.
  if (op_.np != last_np_)
    previous_n_ = 0;
  last_np_ = op_.np;
  n_ = n;
  if (cfg_.time_limit > 0)
    n_ = limited_count(test.all, n);
  previous_n_ = n_;
  if (per_operation()) {
    test.set_work_units(0, n_);
    test.set_ops_per_unit(1);
  } else {
    test.set_ops_per_unit(n_);
  }
  if (cfg_.warm_up)
    run_ops(warmup_count(n_));
  if (verify_) // the sample's own transfers must deliver what the check finds
    for (std::int64_t s = 0; s < std::min<std::int64_t>(n_, 2); ++s)
      std::memset(buf_.recv.at(s), 0, static_cast<size_t>(len.recv));
}

bool ImbModule::per_operation() const {
  return cfg_.sync && kernel_->traits().kind == Kind::Collective;
}

std::int64_t ImbModule::work_unit(pio::UnitContext &unit) {
  if (per_operation()) { // operation i = unit i: its root and its off_cache position
    kernel_->run(op_, unit.unit);
    return kernel_->bytes_sent(op_);
  }
  kernel_->sample(op_, n_);
  return n_ * kernel_->bytes_sent(op_);
}

void ImbModule::after_work_unit(pio::UnitContext &unit) {
  if (!verify_)
    return;
  const std::string e = kernel_->check(op_, per_operation() ? unit.unit : n_ - 1);
  if (!e.empty())
    throw pio::Error(std::string(kernel_->traits().name) + ", rank " + std::to_string(op_.rank) +
                         " of " + std::to_string(op_.np) + ", X = " + std::to_string(op_.x) + ": " +
                         e,
                     "the MPI library delivered wrong data; rerun to see if it repeats");
}

void ImbModule::cleanup_test(pio::TestContext &) {
  if (op_.buf)
    kernel_->release(op_);
  if (mapped_ != MPI_COMM_NULL)
    MPI_Comm_free(&mapped_);
  buf_ = Buffers{};
  op_.buf = nullptr;
}

pio::ModuleInfo module_info(std::unique_ptr<Kernel> (*make)(), pio::CreateModule create) {
  const Traits t = make()->traits();
  std::string name = "imb_";
  for (const char *c = t.name; *c; ++c)
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  pio::ModuleInfo m(name, create);
  m.title = t.name;
  m.family = pio::ModuleFamily::Imb;
  const char *what = t.kind == Kind::Single     ? "single transfer: time and throughput"
                     : t.kind == Kind::Parallel ? "parallel transfer: time and turnover throughput"
                                                : "collective: bare time";
  m.summary = std::string("IMB-MPI1 ") + t.name + " (" + what + ")";
  m.reference = std::string("IMB 3.2 User Guide ") + t.section + ", §5";
  m.output = pio::Output::Imb;
  m.directives = directives();
  return m;
}

} // namespace imb
