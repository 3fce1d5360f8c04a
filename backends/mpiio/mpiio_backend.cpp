// The mpiio backend (IOR's MPIIO backend, aiori-MPIIO.c, is the model): MPI_File_open on the
// file's ranks with the block's hints, MpiIo over it, MPI_File_delete for remove, and POSIX for
// the namespace calls MPI-IO has none of (stat, mkdir, rmdir, readdir, sync), as IOR's MPIIO
// backend makes them for mdtest.
#include "mpiio_backend.hpp"

#include "mpiio_io.hpp"
#include "pio/io/posix_namespace.hpp"
#include "pio/mpi_handles.hpp"

namespace pio::io {

namespace {

/// The harness's or the module's MPI_File and MpiIo over it.
class MpiIoFile final : public OpenFile {
public:
  MpiIoFile(MPI_Comm comm, const std::string &path, int amode,
            const std::map<std::string, std::string> &hints)
      : file_(comm, path, amode, Info(hints)), io_(file_.get()) {}
  Interface &io() override { return io_; }
  std::map<std::string, std::string> hints_in_effect() const override {
    return file_.hints_in_effect();
  }
  void close() override { file_.close(); }

private:
  File file_;
  MpiIo io_;
};

class MpiIoBackend final : public PosixNamespace {
public:
  explicit MpiIoBackend(const Settings &) {}
  std::unique_ptr<OpenFile> open(MPI_Comm comm, const std::string &path, int amode,
                                 const std::map<std::string, std::string> &hints) override {
    return std::make_unique<MpiIoFile>(comm, path, amode, hints);
  }
  /// MPI_File_delete; false when MPI-IO says there is no such file.
  bool remove(const char *path) override {
    const int rc = MPI_File_delete(path, MPI_INFO_NULL);
    if (rc == MPI_SUCCESS)
      return true;
    int cls = 0;
    MPI_Error_class(rc, &cls);
    if (cls == MPI_ERR_NO_SUCH_FILE)
      return false;
    mpi_check(rc, (std::string("MPI_File_delete ") + path).c_str());
    return false;
  }
};

} // namespace

BackendInfo mpiio_info() {
  using C = Capability;
  BackendInfo b("mpiio", make_backend<MpiIoBackend>);
  b.summary = "MPI-IO (ROMIO here): one MPI_File per file, file views, file pointers, collective "
              "buffering; each transfer exactly one MPI_File_{write,read}* call";
  b.reference = "MPI-3.1 chapter 13; IOR's MPIIO backend (aiori-MPIIO.c)";
  b.capabilities = {C::Collective,     C::FileViews,   C::IndividualPointers,
                    C::SharedPointers, C::NonBlocking, C::Split,
                    C::Hints,          C::Metadata};
  return b;
}

} // namespace pio::io
