// Opening a test's file through the block's interface.
#include "pio/io/open_file.hpp"

#include "pio/error.hpp"
#include "pio/io/mpiio.hpp"
#include "pio/io/posix.hpp"
#include "pio/mpi_handles.hpp"

#include "hdf5.hpp"

namespace pio::io {

namespace {

/// MPI-IO: the harness's MPI_File and io::MpiIo over it.
class MpiIoFile final : public OpenFile {
public:
  MpiIoFile(MPI_Comm comm, const std::string &path, int amode,
            const std::map<std::string, std::string> &hints)
      : file_(comm, path, amode, Info(hints)), io_(file_.get()) {}
  Interface &io() override { return io_; }
  MPI_File mpi_file() const override { return file_.get(); }
  std::map<std::string, std::string> hints_in_effect() const override {
    return file_.hints_in_effect();
  }
  void close() override { file_.close(); }

private:
  File file_;
  MpiIo io_;
};

} // namespace

std::unique_ptr<OpenFile> open_file(const Options &o, MPI_Comm comm, const std::string &path,
                                    int amode, const std::map<std::string, std::string> &hints) {
  switch (o.kind) {
  case InterfaceKind::MpiIo:
    return std::make_unique<MpiIoFile>(comm, path, amode, hints);
  case InterfaceKind::Posix:
    return open_posix(o, path, amode, hints);
  case InterfaceKind::Hdf5:
    return open_hdf5(o, comm, path, amode, hints);
  }
  throw Error(std::string("Interface ") + to_string(o.kind) + " is not built yet",
              "use Interface mpiio");
}

std::map<std::string, std::string> library_versions() {
  std::map<std::string, std::string> v{{"hdf5", hdf5_version()}};
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int n = 0;
  if (MPI_Get_library_version(text, &n) == MPI_SUCCESS) {
    // Its first line ("MPICH Version: 4.0.2"); the whole text is the results' mpi_library.
    const std::string all(text, static_cast<size_t>(n));
    v["mpi"] = all.substr(0, all.find('\n'));
  }
  return v;
}

} // namespace pio::io
