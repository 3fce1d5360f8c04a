#pragma once
/// An I/O backend as a plugin (IOR's aiori and fio's ioengines are the models, but loadable): a
/// shared object, found on the module path by its manifest as a module is, exports
/// PIO_EXPORT_BACKENDS(...) (pio/io/backend_export.hpp) with one BackendInfo per backend: its
/// Interface word, its options (the block directives it takes, validated by the harness at their
/// config line), its capabilities, and a factory. The harness makes one Backend per block from the
/// block's option values, opens every test file through it and hands modules the Backend
/// (ModuleContext::backend) for the files and namespace calls they make themselves
/// (docs/guides/writing-a-backend.md).

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pio/directive.hpp"
#include "pio/error.hpp"
#include "pio/io/capability.hpp"
#include "pio/io/open_file.hpp"

namespace pio::io {

/// What stat found at a path (lstat: a symbolic link is Other).
struct FileStat {
  /// The kind of file.
  enum class Type { File, Directory, Other } type = Type::Other;
  std::int64_t size = 0; ///< bytes
};

/// The kind of a directory entry as a directory read reports it.
enum class EntryType {
  File,      ///< a regular file
  Directory, ///< a directory
  Other,     ///< anything else (a link, a device, ...)
  Unknown,   ///< the file system did not say: stat the entry to know
};

/// One backend configured for one block: opens files and makes the namespace calls. Made by the
/// harness (BackendInfo::create) on every rank of the block, destroyed after the block.
class Backend {
public:
  virtual ~Backend() = default;
  /// Opens path on comm (every rank of comm calls: a test's group for a shared file,
  /// MPI_COMM_SELF for a file per process or an item) with MPI-IO's amode (MPI_MODE_RDWR,
  /// _RDONLY, _WRONLY, _CREATE, _EXCL, _DELETE_ON_CLOSE, ...) and MPI-IO hints (empty unless
  /// the backend has Capability::Hints). Throws pio::Error naming the call, the path and why.
  virtual std::unique_ptr<OpenFile> open(MPI_Comm comm, const std::string &path, int amode,
                                         const std::map<std::string, std::string> &hints) = 0;
  /// Called in the pre-flight check, before any file exists, with the block's TestFile: refuses
  /// what the backend's options cannot do where that file would be (O_DIRECT on tmpfs) with a
  /// pio::DirectiveError naming the option, which the harness reports at the option's line.
  /// Creates nothing. The default checks nothing.
  virtual void check_test_file(const std::string &path) const { (void)path; }

  // Namespace calls (Capability::Metadata), made by this rank alone: IOR's aiori stat, delete,
  // mkdir, rmdir, and the directory read and sync mdtest and IO500's find make. Paths are C
  // strings so that a timed loop over items builds none. Each throws pio::Error naming the
  // call, the path and the system's reason; the defaults refuse (no Capability::Metadata).

  /// The file at path, or nothing when there is none (ENOENT). Does not follow a final link.
  virtual std::optional<FileStat> stat(const char *path) {
    (void)path;
    lacks_metadata("stat");
  }
  /// Removes the file at path (unlink, MPI_File_delete); false when there was none.
  virtual bool remove(const char *path) {
    (void)path;
    lacks_metadata("remove");
  }
  /// Makes the directory path (mode 0755); it must not exist.
  virtual void mkdir(const char *path) {
    (void)path;
    lacks_metadata("mkdir");
  }
  /// Removes the empty directory path; false when there was none (a directory holding entries
  /// throws).
  virtual bool rmdir(const char *path) {
    (void)path;
    lacks_metadata("rmdir");
  }
  /// Calls each(name, type) for every entry of the directory path but "." and "..".
  virtual void readdir(const char *path,
                       const std::function<void(const char *name, EntryType type)> &each) {
    (void)path, (void)each;
    lacks_metadata("readdir");
  }
  /// Flushes written data and metadata to storage: path null, everything this rank wrote (POSIX
  /// sync(2): mdtest -Y); else the file system holding path (syncfs).
  virtual void sync(const char *path) {
    (void)path;
    lacks_metadata("sync");
  }

protected:
  [[noreturn]] static void lacks_metadata(const char *call) {
    throw Error(std::string("Backend::") + call + ": this backend has no " +
                    describe(Capability::Metadata) + " (capability metadata)",
                "choose an Interface with the capability metadata (pio-harness "
                "--list-interfaces)");
  }
};

/// One option a backend takes: a block directive (written in a block, or globally for every
/// block), validated against its spec at its config line; its value reaches the backend's
/// factory in Settings. The results record every option of the block's backend
/// (`interface_settings`).
struct BackendOption {
  DirectiveSpec spec;    ///< name (e.g. "ODirect"), type, default, help, limits
  bool sweepable = true; ///< `Sweep <name> ...` may vary it
  /// The capability the option asks for (ODirect: O_DIRECT), if any: a block whose backend does
  /// not take the option but gets it away from its default (a global line, a Sweep over
  /// Interface) is refused at that line. An option without one is ignored by such blocks.
  std::optional<Capability> asks_for = {};
};

/// Makes a backend for one block from its option values (defaults filled in). A value the
/// backend finds it cannot honour here (a kernel that refuses it) throws a pio::DirectiveError
/// naming the option: the harness reports it at the option's line.
using CreateBackend = std::unique_ptr<Backend> (*)(const Settings &options);

/// A CreateBackend for class B constructed from the options:
/// `pio::io::BackendInfo info("name", pio::io::make_backend<B>);`
template <class B> std::unique_ptr<Backend> make_backend(const Settings &options) {
  return std::make_unique<B>(options);
}

/// What a shared object says about one backend it provides. Set fields by name after
/// construction, so adding a field never shifts a backend's arguments.
struct BackendInfo {
  /// name: the Interface word (lower case, e.g. "posix"); create: makes a block's backend.
  BackendInfo(std::string name, CreateBackend create) : name(std::move(name)), create(create) {}

  std::string name;                   ///< the Interface word, e.g. "posix"
  CreateBackend create;               ///< makes a block's backend from its option values
  std::string summary;                ///< one line for --list-interfaces
  std::string reference;              ///< the model, e.g. "IOR's POSIX backend (aiori-POSIX.c)"
  Capabilities capabilities;          ///< what it can do
  std::vector<BackendOption> options; ///< the block directives it takes
  /// The I/O libraries it uses and their versions ({"hdf5": "1.10.8"}) for the results'
  /// provenance; nullptr: none beyond MPI.
  std::map<std::string, std::string> (*library_versions)() = nullptr;
};

} // namespace pio::io
