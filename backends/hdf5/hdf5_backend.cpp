// The hdf5 backend (IOR's HDF5 backend, aiori-HDF5.c, is the model): parallel HDF5 through its
// MPI-IO driver, one 1-D byte dataset per file, explicit offsets only; no namespace calls of its
// own.
#include "hdf5_backend.hpp"

#include <dlfcn.h>
#include <hdf5.h>

#include <cstdint>

#include "hdf5_io.hpp"

namespace pio::io {

namespace {

/// Keeps libhdf5 and this object mapped until the process ends, whenever the harness unloads the
/// backend: HDF5, once initialised under MPI, hangs a delete callback on MPI_COMM_SELF
/// (H5_mpi_delete_cb) that MPI_Finalize calls, and the files it opened carry this object's error
/// handler (hdf5_deferred_errors.hpp); unmapped, MPI_Finalize jumps into nothing (SIGSEGV).
void stay_loaded_until_exit() {
  static const bool pinned = [] {
    const std::uintptr_t in[] = {reinterpret_cast<std::uintptr_t>(&H5open),
                                 reinterpret_cast<std::uintptr_t>(&stay_loaded_until_exit)};
    for (const std::uintptr_t address : in) {
      Dl_info info{};
      if (::dladdr(reinterpret_cast<void *>(address), &info) != 0 && info.dli_fname != nullptr)
        ::dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE); // never closed
    }
    return true;
  }();
  (void)pinned;
}

class Hdf5Backend final : public Backend {
public:
  explicit Hdf5Backend(const Settings &s) {
    stay_loaded_until_exit();
    o_.alignment = s.size("H5Alignment");
    o_.chunk_size = s.size("H5ChunkSize");
    o_.collective_metadata = s.flag("H5CollectiveMetadata");
    o_.meta_block_size = s.size("H5MetaBlockSize");
  }
  std::unique_ptr<OpenFile> open(MPI_Comm comm, const std::string &path, int amode,
                                 const std::map<std::string, std::string> &hints) override {
    return open_hdf5(o_, comm, path, amode, hints);
  }

private:
  Hdf5Options o_;
};

std::map<std::string, std::string> versions() { return {{"hdf5", hdf5_version()}}; }

} // namespace

BackendInfo hdf5_info() {
  using C = Capability;
  using T = DirectiveType;
  BackendInfo b("hdf5", make_backend<Hdf5Backend>);
  b.summary = "parallel HDF5 through its MPI-IO driver: one 1-D byte dataset per file, each "
              "transfer one H5Dwrite / H5Dread of a hyperslab selection, independent or "
              "collective";
  b.reference = "IOR's HDF5 backend (aiori-HDF5.c); HDF5 1.10 parallel (H5FD_MPIO)";
  b.capabilities = {C::Collective, C::Hints};
  b.library_versions = versions;
  b.options = {
      BackendOption{DirectiveSpec{"H5Alignment", T::Size, "0",
                                  "H5Pset_alignment(1, size): every object of the file (the "
                                  "dataset's data) starts at a multiple of size; 0 = HDF5's "
                                  "default"}
                        .at_least(0)},
      BackendOption{DirectiveSpec{"H5ChunkSize", T::Size, "0",
                                  "a chunked dataset with chunks of this many bytes "
                                  "(H5Pset_chunk); 0 = contiguous layout"}
                        .at_least(0)},
      BackendOption{DirectiveSpec{"H5CollectiveMetadata", T::Flag, "off",
                                  "collective metadata reads and writes "
                                  "(H5Pset_all_coll_metadata_ops, H5Pset_coll_metadata_write)"}},
      BackendOption{DirectiveSpec{"H5MetaBlockSize", T::Size, "0",
                                  "H5Pset_meta_block_size: metadata aggregated in blocks of this "
                                  "size; 0 = HDF5's default"}
                        .at_least(0)}};
  return b;
}

} // namespace pio::io
