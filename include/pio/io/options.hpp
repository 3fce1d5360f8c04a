#pragma once
/// Which I/O interface a block's data transfers go through, and each interface's own settings:
/// the block directives Interface, ODirect and the H5* ones (docs/interfaces.md). The harness
/// opens each test's file through the chosen interface (pio/io/open_file.hpp) and hands the
/// module its io::Interface; IOR's `-a POSIX|MPIIO|HDF5` is the model.

#include <cstdint>
#include <optional>
#include <string>

namespace pio::io {

/// The I/O interfaces a block can choose.
enum class InterfaceKind {
  MpiIo, ///< MPI-IO (ROMIO here): one MPI_File per file, file views, collective buffering
  Posix, ///< open / pwrite / pread / fsync per rank, as IOR's POSIX backend
  Hdf5,  ///< parallel HDF5 through its MPI-IO driver: one 1-D byte dataset per file
};

/// The directive's word for k: "mpiio", "posix", "hdf5".
const char *to_string(InterfaceKind k);
/// The kind a directive word names (case-insensitive), or nothing.
std::optional<InterfaceKind> interface_kind(const std::string &word);

/// The settings of the block's interface; those of another interface are ignored.
struct Options {
  InterfaceKind kind = InterfaceKind::MpiIo; ///< Interface
  bool o_direct = false;                     ///< posix, ODirect: open with O_DIRECT
  std::int64_t h5_alignment = 0;  ///< hdf5, H5Alignment: H5Pset_alignment(1, this); 0 = HDF5's
  std::int64_t h5_chunk_size = 0; ///< hdf5, H5ChunkSize: chunked dataset, bytes; 0 = contiguous
  bool h5_collective_metadata = false; ///< hdf5, H5CollectiveMetadata: collective metadata ops
  std::int64_t h5_meta_block_size =
      0; ///< hdf5, H5MetaBlockSize: H5Pset_meta_block_size; 0 = HDF5's
};

/// For a module whose calls are MPI-IO's own (b_eff_io, IMB-IO): throws a DirectiveError on
/// "Interface" unless o names MPI-IO, naming the module.
void require_mpiio(const Options &o, const std::string &module);

} // namespace pio::io
