// The IMB 3.2 User Guide's IO methodology around one benchmark, its sequencing: the view
// (§5.2.3.4), the blocking sample (§5.2.8.2, Figure 12), the non-blocking one with t_pure, t_CPU
// and t_ovrl (§4.2.5, §5.2.8.3), the run-time limit (§5.1.2.6) and the check of the last read.
// The plan is io_plan.cpp, the calls io_calls.cpp.
#include "io_module.hpp"

#include "schedule.hpp"

namespace imb::io {

void IoModule::describe_test(pio::TestContext &test) {
  comm_ = test.comm;
  rank_ = test.rank;
  np_ = test.size;
  io_ = test.io;
  backend_ = test.module->backend;
  views_ = test.module->capabilities.has(pio::io::Capability::FileViews);
  test_index_ = test.test_index;
  x_ = test.spec().comm->message_bytes;
  n_ = test.spec().comm->ops_per_unit;
  if (b_.action == Action::None) {
    // Open_Close opens a file of its own (§4.2.4.10), claimed before it exists.
    own_path_ = test.module->test_file + ".open_close" +
                (test.groups > 1 ? ".g" + std::to_string(test.group) : "");
    // Rank 0 claims it and tells the others before any rank's time-limit probe creates it.
    test.module->claim_file_on_rank0(comm_, rank_, own_path_,
                                     "remove the file, or choose another TestFile");
    buf_ = imb::Region(1, imb::CacheLayout{});
    apply_time_limit(test);
    return;
  }
  // Each process moves its portion of X (§4.2.4.3 Figure 15: Nproc disjoint contiguous blocks);
  // a single transfer or a private file: S_ the whole X, _priv the rank's portion.
  portion_ = rank_portion(rank_, np_, x_);
  extents_.clear(); // n_sample at most: the run-time limit only lowers it
  if (b_.pos == Positioning::Expl)
    for (std::int64_t j = 0; j < n_; ++j)
      extents_.push_back({file_offset(b_.pos, portion_, x_, j), portion_.length});
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
  if (views_) // without views the file is the plain bytes the byte view would give
    io_->set_view(0, MPI_BYTE, filetype);
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

void IoModule::before_work_unit(pio::UnitContext &) {
  if (b_.action != Action::None)
    rewind();
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
    for (std::int64_t j = 0; j < n_; ++j) {
      start(j);
      cpu_.run();
      finish(j);
    }
  } else {
    for (std::int64_t j = 0; j < n_; ++j)
      start(j);
    for (std::int64_t j = 0; j < n_; ++j)
      cpu_.run();
    wait_all();
  }
  if (is_write(b_))
    complete();
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
  extents_.clear();
  io_ = nullptr;
}

} // namespace imb::io
