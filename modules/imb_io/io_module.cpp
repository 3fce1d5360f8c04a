// The IMB 3.2 User Guide's IO methodology around one benchmark: process counts (§5.1.2.2), the
// active processes and their file (§5.2.2, §5.2.3.2), the view (§5.2.3.4), I/O lengths and
// n_sample (§5.2.4.2, §5.2.8: MSGSPERSAMPLE for reads and aggregate writes, MSGS_NONAGGR for
// non-aggregate writes and Open_Close), the blocking sample (§5.2.8.2, Figure 12) and the
// non-blocking one with t_pure, t_CPU and t_ovrl (§4.2.5, §5.2.8.3).
#include "io_module.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "schedule.hpp"

namespace imb::io {

namespace {

bool is_write(const Benchmark &b) { return b.action == Action::Write; }

} // namespace

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
             s.name == "RootShift" || s.name == "ReduceScatter" || s.name == "BufferAlignment")
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

std::vector<pio::TestSpec> IoModule::init_module(const pio::ModuleContext &ctx) {
  cfg_ = read_config(ctx.settings);
  verify_ = ctx.verify;
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

void IoModule::fill_file() {
  // As IMB_init_file prepares a file for input: one process writes the whole file from the
  // start in pieces of 1 MiB (untimed, before the view is set: offsets in bytes). Writing it
  // per transfer from every rank, as pio did before, made the reads on ext4 1.1-1.3x slower
  // than IMB's (docs/imb.md). Each byte is what transfer j of the rank whose portion holds it
  // finds there; a private file holds its own rank's portion n times.
  const bool priv = b_.pos == Positioning::Priv;
  const std::int64_t total = priv ? n_ * portion_.length : n_ * x_;
  if (priv || rank_ == 0) {
    constexpr std::int64_t piece = 1 << 20;
    std::vector<char> data(static_cast<size_t>(std::min(piece, total)));
    for (std::int64_t at = 0; at < total; at += piece) {
      const std::int64_t len = std::min(piece, total - at);
      for (std::int64_t k = 0; k < len; ++k)
        data[static_cast<size_t>(k)] =
            priv ? data_byte(rank_, (at + k) % portion_.length) : file_byte(np_, x_, at + k);
      pio::mpi_check(MPI_File_write_at(fh_, at, data.data(), static_cast<int>(len), MPI_BYTE,
                                       MPI_STATUS_IGNORE),
                     "MPI_File_write_at");
    }
  }
  // IMB closes the prepared file (IMB_init_file): no MPI_File_sync. Syncing here made the
  // reads that follow 1.17x slower on ext4 (pages written back, docs/imb.md), so only a
  // verified run, which needs every process's data visible to the others under MPI's
  // consistency rules (MPI-3.1 §13.6.1), syncs; otherwise a barrier orders the preparation
  // before the reads.
  if (verify_)
    complete();
  else if (!priv)
    pio::mpi_check(MPI_Barrier(comm_), "MPI_Barrier");
}

void IoModule::describe_test(pio::TestContext &test) {
  comm_ = test.comm;
  rank_ = test.rank;
  np_ = test.size;
  fh_ = test.file;
  test_index_ = test.test_index;
  x_ = test.spec().comm->message_bytes;
  n_ = test.spec().comm->ops_per_unit;
  if (b_.action == Action::None) {
    // Open_Close opens a file of its own (§4.2.4.10), claimed before it exists.
    own_path_ = test.module->test_file + ".open_close" +
                (test.groups > 1 ? ".g" + std::to_string(test.group) : "");
    if (rank_ == 0)
      test.module->claim_file(own_path_);
    buf_ = imb::Region(1, imb::CacheLayout{});
    apply_time_limit(test);
    return;
  }
  // Each process moves its portion of X (§4.2.4.3 Figure 15: Nproc disjoint contiguous blocks);
  // a single transfer or a private file: S_ the whole X, _priv the rank's portion.
  portion_ = rank_portion(rank_, np_, x_);
  buf_ = imb::Region(portion_.length, imb::CacheLayout{});
  if (is_write(b_))
    for (std::int64_t k = 0; k < portion_.length; ++k)
      buf_.at(0)[k] = data_byte(rank_, k);
  else
    fill_file();
  // The view (§5.2.3.4): disp 0, native, etype MPI_BYTE; _indv on a common file: the tiled
  // filetype, this rank's block at its offset within an extent of X (Table 11); MPI_BYTE else.
  MPI_Datatype filetype = MPI_BYTE;
  if (b_.pos == Positioning::Indv && portion_.length > 0) {
    int len = static_cast<int>(portion_.length);
    MPI_Aint disp = static_cast<MPI_Aint>(portion_.first);
    MPI_Datatype block = MPI_DATATYPE_NULL, tiled = MPI_DATATYPE_NULL;
    MPI_Datatype bytes = MPI_BYTE;
    pio::mpi_check(MPI_Type_create_struct(1, &len, &disp, &bytes, &block),
                   "MPI_Type_create_struct");
    pio::Datatype owner(block, false);
    pio::mpi_check(MPI_Type_create_resized(block, 0, static_cast<MPI_Aint>(x_), &tiled),
                   "MPI_Type_create_resized");
    view_ = pio::Datatype(tiled);
    filetype = view_.get();
  }
  char native[] = "native";
  pio::mpi_check(MPI_File_set_view(fh_, 0, MPI_BYTE, filetype, native, MPI_INFO_NULL),
                 "MPI_File_set_view");
  apply_time_limit(test);
  reqs_.assign(static_cast<size_t>(n_), MPI_REQUEST_NULL);
  if (b_.nonblocking) {
    // t_pure: the equivalent blocking sample, timed here (untimed by the harness) as IMB does
    // before it reopens the file (§5.2.8.3); the slowest rank's time per transfer.
    rewind();
    MPI_Barrier(comm_);
    const double start = MPI_Wtime();
    blocking_sample(n_);
    double mine = (MPI_Wtime() - start) / static_cast<double>(n_), t_pure = 0;
    pio::mpi_check(MPI_Allreduce(&mine, &t_pure, 1, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
    if (test.group == 0 && rank_ == 0)
      pure_cpu_[test_index_] = {t_pure, t_cpu_};
  }
}

void IoModule::rewind() {
  if (b_.pos == Positioning::Shared)
    pio::mpi_check(MPI_File_seek_shared(fh_, 0, MPI_SEEK_SET), "MPI_File_seek_shared");
  else if (b_.pos != Positioning::Expl)
    pio::mpi_check(MPI_File_seek(fh_, 0, MPI_SEEK_SET), "MPI_File_seek");
}

void IoModule::before_work_unit(pio::UnitContext &) {
  if (b_.action != Action::None)
    rewind();
}

void IoModule::transfer(std::int64_t j) {
  const int len = static_cast<int>(portion_.length);
  const bool coll = b_.cls == Class::Collective;
  char *buf = buf_.at(0);
  const MPI_Offset off = file_offset(b_.pos, portion_, x_, j);
  MPI_Status st;
  if (is_write(b_)) {
    switch (b_.pos) {
    case Positioning::Indv:
    case Positioning::Priv:
      pio::mpi_check(coll ? MPI_File_write_all(fh_, buf, len, MPI_BYTE, &st)
                          : MPI_File_write(fh_, buf, len, MPI_BYTE, &st),
                     "MPI_File_write");
      break;
    case Positioning::Expl:
      pio::mpi_check(coll ? MPI_File_write_at_all(fh_, off, buf, len, MPI_BYTE, &st)
                          : MPI_File_write_at(fh_, off, buf, len, MPI_BYTE, &st),
                     "MPI_File_write_at");
      break;
    case Positioning::Shared:
      pio::mpi_check(coll ? MPI_File_write_ordered(fh_, buf, len, MPI_BYTE, &st)
                          : MPI_File_write_shared(fh_, buf, len, MPI_BYTE, &st),
                     "MPI_File_write_shared");
      break;
    }
  } else {
    switch (b_.pos) {
    case Positioning::Indv:
    case Positioning::Priv:
      pio::mpi_check(coll ? MPI_File_read_all(fh_, buf, len, MPI_BYTE, &st)
                          : MPI_File_read(fh_, buf, len, MPI_BYTE, &st),
                     "MPI_File_read");
      break;
    case Positioning::Expl:
      pio::mpi_check(coll ? MPI_File_read_at_all(fh_, off, buf, len, MPI_BYTE, &st)
                          : MPI_File_read_at(fh_, off, buf, len, MPI_BYTE, &st),
                     "MPI_File_read_at");
      break;
    case Positioning::Shared:
      pio::mpi_check(coll ? MPI_File_read_ordered(fh_, buf, len, MPI_BYTE, &st)
                          : MPI_File_read_shared(fh_, buf, len, MPI_BYTE, &st),
                     "MPI_File_read_shared");
      break;
    }
  }
}

void IoModule::start(std::int64_t j, MPI_Request *req) {
  const int len = static_cast<int>(portion_.length);
  char *buf = buf_.at(0);
  const MPI_Offset off = file_offset(b_.pos, portion_, x_, j);
  if (b_.cls == Class::Collective) { // split collectives: begin here, end after the exploit
    if (is_write(b_))
      pio::mpi_check(
          b_.pos == Positioning::Expl ? MPI_File_write_at_all_begin(fh_, off, buf, len, MPI_BYTE)
          : b_.pos == Positioning::Shared ? MPI_File_write_ordered_begin(fh_, buf, len, MPI_BYTE)
                                          : MPI_File_write_all_begin(fh_, buf, len, MPI_BYTE),
          "MPI_File_write_*_begin");
    else
      pio::mpi_check(
          b_.pos == Positioning::Expl     ? MPI_File_read_at_all_begin(fh_, off, buf, len, MPI_BYTE)
          : b_.pos == Positioning::Shared ? MPI_File_read_ordered_begin(fh_, buf, len, MPI_BYTE)
                                          : MPI_File_read_all_begin(fh_, buf, len, MPI_BYTE),
          "MPI_File_read_*_begin");
    return;
  }
  if (is_write(b_))
    pio::mpi_check(
        b_.pos == Positioning::Expl     ? MPI_File_iwrite_at(fh_, off, buf, len, MPI_BYTE, req)
        : b_.pos == Positioning::Shared ? MPI_File_iwrite_shared(fh_, buf, len, MPI_BYTE, req)
                                        : MPI_File_iwrite(fh_, buf, len, MPI_BYTE, req),
        "MPI_File_iwrite*");
  else
    pio::mpi_check(
        b_.pos == Positioning::Expl     ? MPI_File_iread_at(fh_, off, buf, len, MPI_BYTE, req)
        : b_.pos == Positioning::Shared ? MPI_File_iread_shared(fh_, buf, len, MPI_BYTE, req)
                                        : MPI_File_iread(fh_, buf, len, MPI_BYTE, req),
        "MPI_File_iread*");
}

void IoModule::complete() {
  pio::mpi_check(MPI_File_sync(fh_), "MPI_File_sync");
  if (b_.pos != Positioning::Priv) // a private file's communicator is MPI_COMM_SELF
    pio::mpi_check(MPI_Barrier(comm_), "MPI_Barrier");
  pio::mpi_check(MPI_File_sync(fh_), "MPI_File_sync");
}

void IoModule::blocking_sample(std::int64_t n) {
  // Figure 12: aggregate writes complete once after M = n_sample transfers, non-aggregate ones
  // after each; reads have no completion step.
  const bool each = is_write(b_) && mode_ == Mode::NonAggregate;
  for (std::int64_t j = 0; j < n; ++j) {
    transfer(j);
    if (each)
      complete();
  }
  if (is_write(b_) && !each)
    complete();
}

void IoModule::overlapped_sample() {
  // §4.2.5 (aggregate only): split collectives: begin, exploit CPU, end, per transfer;
  // otherwise all n transfers started, n exploit periods, then wait for all of them.
  if (b_.cls == Class::Collective) {
    MPI_Status st;
    for (std::int64_t j = 0; j < n_; ++j) {
      start(j, nullptr);
      cpu_.run();
      char *buf = buf_.at(0);
      if (is_write(b_))
        pio::mpi_check(b_.pos == Positioning::Expl     ? MPI_File_write_at_all_end(fh_, buf, &st)
                       : b_.pos == Positioning::Shared ? MPI_File_write_ordered_end(fh_, buf, &st)
                                                       : MPI_File_write_all_end(fh_, buf, &st),
                       "MPI_File_write_*_end");
      else
        pio::mpi_check(b_.pos == Positioning::Expl     ? MPI_File_read_at_all_end(fh_, buf, &st)
                       : b_.pos == Positioning::Shared ? MPI_File_read_ordered_end(fh_, buf, &st)
                                                       : MPI_File_read_all_end(fh_, buf, &st),
                       "MPI_File_read_*_end");
    }
  } else {
    for (std::int64_t j = 0; j < n_; ++j)
      start(j, &reqs_[static_cast<size_t>(j)]);
    for (std::int64_t j = 0; j < n_; ++j)
      cpu_.run();
    pio::mpi_check(MPI_Waitall(static_cast<int>(n_), reqs_.data(), MPI_STATUSES_IGNORE),
                   "MPI_Waitall");
  }
  if (is_write(b_))
    complete();
}

void IoModule::open_close(std::int64_t n) {
  // Figure 19: open, write 1 byte, close, n_sample times (the file the harness gave none of).
  pio::Info info(hints_);
  for (std::int64_t i = 0; i < n; ++i) {
    MPI_File f = MPI_FILE_NULL;
    pio::mpi_check(
        MPI_File_open(comm_, own_path_.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, info.get(), &f),
        "MPI_File_open");
    pio::mpi_check(MPI_File_write(f, buf_.at(0), 1, MPI_BYTE, MPI_STATUS_IGNORE), "MPI_File_write");
    pio::mpi_check(MPI_File_close(&f), "MPI_File_close");
  }
}

double IoModule::timed_sample(std::int64_t n) {
  if (b_.action != Action::None)
    rewind();
  const double start = MPI_Wtime();
  if (b_.action == Action::None)
    open_close(n);
  else
    blocking_sample(n); // non-blocking benchmarks: t_pure decides, as in IMB's probe
  return MPI_Wtime() - start;
}

std::int64_t IoModule::limited_count(MPI_Comm all) {
  // IMB's probe (IMB_mem_manager.c): one sample of 1 transfer, then as many as fit in about a
  // second, the slowest rank deciding; n_sample = min(n_sample, 1 + secs / t, previous count).
  const double t_op = probe_time_per_op(all, n_, [&](std::int64_t n) { return timed_sample(n); });
  if (b_.action != Action::None)
    rewind(); // the sample starts where the probe did
  return time_limited_count(n_, t_op, cfg_.time_limit, previous_n_);
}

void IoModule::apply_time_limit(pio::TestContext &test) {
  // A new table (process count) starts the monotone sequence of counts afresh.
  if (np_ != last_np_ || b_.action == Action::None)
    previous_n_ = 0;
  last_np_ = np_;
  if (cfg_.time_limit > 0) {
    n_ = limited_count(test.all); // every group of the test agrees
    test.set_ops_per_unit(n_);
  }
  previous_n_ = n_;
}

std::int64_t IoModule::work_unit(pio::UnitContext &) {
  if (b_.action == Action::None) {
    open_close(n_);
    return n_;
  }
  if (b_.nonblocking)
    overlapped_sample();
  else
    blocking_sample(n_);
  return n_ * portion_.length;
}

void IoModule::after_work_unit(pio::UnitContext &) {
  if (!verify_ || b_.action != Action::Read || portion_.length == 0)
    return;
  // The last read holds the file's bytes at its position: this rank's portion of a transfer,
  // or with a shared pointer (§4.2.4.5: any order) the bytes at whichever offset the pointer
  // had, which with unequal portions need not be a block boundary.
  const std::int64_t len = portion_.length;
  const auto holds = [&](std::int64_t o) {
    for (std::int64_t k = 0; k < len; ++k)
      if (buf_.at(0)[k] != file_byte(np_, x_, o + k))
        return false;
    return true;
  };
  if (b_.pos == Positioning::Shared) {
    for (std::int64_t o = 0; o + len <= n_ * x_; ++o)
      if (buf_.at(0)[0] == file_byte(np_, x_, o) && holds(o))
        return;
  } else {
    bool same = true;
    for (std::int64_t k = 0; k < len && same; ++k)
      same = buf_.at(0)[k] == data_byte(rank_, k);
    if (same)
      return;
  }
  throw pio::Error(b_.name + ", rank " + std::to_string(rank_) + " of " + std::to_string(np_) +
                       ", X = " + std::to_string(x_) +
                       ": the last read did not return the data "
                       "the file holds at its position",
                   "the MPI-IO library returned wrong data; rerun to see if it repeats");
}

void IoModule::cleanup_test(pio::TestContext &) {
  for (auto &r : reqs_)
    if (r != MPI_REQUEST_NULL)
      MPI_Wait(&r, MPI_STATUS_IGNORE);
  reqs_.clear();
  view_.reset();
  buf_ = imb::Region{};
  fh_ = MPI_FILE_NULL;
}

std::pair<double, double> IoModule::pure_and_cpu(int test_index) const {
  auto it = pure_cpu_.find(test_index);
  return it == pure_cpu_.end() ? std::pair<double, double>{0, 0} : it->second;
}

std::optional<pio::Figure> IoModule::figure(const pio::ModuleResult &results) {
  if (!b_.nonblocking)
    return std::nullopt;
  // §4.2.5.2: t_ovrl, t_pure, t_CPU and the overlap (*) per I/O size; the Mflop/s of t_CPU.
  pio::Figure f;
  f.name = b_.name + " overlap";
  f.values.push_back({"cpu_exploit", cpu_.mflops(), "Mflop/s"});
  pio::FigureTable t{
      "overlap",
      {"#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"},
      {}};
  for (const auto &test : results.tests) {
    if (!test.summary.op)
      continue;
    const auto [pure, cpu] = pure_and_cpu(test.index);
    const double ovrl = test.summary.op->t_max_us * 1e-6;
    t.rows.push_back({test.buffer_size, test.comm ? test.comm->ops_per_unit : 0, ovrl * 1e6,
                      pure * 1e6, cpu * 1e6, 100.0 * overlap(pure, cpu, ovrl)});
  }
  f.tables.push_back(std::move(t));
  f.notes.push_back("overlap = (t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU) (IMB 3.2 User "
                    "Guide §4.2.5.2); t_pure is the blocking sample just before, t_CPU the "
                    "exploit alone");
  return f;
}

} // namespace imb::io
