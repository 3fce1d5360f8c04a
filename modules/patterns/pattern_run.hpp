#pragma once
// Internal to the pattern engine: the per-test state of PatternModule and the I/O of one unit
// (stamping, views, datatypes, the transfers through the I/O seam, verification). Not installed.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <time.h>

#include <boost/align/aligned_allocator.hpp>

#include "pio/io/interface.hpp"
#include "pio/patterns/pattern_module.hpp"
#include "unit_plan.hpp"

namespace pio::patterns {

/// I/O bytes on their own pages, as IOR's buffers are: a page-aligned user buffer copies to
/// and from the page cache measurably faster than malloc's 16-byte alignment
/// (docs/measurements/performance.md).
using PageBytes =
    std::vector<std::uint8_t, boost::alignment::aligned_allocator<std::uint8_t, 4096>>;

/// One contiguous piece of a unit's I/O without a file view: file offset, stream position.
struct Piece {
  std::int64_t offset = 0;
  std::int64_t stream_pos = 0;
  std::int64_t length = 0;
  Datatype large; // above INT_MAX bytes only: a type of `length` bytes (else count MPI_BYTEs)
};

/// What one unit moves: the Run's current unit, or an earlier one whose transfer is in flight
/// or whose bytes wait to be checked.
struct UnitPayload {
  std::vector<Extent> extents; // the unit's file extents (stream order; under a file view in
                               // file order, extent_order.hpp)
  std::int64_t bytes = 0;      // the unit's payload bytes
  int owner = 0;    // whose stamps the unit's bytes hold: data_rank, + shift when reordered
  PageBytes stream; // payload in stream order

  /// Exchanges the four with other's (the buffers trade places, nothing is copied).
  void swap_unit(UnitPayload &other) noexcept;
};

/// A transfer of an earlier unit still in flight while later units run (overlapping units,
/// docs/reference/timing.md "Queue depth"): the unit's payload, moved here from the Run when its transfer
/// started.
struct InFlight : UnitPayload {
  io::Transfer transfer; // as started (its request is `request`)
  Datatype large;        // above INT_MAX bytes only: the transfer's datatype
  MPI_Request request = MPI_REQUEST_NULL;
  bool busy = false; // started, not yet finished
};

/// Per-test state, rebuilt by describe_test; its UnitPayload is the current unit's.
struct PatternModule::Run : UnitPayload {
  std::shared_ptr<const Geometry> geometry;
  TemporalMode mode = TemporalMode::Write;
  // The test's I/O interface (the harness's): every transfer and view goes through it.
  io::Interface *io = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;      // ranks of the test
  int shift = 0;     // ReorderTasks mod size in read modes of a shared file, else 0
  std::string where; // "module M, test 'T'", for errors found while running
  VerifyMode verify = VerifyMode::Off; // timed: work_unit stamps and checks, the hooks do not
  bool stamp_for_later = false; // FilesFrom: a later block reads what this Write block writes
  bool views = true;            // the block's backend has file views: one call per piece without
  bool use_view = true;         // FileView on, on a backend with views (others have none)
  std::int64_t units = 0;
  std::int64_t max_pieces = 0; // no-view collective: calls every rank makes per unit
  UnitPlan plan;               // the extents of the units ahead (describe_test fills it)
  PageBytes buffer;            // memory buffer when the memory type is non-contiguous
  Datatype memtype;            // view mode: the memory datatype (count 1); empty when
                               // memory is `bytes` contiguous bytes up to INT_MAX (also the
                               // stream's type under another interface than MPI-IO)
  bool noncontiguous_memory = false;
  std::vector<Piece> pieces; // no-view mode (piece i is extents[i])
  Datatype empty_view;       // view for a rank with nothing to do in a unit

  /// Overlapping units: the interface's queue depth when this test's units may overlap (its
  /// mode is write or read, and the backend places transfers by extents), else 0.
  int overlap_depth = 0;
  /// The slots of the transfers in flight, overlap_depth of them (at most the phase's units)
  /// while a phase overlaps its units, made before its first unit; empty otherwise. Unit u's
  /// transfer uses slot u mod their number.
  std::vector<InFlight> in_flight;
  /// Verify on: units whose transfers finished, their bytes not yet checked (the first
  /// `unchecked` entries; check_finished checks them in after_work_unit).
  std::vector<InFlight> finished;
  std::size_t unchecked = 0;

  /// Whether this unit overlaps: the harness lets it (UnitContext::may_overlap) and nothing in
  /// the unit needs the previous one done (independent calls, no flush).
  bool overlaps(const UnitContext &unit) const;
  /// Before a phase's first unit (untimed): the slots of an overlapping phase.
  void make_slots(const UnitContext &unit);
  /// The unit's transfer started into its slot without waiting (after finishing the slot's
  /// previous one); the last unit of the phase finishes every one. Returns the unit's bytes.
  std::int64_t overlapped(bool write, UnitContext &unit);
  /// Waits for slot s's transfer; under Verify timed checks a read at once (timed), under
  /// Verify on moves the unit into `finished` for check_finished.
  void finish(InFlight &s);
  /// Verify on: checks every finished slot's bytes (written data read back, or data read).
  void check_finished();

  /// The buffer the MPI-IO calls use: the memory buffer or the stream.
  void *io_buffer();

  /// Fills the stream with this rank's stamps for the current extents.
  void stamp(int generation);

  /// Copies the stream into the (non-contiguous) memory buffer.
  void to_memory();

  /// Copies the (non-contiguous) memory buffer into the stream.
  void from_memory();

  /// Checks data (stream order) against the expected stamps; throws naming the first bad byte.
  void check(const PageBytes &data, int generation, unsigned char mask, const char *what) const;

  /// The message of a failed check: rank, file offset, expected and found bytes, how many
  /// bytes of piece e (whose bytes start at got) are wrong, and the rank's host. i: the first.
  std::string mismatch_message(const char *what, const std::uint8_t *got, const Extent &e,
                               std::int64_t i, int generation, unsigned char mask) const;

  /// Writes, untimed and with this rank's generation-0 stamps, the bytes `reader` reads in
  /// every unit whose data this rank prepares (a read mode's file, thesis §3.3.2). Not
  /// collective: the caller syncs.
  void prepare_file(int reader);

  /// Reads this unit's extents back into a stream-order vector, one independent transfer per
  /// extent at its own file offset, whatever the interface: not through the pattern's view nor
  /// the unit's multi-extent transfer, so that a block the unit's transfer put at another
  /// extent's offset is caught (each block's bytes are checked at its offset, not only read as
  /// written). Collective when a view is set (the view is reset first).
  PageBytes read_back() const;

  /// Sets up extents, buffers, datatypes and (view mode) the file view for `unit`. Untimed but
  /// run between units, so it does only what the unit needs: the extents come from the plan
  /// (the next batch is planned when the unit is past it), buffers are reused and zeroed only
  /// for Verify (where a check reads them), contiguous I/O uses count MPI_BYTEs (IOR's call),
  /// not a datatype built per unit.
  void prepare_unit(std::int64_t unit);

  /// Resizes v to n bytes, zeroed when Verify is on or timed (a check then reads every byte).
  void sized(PageBytes &v, std::int64_t n) const;

  /// One blocking explicit-offset transfer through the seam: n bytes at ptr as one `type` when
  /// it is set (non-contiguous memory, or above INT_MAX), else n MPI_BYTEs; `covers` the file
  /// extents it moves (count entries).
  void io_run(bool write, bool collective, MPI_Offset off, void *ptr, std::int64_t n,
              const Datatype &type, const Extent *covers, std::size_t count) const;

  /// The I/O of one unit: through the view (one call) or one call per extent. Without a view
  /// memory is the contiguous stream (documented in docs/reference/patterns.md); collectively,
  /// every rank makes max_pieces calls, empty ones where it has fewer pieces. On a backend without
  /// file views: one transfer carrying all the unit's extents, the stream as memory; collectively
  /// every rank makes it, with count 0 and no extents when it has no bytes.
  void transfer(bool write, bool collective);
  /// transfer(true, collective).
  void write(bool collective);
  /// transfer(false, collective).
  void read(bool collective);

  /// The bytes just read (generation 0) checked against their stamps; throws as check(). Under
  /// Verify timed inside the work unit (as IOR -R checks each transfer), under on after it.
  void check_read();

  /// The "modify" of read-modify-write: every byte of the I/O buffer changes.
  void modify();

  /// Waits until the geometry's release_time of `unit` (if any) has passed on this rank's clock,
  /// counted from the first call of the test (unit 0), with an absolute CLOCK_MONOTONIC sleep.
  void wait_for_release(std::int64_t unit);
  bool started = false;      // wait_for_release has set `origin`
  struct timespec origin {}; // CLOCK_MONOTONIC at the test's first unit
};

} // namespace pio::patterns
