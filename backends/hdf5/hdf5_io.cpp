// The hdf5 backend's files: parallel HDF5 through its MPI-IO driver, IOR's HDF5 backend being
// the model: one 1-D dataset
// of bytes per file ("data"), each transfer a hyperslab selection made from Transfer::extents
// and one H5Dwrite / H5Dread, independent or collective. Every hid_t is owned; every HDF5
// return code becomes a pio::Error naming the call, the path and HDF5's own message (HDF5's
// automatic printing of its error stack is turned off).
#include "hdf5_io.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "hdf5_deferred_errors.hpp"
#include "pio/error.hpp"
#include "pio/handle.hpp"
#include "pio/mpi_handles.hpp"

namespace pio::io {

namespace {

/// The dataset's name in every file.
constexpr const char *kDataset = "data";

template <herr_t (*Close)(hid_t)> struct H5Traits {
  using type = hid_t;
  static type null() { return H5I_INVALID_HID; }
  static void free(type &h) { Close(h); }
};
using H5File = Handle<H5Traits<H5Fclose>>;
using H5Dataset = Handle<H5Traits<H5Dclose>>;
using H5Space = Handle<H5Traits<H5Sclose>>;
using H5Plist = Handle<H5Traits<H5Pclose>>;

/// One entry of HDF5's error stack, copied while walking it.
struct StackEntry {
  std::string desc;
  hid_t minor = H5I_INVALID_HID;
};

herr_t copy_entry(unsigned, const H5E_error2_t *e, void *out) {
  static_cast<std::vector<StackEntry> *>(out)->push_back(
      StackEntry{e->desc ? e->desc : "", e->min_num});
  return 0;
}

/// HDF5's message for the last failure, innermost cause first, and the stack cleared.
std::string h5_message() {
  std::vector<StackEntry> stack;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, copy_entry, &stack);
  std::string text;
  // The innermost three: the cause (e.g. the MPI or system error) and what HDF5 was doing.
  for (std::size_t k = 0; k < stack.size() && k < 3; ++k) {
    char minor[160] = {0};
    std::string line = stack[k].desc;
    if (H5Eget_msg(stack[k].minor, nullptr, minor, sizeof minor) > 0)
      line += " (" + std::string(minor) + ")";
    text += (k ? "; " : "") + line;
  }
  H5Eclear2(H5E_DEFAULT);
  std::replace(text.begin(), text.end(), '\n', ' '); // one line (MPI's error stacks have several)
  return text.empty() ? "HDF5 gave no message" : text;
}

[[noreturn]] void h5_fail(const std::string &call, const std::string &path) {
  throw Error(call + "(\"" + path + "\") failed: " + h5_message(),
              "check the path's directory and file system, and the HDF5 directives "
              "(H5Alignment, H5ChunkSize, H5MetaBlockSize) of the block");
}

/// id, or a pio::Error naming call and path when HDF5 returned a negative id.
hid_t h5_id(hid_t id, const char *call, const std::string &path) {
  if (id < 0)
    h5_fail(call, path);
  return id;
}

/// Throws a pio::Error naming call and path when HDF5 returned a negative status.
void h5_ok(herr_t rc, const char *call, const std::string &path) {
  if (rc < 0)
    h5_fail(call, path);
}

/// h5_ok for a call that may reach MPI-IO on the file fh: an MPI-IO error deferred during it
/// (hdf5_deferred_errors.hpp) is the cause, and is thrown first, once every rank has left the
/// call's collective steps.
void h5_io_ok(herr_t rc, const char *call, const std::string &path, MPI_File fh) {
  const std::string deferred = take_deferred_error(fh);
  if (deferred.empty())
    return h5_ok(rc, call, path);
  H5Eclear2(H5E_DEFAULT);
  throw Error(call + std::string("(\"") + path + "\") failed: " + deferred,
              "check the file system of " + path + " (free space, quota, permissions)");
}

bool writes(const Transfer &t) { return t.direction == Direction::Write; }

[[noreturn]] void no_such_transfer(const Transfer &t) {
  throw Error(std::string("the hdf5 interface has no ") + to_string(t.completion) + " " +
                  to_string(t.coordination) + " " + to_string(t.direction) + " on the " +
                  to_string(t.positioning),
              "HDF5 transfers go to explicit offsets (the unit's extents) and complete in the "
              "call: use explicit offsets with blocking or non-blocking completion, or "
              "Interface mpiio for file pointers and split collectives");
}

/// The bytes of t's memory, refusing a datatype that is not contiguous bytes.
std::int64_t memory_bytes(const Transfer &t) {
  if (t.datatype == MPI_BYTE || t.count == 0)
    return t.count;
  int size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  mpi_check(MPI_Type_size(t.datatype, &size), "MPI_Type_size");
  mpi_check(MPI_Type_get_extent(t.datatype, &lb, &extent), "MPI_Type_get_extent");
  mpi_check(MPI_Type_get_true_extent(t.datatype, &true_lb, &true_extent),
            "MPI_Type_get_true_extent");
  if (lb != 0 || true_lb != 0 || extent != size || true_extent != size)
    throw Error("the hdf5 interface takes memory as contiguous bytes; this transfer's datatype "
                "has " +
                    std::to_string(size) + " bytes in an extent of " + std::to_string(extent),
                "hand HDF5 a contiguous buffer (MPI_BYTE or a contiguous type)");
  return static_cast<std::int64_t>(t.count) * size;
}

/// HDF5's transfers on one file's dataset; the file itself is owned by Hdf5File.
class Hdf5Io final : public Interface {
public:
  Hdf5Io(hid_t file, MPI_File mpi, std::string path, std::int64_t chunk, bool read_only)
      : file_(file), mpi_(mpi), path_(std::move(path)), chunk_(chunk), read_only_(read_only) {
    independent_ = dxpl(H5FD_MPIO_INDEPENDENT);
    collective_ = dxpl(H5FD_MPIO_COLLECTIVE);
    const hsize_t one = 1;
    *none_.out() = h5_id(H5Screate_simple(1, &one, nullptr), "H5Screate_simple", path_);
    h5_ok(H5Sselect_none(none_.get()), "H5Sselect_none", path_);
  }

  std::int64_t start(const Transfer &t) override {
    if (t.positioning != Positioning::ExplicitOffset || t.completion == Completion::Split)
      no_such_transfer(t);
    if (t.completion == Completion::NonBlocking && t.request == nullptr)
      throw Error("a non-blocking transfer needs Transfer::request",
                  "point it at the MPI_Request the transfer's completion waits on");
    if (!dataset_)
      throw Error("an HDF5 transfer on " + path_ + " before its dataset was shaped",
                  "call Interface::shape(bytes) once the file's extent is known");
    const std::int64_t bytes = memory_bytes(t);
    check_extents(t, bytes);
    const hid_t dxpl =
        t.coordination == Coordination::Collective ? collective_.get() : independent_.get();
    if (in_file_order(t))
      transfer(t, runs(t.extents, t.extent_count), bytes, t.buffer, dxpl);
    else
      staged(t, bytes, dxpl);
    if (t.completion == Completion::NonBlocking) {
      *t.request = MPI_REQUEST_NULL; // done in the call: HDF5 1.10 has no asynchronous I/O
      return 0;
    }
    return t.count;
  }

  std::int64_t finish(const Transfer &t) override {
    if (t.completion == Completion::Split)
      no_such_transfer(t);
    return t.count;
  }

  void wait_all(MPI_Request *requests, int n) override {
    mpi_check(MPI_Waitall(n, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  void sync() override { h5_io_ok(H5Fflush(file_, H5F_SCOPE_LOCAL), "H5Fflush", path_, mpi_); }

  std::int64_t size() override {
    if (dataset_)
      return dataset_bytes_;
    if (!dataset_exists())
      return 0;
    H5Dataset d(h5_id(H5Dopen2(file_, kDataset, H5P_DEFAULT), "H5Dopen2", path_));
    return static_cast<std::int64_t>(extent_of(d.get()).first);
  }

  void shape(std::int64_t bytes) override {
    if (bytes < 0)
      throw Error("the hdf5 interface was asked for a dataset of " + std::to_string(bytes) +
                  " bytes on " + path_);
    file_space_.reset();
    dataset_.reset();
    if (dataset_exists() && reuse(bytes))
      return;
    if (read_only_)
      throw Error(path_ + " has no dataset /" + kDataset + " of " + std::to_string(bytes) +
                      " bytes to read",
                  "write the file through Interface hdf5 first (a write test in the same block)");
    create(bytes);
  }

  /// Closes the dataset, the spaces and the transfer lists, throwing on error (collective:
  /// H5Dclose).
  void close() {
    independent_.reset();
    collective_.reset();
    union_.reset();
    memory_.reset();
    none_.reset();
    file_space_.reset();
    const hid_t d = dataset_.release();
    if (d >= 0)
      h5_ok(H5Dclose(d), "H5Dclose", path_);
  }

  /// The file's MPI-IO handle (its deferred errors: hdf5_deferred_errors.hpp).
  MPI_File mpi_file() const { return mpi_; }

private:
  H5Plist dxpl(H5FD_mpio_xfer_t mode) {
    H5Plist p(h5_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate(H5P_DATASET_XFER)", path_));
    h5_ok(H5Pset_dxpl_mpio(p.get(), mode), "H5Pset_dxpl_mpio", path_);
    return p;
  }

  /// Whether the file holds the dataset (H5Lexists).
  bool dataset_exists() const {
    const htri_t exists = H5Lexists(file_, kDataset, H5P_DEFAULT);
    if (exists < 0)
      h5_fail("H5Lexists", path_);
    return exists > 0;
  }

  /// The dataset's extent and its maximum (H5S_UNLIMITED when it may grow), in bytes.
  std::pair<hsize_t, hsize_t> extent_of(hid_t dataset) const {
    H5Space space(h5_id(H5Dget_space(dataset), "H5Dget_space", path_));
    hsize_t have = 0, max = 0;
    h5_ok(H5Sget_simple_extent_dims(space.get(), &have, &max), "H5Sget_simple_extent_dims", path_);
    return {have, max};
  }

  /// Opens the existing dataset if it serves a test of `bytes`: large enough (a chunked one
  /// grows) with the layout asked for (read-only: any layout). Else deletes it and says no.
  bool reuse(std::int64_t bytes) {
    H5Dataset d(h5_id(H5Dopen2(file_, kDataset, H5P_DEFAULT), "H5Dopen2", path_));
    auto [have, max] = extent_of(d.get());
    H5Plist dcpl(h5_id(H5Dget_create_plist(d.get()), "H5Dget_create_plist", path_));
    const H5D_layout_t layout = H5Pget_layout(dcpl.get());
    hsize_t chunk = 0;
    if (layout == H5D_CHUNKED && H5Pget_chunk(dcpl.get(), 1, &chunk) < 0)
      h5_fail("H5Pget_chunk", path_);
    const bool as_asked =
        chunk_ > 0 ? layout == H5D_CHUNKED && chunk == hsize_t(chunk_) : layout == H5D_CONTIGUOUS;
    if (read_only_ || as_asked) {
      if (have < hsize_t(bytes) && !read_only_ && max == H5S_UNLIMITED) {
        const hsize_t grown = hsize_t(bytes);
        h5_ok(H5Dset_extent(d.get(), &grown), "H5Dset_extent", path_);
        have = grown;
      }
      if (have >= hsize_t(bytes)) {
        adopt(std::move(d), have);
        return true;
      }
    }
    if (read_only_)
      return false;
    d.reset();
    h5_ok(H5Ldelete(file_, kDataset, H5P_DEFAULT), "H5Ldelete", path_);
    return false;
  }

  /// Creates the dataset: bytes of H5T_NATIVE_UCHAR, space allocated at creation and never
  /// filled (IOR's noFill), contiguous or chunked (then growable, so a chunk may exceed it).
  void create(std::int64_t bytes) {
    H5Plist dcpl(h5_id(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate(H5P_DATASET_CREATE)", path_));
    h5_ok(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time", path_);
    h5_ok(H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY), "H5Pset_alloc_time", path_);
    const hsize_t dims = hsize_t(bytes), unlimited = H5S_UNLIMITED;
    if (chunk_ > 0) {
      const hsize_t chunk = hsize_t(chunk_);
      h5_ok(H5Pset_chunk(dcpl.get(), 1, &chunk), "H5Pset_chunk", path_);
    } else {
      h5_ok(H5Pset_layout(dcpl.get(), H5D_CONTIGUOUS), "H5Pset_layout", path_);
    }
    H5Space space(h5_id(H5Screate_simple(1, &dims, chunk_ > 0 ? &unlimited : nullptr),
                        "H5Screate_simple", path_));
    H5Dataset d(h5_id(H5Dcreate2(file_, kDataset, H5T_NATIVE_UCHAR, space.get(), H5P_DEFAULT,
                                 dcpl.get(), H5P_DEFAULT),
                      "H5Dcreate2", path_));
    adopt(std::move(d), dims);
  }

  void adopt(H5Dataset d, hsize_t bytes) {
    dataset_ = std::move(d);
    dataset_bytes_ = static_cast<std::int64_t>(bytes);
    *file_space_.out() = h5_id(H5Dget_space(dataset_.get()), "H5Dget_space", path_);
  }

  /// The extents cover exactly the memory's bytes, inside the dataset.
  void check_extents(const Transfer &t, std::int64_t bytes) const {
    if (t.extents == nullptr && bytes > 0)
      throw Error("the hdf5 interface needs the file bytes of each transfer (Transfer::extents); "
                  "this one has none",
                  "HDF5 cannot see an MPI file view: make the transfer with its extents");
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < t.extent_count; ++k) {
      const Extent &e = t.extents[k];
      if (e.offset < 0 || e.length < 0 || e.offset + e.length > dataset_bytes_)
        throw Error("an extent [" + std::to_string(e.offset) + ", +" + std::to_string(e.length) +
                        ") lies outside the dataset of " + std::to_string(dataset_bytes_) +
                        " bytes in " + path_,
                    "shape(bytes) must cover every extent of the test");
      sum += e.length;
    }
    if (sum != bytes)
      throw Error("the extents of an HDF5 transfer cover " + std::to_string(sum) +
                  " bytes but its memory holds " + std::to_string(bytes));
  }

  /// Whether the extents ascend without overlap: then HDF5's selection order (ascending
  /// offsets) is the stream order and memory maps straight onto it.
  static bool in_file_order(const Transfer &t) {
    std::int64_t end = 0;
    for (std::size_t k = 0; k < t.extent_count; ++k) {
      const Extent &e = t.extents[k];
      if (e.length == 0)
        continue;
      if (e.offset < end)
        return false;
      end = e.offset + e.length;
    }
    return true;
  }

  /// The extents with adjacent ones joined and empty ones dropped (extents ascend).
  const std::vector<Extent> &runs(const Extent *e, std::size_t n) {
    runs_.clear();
    for (std::size_t k = 0; k < n; ++k) {
      if (e[k].length == 0)
        continue;
      if (!runs_.empty() && runs_.back().offset + runs_.back().length == e[k].offset)
        runs_.back().length += e[k].length;
      else
        runs_.push_back(e[k]);
    }
    return runs_;
  }

  /// One regular piece of a selection: count blocks of block bytes, stride apart.
  struct Slab {
    hsize_t start = 0, stride = 1, count = 1, block = 0;
  };

  /// The ascending runs as regular slabs: consecutive runs of one length and one stride join.
  const std::vector<Slab> &slabs(const std::vector<Extent> &r) {
    slabs_.clear();
    for (const Extent &e : r) {
      const hsize_t at = hsize_t(e.offset), length = hsize_t(e.length);
      if (!slabs_.empty()) {
        Slab &s = slabs_.back();
        const hsize_t last = s.start + (s.count - 1) * s.stride;
        if (s.block == length && (s.count == 1 || at - last == s.stride)) {
          s.stride = at - last;
          ++s.count;
          continue;
        }
      }
      slabs_.push_back(Slab{at, length, 1, length});
    }
    return slabs_;
  }

  hid_t select_slab(hid_t space, H5S_seloper_t op, const Slab &s) {
    h5_ok(H5Sselect_hyperslab(space, op, &s.start, &s.stride, &s.count, &s.block),
          "H5Sselect_hyperslab", path_);
    return space;
  }

  /// The union of slabs [lo, hi) in a new space: halves combined (H5Scombine_select), which
  /// costs O(n log n) where HDF5 1.10's H5S_SELECT_OR one by one costs O(n^2).
  H5Space combine(const std::vector<Slab> &s, std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) {
      H5Space leaf(h5_id(H5Scopy(file_space_.get()), "H5Scopy", path_));
      select_slab(leaf.get(), H5S_SELECT_SET, s[lo]);
      return leaf;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    const H5Space a = combine(s, lo, mid), b = combine(s, mid, hi);
    return H5Space(
        h5_id(H5Scombine_select(a.get(), H5S_SELECT_OR, b.get()), "H5Scombine_select", path_));
  }

  /// The file space selecting the ascending runs r: one regular hyperslab when they have one
  /// length and one stride; else a few slabs as H5S_SELECT_SET then H5S_SELECT_OR, many as a
  /// combined union. The dataset's space (selection replaced) or a space made for this call.
  hid_t select(const std::vector<Extent> &r) {
    const hid_t space = file_space_.get();
    if (r.empty()) {
      h5_ok(H5Sselect_none(space), "H5Sselect_none", path_);
      return space;
    }
    const std::vector<Slab> &s = slabs(r);
    constexpr std::size_t kOneByOne = 64; // below this, OR one by one is as fast
    if (s.size() > kOneByOne) {
      union_ = combine(s, 0, s.size());
      return union_.get();
    }
    for (std::size_t k = 0; k < s.size(); ++k)
      select_slab(space, k ? H5S_SELECT_OR : H5S_SELECT_SET, s[k]);
    return space;
  }

  /// The memory space of `bytes` contiguous bytes (kept across transfers of one size).
  hid_t memory(std::int64_t bytes) {
    if (bytes == 0)
      return none_.get();
    const hsize_t dims = hsize_t(bytes);
    if (!memory_)
      *memory_.out() = h5_id(H5Screate_simple(1, &dims, nullptr), "H5Screate_simple", path_);
    else if (memory_bytes_ != bytes)
      h5_ok(H5Sset_extent_simple(memory_.get(), 1, &dims, nullptr), "H5Sset_extent_simple", path_);
    memory_bytes_ = bytes;
    return memory_.get();
  }

  /// One H5Dwrite / H5Dread of `bytes` at buffer onto the ascending runs r.
  void transfer(const Transfer &t, const std::vector<Extent> &r, std::int64_t bytes, void *buffer,
                hid_t dxpl) {
    static unsigned char nothing = 0; // HDF5 wants a buffer even for an empty selection
    const hid_t file = select(r);
    const hid_t mem = memory(bytes);
    void *b = buffer != nullptr ? buffer : &nothing;
    if (writes(t))
      h5_io_ok(H5Dwrite(dataset_.get(), H5T_NATIVE_UCHAR, mem, file, dxpl, b), "H5Dwrite", path_,
               mpi_);
    else
      h5_io_ok(H5Dread(dataset_.get(), H5T_NATIVE_UCHAR, mem, file, dxpl, b), "H5Dread", path_,
               mpi_);
    union_.reset();
  }

  /// Extents out of file order or overlapping: HDF5 maps memory onto a selection in ascending
  /// file order, so the stream goes through a staging buffer laid out as the union of the
  /// extents (a write's later extent wins where extents overlap, as in sequential writes).
  void staged(const Transfer &t, std::int64_t bytes, hid_t dxpl) {
    sorted_.assign(t.extents, t.extents + t.extent_count);
    std::sort(sorted_.begin(), sorted_.end(),
              [](const Extent &a, const Extent &b) { return a.offset < b.offset; });
    merged_.clear();
    at_.clear();
    std::int64_t staged_bytes = 0;
    for (const Extent &e : sorted_) {
      if (e.length == 0)
        continue;
      if (!merged_.empty() && e.offset <= merged_.back().offset + merged_.back().length) {
        Extent &m = merged_.back();
        const std::int64_t end = std::max(m.offset + m.length, e.offset + e.length);
        staged_bytes += end - (m.offset + m.length);
        m.length = end - m.offset;
      } else {
        at_.push_back(staged_bytes);
        merged_.push_back(e);
        staged_bytes += e.length;
      }
    }
    staging_.resize(static_cast<std::size_t>(staged_bytes));
    auto *stream = static_cast<unsigned char *>(t.buffer);
    // Where extent e's bytes sit in the staging buffer.
    auto staged_at = [&](const Extent &e) {
      const auto m =
          std::upper_bound(merged_.begin(), merged_.end(), e.offset,
                           [](std::int64_t off, const Extent &x) { return off < x.offset; }) -
          1;
      return at_[static_cast<std::size_t>(m - merged_.begin())] + (e.offset - m->offset);
    };
    const bool w = writes(t);
    if (w) {
      std::int64_t from = 0;
      for (std::size_t k = 0; k < t.extent_count; ++k) {
        const Extent &e = t.extents[k];
        if (e.length > 0)
          std::memcpy(staging_.data() + staged_at(e), stream + from,
                      static_cast<std::size_t>(e.length));
        from += e.length;
      }
    }
    transfer(t, merged_, staged_bytes, staging_.data(), dxpl);
    (void)bytes; // the extents' sum, checked equal to the stream's bytes
    if (!w) {
      std::int64_t to = 0;
      for (std::size_t k = 0; k < t.extent_count; ++k) {
        const Extent &e = t.extents[k];
        if (e.length > 0)
          std::memcpy(stream + to, staging_.data() + staged_at(e),
                      static_cast<std::size_t>(e.length));
        to += e.length;
      }
    }
  }

  hid_t file_;   // owned by Hdf5File
  MPI_File mpi_; // HDF5's MPI-IO handle of the file
  std::string path_;
  std::int64_t chunk_;
  bool read_only_;
  H5Plist independent_, collective_; // the two transfer property lists, made once
  H5Dataset dataset_;
  std::int64_t dataset_bytes_ = 0;
  H5Space file_space_; // the dataset's space; each transfer sets its selection
  H5Space memory_;     // contiguous bytes, resized when a transfer's size changes
  std::int64_t memory_bytes_ = -1;
  H5Space none_;  // an empty selection, for a rank with nothing in a collective transfer
  H5Space union_; // a transfer's selection of many slabs (combine), closed after the call
  std::vector<Slab> slabs_;
  std::vector<Extent> runs_, sorted_, merged_;
  std::vector<std::int64_t> at_;
  std::vector<unsigned char> staging_;
};

/// Opens or creates path: one rank decides whether it already is an HDF5 file (a previous
/// repetition's) or not (the empty file the harness claimed), every rank follows.
H5File open_or_create(const Hdf5Options &o, MPI_Comm comm, const std::string &path, int amode,
                      const std::map<std::string, std::string> &hints) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); // errors reach the caller as pio::Error instead
  H5Plist fapl(h5_id(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate(H5P_FILE_ACCESS)", path));
  const Info info(hints); // HDF5 duplicates comm and info
  h5_ok(H5Pset_fapl_mpio(fapl.get(), comm, info.get()), "H5Pset_fapl_mpio", path);
  if (o.alignment > 0)
    h5_ok(H5Pset_alignment(fapl.get(), 1, hsize_t(o.alignment)), "H5Pset_alignment", path);
  if (o.meta_block_size > 0)
    h5_ok(H5Pset_meta_block_size(fapl.get(), hsize_t(o.meta_block_size)), "H5Pset_meta_block_size",
          path);
  if (o.collective_metadata) {
    h5_ok(H5Pset_all_coll_metadata_ops(fapl.get(), true), "H5Pset_all_coll_metadata_ops", path);
    h5_ok(H5Pset_coll_metadata_write(fapl.get(), true), "H5Pset_coll_metadata_write", path);
  }
  int rank = 0, is_hdf5 = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  if (rank == 0) {
    is_hdf5 = H5Fis_hdf5(path.c_str()) > 0; // negative (no such file) counts as not HDF5
    H5Eclear2(H5E_DEFAULT);
  }
  mpi_check(MPI_Bcast(&is_hdf5, 1, MPI_INT, 0, comm), "MPI_Bcast");
  const bool read_only = (amode & MPI_MODE_RDONLY) != 0;
  const DeferMpiIoErrors defer; // the MPI file HDF5 opens now defers its errors to us
  if (is_hdf5)
    return H5File(
        h5_id(H5Fopen(path.c_str(), read_only ? H5F_ACC_RDONLY : H5F_ACC_RDWR, fapl.get()),
              "H5Fopen", path));
  if ((amode & MPI_MODE_CREATE) == 0)
    throw Error(path + " is not an HDF5 file and the test opens it without creating it",
                "write it through Interface hdf5 first (a write test before the read in the "
                "block)");
  return H5File(
      h5_id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), "H5Fcreate", path));
}

/// The MPI-IO handle HDF5's driver opened for file (H5Fget_vfd_handle).
MPI_File mpi_handle_of(hid_t file, const std::string &path) {
  H5Plist fapl(h5_id(H5Fget_access_plist(file), "H5Fget_access_plist", path));
  void *handle = nullptr;
  h5_ok(H5Fget_vfd_handle(file, fapl.get(), &handle), "H5Fget_vfd_handle", path);
  return *static_cast<MPI_File *>(handle);
}

/// An HDF5 file opened through the MPI-IO driver and the transfers on its dataset.
class Hdf5File final : public OpenFile {
public:
  Hdf5File(const Hdf5Options &o, MPI_Comm comm, const std::string &path, int amode,
           const std::map<std::string, std::string> &hints)
      : path_(path), file_(open_or_create(o, comm, path, amode, hints)),
        io_(file_.get(), mpi_handle_of(file_.get(), path), path, o.chunk_size,
            (amode & MPI_MODE_RDONLY) != 0) {}
  /// A file not closed by close() (a failed test) is closed by the handles, errors deferred.
  ~Hdf5File() override { forget_deferred_errors(io_.mpi_file()); }
  Interface &io() override { return io_; }
  std::map<std::string, std::string> hints_in_effect() const override {
    MPI_Info raw = MPI_INFO_NULL;
    mpi_check(MPI_File_get_info(io_.mpi_file(), &raw), "MPI_File_get_info");
    return Info::adopt(raw).to_map();
  }
  /// Closes the dataset and the file on every rank (both collective), then reports the first
  /// failure: a rank that stopped between the two would leave the others in H5Fclose.
  void close() override {
    std::string failed;
    try {
      io_.close();
    } catch (const Error &e) {
      failed = e.what();
    }
    const hid_t f = file_.release();
    const herr_t rc = f >= 0 ? H5Fclose(f) : 0;
    if (!failed.empty()) {
      forget_deferred_errors(io_.mpi_file());
      throw Error(failed, "check the file system of " + path_ + " (free space, quota)");
    }
    h5_io_ok(rc, "H5Fclose", path_, io_.mpi_file());
  }

private:
  std::string path_;
  H5File file_; // declared before io_: closed after the dataset
  Hdf5Io io_;
};

} // namespace

std::unique_ptr<OpenFile> open_hdf5(const Hdf5Options &o, MPI_Comm comm, const std::string &path,
                                    int amode, const std::map<std::string, std::string> &hints) {
  return std::make_unique<Hdf5File>(o, comm, path, amode, hints);
}

std::string hdf5_version() {
  unsigned major = 0, minor = 0, release = 0;
  if (H5get_libversion(&major, &minor, &release) < 0)
    return "unknown";
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
}

} // namespace pio::io
