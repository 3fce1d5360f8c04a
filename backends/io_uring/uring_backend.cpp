// The io_uring backend (fio's io_uring engine is the model): each rank opens the path itself as
// the posix backend does (O_DIRECT with `ODirect on`), and moves its bytes through one io_uring
// per block (Ring), QueueDepth operations in flight at most; POSIX's namespace calls.
#include "uring_backend.hpp"

#include <fcntl.h>
#include <liburing.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pio/io/posix_namespace.hpp"
#include "posix_checks.hpp"
#include "ring.hpp"
#include "uring_io.hpp"

namespace pio::io {

namespace {

/// One open file: the descriptor, its entry in the ring's file table and the interface over
/// it. close() (and the destructor, quietly) waits for its operations, frees the entry and
/// closes the descriptor; MPI_MODE_DELETE_ON_CLOSE unlinks it then, as posix's does.
class UringFile final : public OpenFile {
public:
  /// Owns fd from here on (closed also when registering it throws).
  UringFile(Ring &ring, int fd, const std::string &path, DirectAlignment direct,
            bool delete_on_close)
      : ring_(ring), fd_(fd), path_(path), delete_on_close_(delete_on_close),
        index_(ring.register_file(fd)), io_(ring, fd, index_, path, direct) {}
  ~UringFile() override {
    ring_.drain(fd_.fd);
    ring_.unregister_file(index_);
  }
  Interface &io() override { return io_; }
  void close() override {
    ring_.drain(fd_.fd);
    ring_.unregister_file(index_);
    index_ = -1;
    close_file(fd_, path_, delete_on_close_);
  }

private:
  Ring &ring_;
  Descriptor fd_; // closed after io_ is gone (members go in reverse order)
  std::string path_;
  bool delete_on_close_;
  int index_;
  UringIo io_;
};

RingSetup ring_setup(const Settings &options) {
  RingSetup s;
  s.depth = static_cast<unsigned>(options.integer("QueueDepth"));
  s.sq_poll = options.flag("SqPoll");
  s.registered_files = options.flag("RegisteredFiles");
  s.registered_buffers = options.flag("RegisteredBuffers");
  return s;
}

class UringBackend final : public PosixNamespace {
public:
  explicit UringBackend(const Settings &options)
      : direct_(options.flag("ODirect")), ring_(ring_setup(options)) {}

  /// Refuses MPI-IO hints and amode flags POSIX cannot honour; O_DIRECT with ODirect on.
  std::unique_ptr<OpenFile> open(MPI_Comm, const std::string &path, int amode,
                                 const std::map<std::string, std::string> &hints) override {
    const int fd = open_test_file(path, amode, direct_, hints, "io_uring");
    DirectAlignment alignment;
    if (direct_) {
      Descriptor guard(fd); // closed if O_DIRECT is refused here
      alignment = checked_direct(fd, path);
      guard.fd = -1;
    }
    return std::make_unique<UringFile>(ring_, fd, path, alignment,
                                       (amode & MPI_MODE_DELETE_ON_CLOSE) != 0);
  }

  /// ODirect on refused at its line where TestFile would be on tmpfs or ramfs.
  void check_test_file(const std::string &path) const override {
    if (direct_)
      refuse_direct_on_memory_file_system(path);
  }

private:
  bool direct_;
  Ring ring_;
};

std::map<std::string, std::string> liburing_version() {
  return {{"liburing", PIO_LIBURING_VERSION}}; // pkg-config's, at build time
}

} // namespace

BackendInfo io_uring_info() {
  using C = Capability;
  BackendInfo b("io_uring", make_backend<UringBackend>);
  b.summary = "io_uring (liburing): each rank's reads and writes queued on one ring, up to "
              "QueueDepth in flight and submitted together; the individual file pointer as "
              "posix's; collective transfers run independently";
  b.reference = "fio's io_uring engine (ioengines/io_uring.c): iodepth, fixedbufs, "
                "registerfiles, sqthread_poll, direct";
  b.capabilities = {C::IndividualPointers, C::NonBlocking, C::ODirect, C::Metadata};
  b.options = {
      BackendOption{DirectiveSpec{"QueueDepth", DirectiveType::Integer, "1",
                                  "operations in flight at most (fio's iodepth): a unit's extents, "
                                  "and under TimingScope phase the transfers of several units of "
                                  "patterns whose units are independent, go to the ring together; "
                                  "1 makes every read or write complete before the next, as "
                                  "pread / pwrite"}
                        .at_least(1)
                        .at_most(4096)},
      BackendOption{DirectiveSpec{"RegisteredBuffers", DirectiveType::Flag, "off",
                                  "data through QueueDepth buffers registered with the ring once "
                                  "(READ_FIXED / WRITE_FIXED, fio's fixedbufs), copied to and from "
                                  "the module's memory: the kernel maps no user pages per "
                                  "operation"}},
      BackendOption{
          DirectiveSpec{"RegisteredFiles", DirectiveType::Flag, "off",
                        "the test files in the ring's file table (IOSQE_FIXED_FILE, fio's "
                        "registerfiles): no file lookup per operation"}},
      BackendOption{
          DirectiveSpec{"SqPoll", DirectiveType::Flag, "off",
                        "a kernel thread polls the submission queue (IORING_SETUP_SQPOLL, "
                        "fio's sqthread_poll): submitting makes no system call; refused "
                        "at its line where the kernel does not allow it"}},
      BackendOption{DirectiveSpec{"ODirect", DirectiveType::Flag, "off",
                                  "open the test files with O_DIRECT (every transfer and "
                                  "HeaderOffset a multiple of the file system's direct-I/O block; "
                                  "refused at its line on tmpfs and where the file system has no "
                                  "direct I/O)"},
                    true, C::ODirect}};
  b.library_versions = liburing_version;
  return b;
}

} // namespace pio::io
