// The posix backend (IOR's POSIX backend, aiori-POSIX.c, is the model): each rank open(2)s the
// path itself with the flags MPI-IO's amode asks for (O_DIRECT with `ODirect on`), PosixIo over
// the descriptor, and POSIX's namespace calls.
#include "posix_backend.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pio/io/posix_namespace.hpp"
#include "posix_checks.hpp"
#include "posix_io.hpp"

namespace pio::io {

namespace {

/// The open descriptor of one file (closed on destruction, also when the constructor's O_DIRECT
/// checks throw). MPI_MODE_DELETE_ON_CLOSE: each rank unlinks the path after its close (the
/// first one removes it; the others' descriptors stay valid until they close, as POSIX keeps an
/// unlinked file open).
class PosixFile final : public OpenFile {
public:
  PosixFile(int fd, const std::string &path, bool direct, bool delete_on_close)
      : fd_(fd), path_(path), delete_on_close_(delete_on_close),
        io_(fd, path, direct ? checked_direct(fd, path) : DirectAlignment{}) {}
  Interface &io() override { return io_; }
  void close() override { close_file(fd_, path_, delete_on_close_); }

private:
  Descriptor fd_;
  std::string path_;
  bool delete_on_close_;
  PosixIo io_;
};

class PosixBackend final : public PosixNamespace {
public:
  explicit PosixBackend(const Settings &options) : direct_(options.flag("ODirect")) {}

  /// Refuses MPI-IO hints and amode flags POSIX cannot honour; O_DIRECT with ODirect on.
  std::unique_ptr<OpenFile> open(MPI_Comm, const std::string &path, int amode,
                                 const std::map<std::string, std::string> &hints) override {
    const int fd = open_test_file(path, amode, direct_, hints, "posix");
    return std::make_unique<PosixFile>(fd, path, direct_, (amode & MPI_MODE_DELETE_ON_CLOSE) != 0);
  }

  /// ODirect on refused at its line where TestFile would be on tmpfs or ramfs.
  void check_test_file(const std::string &path) const override {
    if (direct_)
      refuse_direct_on_memory_file_system(path);
  }

private:
  bool direct_;
};

} // namespace

BackendInfo posix_info() {
  using C = Capability;
  BackendInfo b("posix", make_backend<PosixBackend>);
  b.summary = "POSIX: each rank open / pwrite / pread / fsync / close on the file; the "
              "individual file pointer as lseek + write; collective transfers run independently";
  b.reference = "IOR's POSIX backend (aiori-POSIX.c); mdtest's default API";
  b.capabilities = {C::IndividualPointers, C::ODirect, C::Metadata};
  b.options = {BackendOption{
      DirectiveSpec{"ODirect", DirectiveType::Flag, "off",
                    "open the test files with O_DIRECT (every transfer and HeaderOffset a "
                    "multiple of the file system's direct-I/O block; refused on tmpfs and where "
                    "the file system has no direct I/O)"},
      true, C::ODirect}};
  return b;
}

} // namespace pio::io
