// The IMB 3.2 User Guide's IO calls of one benchmark, each through the I/O seam: the
// elementary transfer (§5.2.8: the pure MPI_File_write_XX / read_XX call), its non-blocking and
// split forms (§4.2.5), the Write benchmarks' completion (§4.2.2.2.1), the file every read finds
// (IMB_init_file) and Open_Close's open / write / close (§4.2.4.10).
#include <algorithm>

#include "io_module.hpp"

namespace imb::io {

void IoModule::fill_file() {
  // As IMB_init_file prepares a file for input: one process writes the whole file from the
  // start in pieces of 1 MiB (untimed, before the view is set: offsets in bytes). Writing it
  // per transfer from every rank, as pio did before, made the reads on ext4 1.1-1.3x slower
  // than IMB's (docs/reference/imb.md). Each byte is what transfer j of the rank whose portion
  // holds it finds there; a private file holds its own rank's portion n times.
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
      const pio::io::Extent bytes{at, len};
      pio::io::Transfer t; // MPI_File_write_at
      t.buffer = data.data();
      t.count = static_cast<int>(len);
      t.offset = at;
      t.extents = &bytes;
      t.extent_count = 1;
      io_->start(t);
    }
  }
  // IMB closes the prepared file (IMB_init_file): no MPI_File_sync. Syncing here made the
  // reads that follow 1.17x slower on ext4 (pages written back, docs/reference/imb.md), so only a
  // verified run, which needs every process's data visible to the others under MPI's
  // consistency rules (MPI-3.1 §13.6.1), syncs; otherwise a barrier orders the preparation
  // before the reads.
  if (verify_)
    complete();
  else if (!priv)
    pio::mpi_check(MPI_Barrier(comm_), "MPI_Barrier");
}

void IoModule::rewind() {
  if (b_.pos == Positioning::Shared)
    io_->seek_shared(0);
  else if (b_.pos != Positioning::Expl)
    io_->seek(0);
}

pio::io::Transfer IoModule::elementary(std::int64_t j, pio::io::Completion how) {
  pio::io::Transfer t;
  t.direction = is_write(b_) ? pio::io::Direction::Write : pio::io::Direction::Read;
  t.positioning = b_.pos == Positioning::Expl     ? pio::io::Positioning::ExplicitOffset
                  : b_.pos == Positioning::Shared ? pio::io::Positioning::SharedPointer
                                                  : pio::io::Positioning::IndividualPointer;
  t.coordination = b_.cls == Class::Collective ? pio::io::Coordination::Collective
                                               : pio::io::Coordination::Independent;
  t.completion = how;
  t.buffer = buf_.at(0);
  t.count = static_cast<int>(portion_.length);
  t.datatype = MPI_BYTE;
  t.offset = file_offset(b_.pos, portion_, x_, j);
  if (b_.pos == Positioning::Expl) { // a backend without views places it by its extent
    t.extents = &extents_.at(static_cast<size_t>(j));
    t.extent_count = 1;
  }
  return t;
}

void IoModule::transfer(std::int64_t j) {
  io_->start(elementary(j, pio::io::Completion::Blocking));
}

void IoModule::start(std::int64_t j) {
  // Collective: split collectives, begin here, end (finish) after the exploit; else the
  // non-blocking call into the transfer's request.
  if (b_.cls == Class::Collective) {
    io_->start(elementary(j, pio::io::Completion::Split));
    return;
  }
  pio::io::Transfer t = elementary(j, pio::io::Completion::NonBlocking);
  t.request = &reqs_[static_cast<size_t>(j)];
  io_->start(t);
}

void IoModule::finish(std::int64_t j) { io_->finish(elementary(j, pio::io::Completion::Split)); }

void IoModule::wait_all() { io_->wait_all(reqs_.data(), static_cast<int>(n_)); }

void IoModule::complete() {
  io_->sync();                     // MPI_File_sync (the backend's flush)
  if (b_.pos != Positioning::Priv) // a private file's communicator is MPI_COMM_SELF
    pio::mpi_check(MPI_Barrier(comm_), "MPI_Barrier");
  io_->sync();
}

void IoModule::open_close(std::int64_t n) {
  // Figure 19: open, write 1 byte, close, n_sample times (the file the harness gave none of),
  // through the block's backend (MPI_File_open, MPI_File_write, MPI_File_close under mpiio).
  for (std::int64_t i = 0; i < n; ++i) {
    const std::unique_ptr<pio::io::OpenFile> f =
        backend_->open(comm_, own_path_, MPI_MODE_CREATE | MPI_MODE_RDWR, hints_);
    pio::io::Transfer one; // MPI_File_write
    one.positioning = pio::io::Positioning::IndividualPointer;
    one.buffer = buf_.at(0);
    one.count = 1;
    f->io().start(one);
    f->close();
  }
}

} // namespace imb::io
