#pragma once
/// RAII, move-only wrappers for MPI handles (one Handle template), and conversion of MPI return
/// codes to exceptions.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>

#include "pio/error.hpp"
#include "pio/handle.hpp"

namespace pio {

/// Throws MpiError naming `call` if rc is not MPI_SUCCESS.
inline void mpi_check(int rc, const char *call) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw MpiError(std::string(call) + " failed: " + std::string(text, static_cast<size_t>(len)));
}

namespace handle_traits {
struct Datatype {
  using type = MPI_Datatype;
  static type null() { return MPI_DATATYPE_NULL; }
  static void free(type &t) { MPI_Type_free(&t); }
};
struct Info {
  using type = MPI_Info;
  static type null() { return MPI_INFO_NULL; }
  static void free(type &i) { MPI_Info_free(&i); }
};
struct File {
  using type = MPI_File;
  static type null() { return MPI_FILE_NULL; }
  static void free(type &f) { MPI_File_close(&f); }
};
struct Comm {
  using type = MPI_Comm;
  static type null() { return MPI_COMM_NULL; }
  static void free(type &c) { MPI_Comm_free(&c); }
};
struct Win {
  using type = MPI_Win;
  static type null() { return MPI_WIN_NULL; }
  static void free(type &w) { MPI_Win_free(&w); }
};
struct Request {
  using type = MPI_Request;
  static type null() { return MPI_REQUEST_NULL; }
  /// A request still pending when its owner goes is cancelled and completed, never leaked.
  static void free(type &r) {
    MPI_Cancel(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
};
struct Group {
  using type = MPI_Group;
  static type null() { return MPI_GROUP_NULL; }
  static void free(type &g) { MPI_Group_free(&g); }
};
} // namespace handle_traits

/// Owns an MPI_Datatype (committed or not).
class Datatype : public Handle<handle_traits::Datatype> {
public:
  Datatype() = default;
  /// Takes ownership of t; commits it when commit is true.
  explicit Datatype(MPI_Datatype t, bool commit = true) : Handle(committed(t, commit)) {}

private:
  static MPI_Datatype committed(MPI_Datatype t, bool commit) {
    if (commit)
      mpi_check(MPI_Type_commit(&t), "MPI_Type_commit");
    return t;
  }
};

/// Owns an MPI_Info.
class Info : public Handle<handle_traits::Info> {
public:
  /// Creates an empty info object.
  Info() { mpi_check(MPI_Info_create(out()), "MPI_Info_create"); }
  /// Creates an info object holding every key/value of hints.
  explicit Info(const std::map<std::string, std::string> &hints) : Info() {
    for (const auto &[k, v] : hints)
      mpi_check(MPI_Info_set(get(), k.c_str(), v.c_str()), "MPI_Info_set");
  }
  /// Takes ownership of an existing handle.
  static Info adopt(MPI_Info raw) {
    Info i(nullptr);
    *i.out() = raw;
    return i;
  }
  /// All key/value pairs.
  std::map<std::string, std::string> to_map() const {
    std::map<std::string, std::string> result;
    if (get() == MPI_INFO_NULL)
      return result;
    int n = 0;
    mpi_check(MPI_Info_get_nkeys(get(), &n), "MPI_Info_get_nkeys");
    for (int k = 0; k < n; ++k) {
      char key[MPI_MAX_INFO_KEY + 1];
      mpi_check(MPI_Info_get_nthkey(get(), k, key), "MPI_Info_get_nthkey");
      int len = 0, flag = 0;
      mpi_check(MPI_Info_get_valuelen(get(), key, &len, &flag), "MPI_Info_get_valuelen");
      std::string value(static_cast<size_t>(len) + 1, '\0');
      mpi_check(MPI_Info_get(get(), key, len + 1, value.data(), &flag), "MPI_Info_get");
      value.resize(static_cast<size_t>(len));
      result[key] = value;
    }
    return result;
  }

private:
  explicit Info(std::nullptr_t) {}
};

/// Owns an MPI_File; closes it on destruction (collective on the file's communicator).
class File : public Handle<handle_traits::File> {
public:
  File() = default;
  /// Opens path on comm with amode and hints; throws MpiError naming the path on failure.
  File(MPI_Comm comm, const std::string &path, int amode, const Info &info) {
    MPI_File f = MPI_FILE_NULL;
    const int rc = MPI_File_open(comm, path.c_str(), amode, info.get(), &f);
    mpi_check(rc, ("MPI_File_open(\"" + path + "\")").c_str());
    *out() = f;
  }
  /// Closes the file, throwing on error.
  void close() {
    MPI_File f = release();
    if (f != MPI_FILE_NULL)
      mpi_check(MPI_File_close(&f), "MPI_File_close");
  }
  /// The hints in effect (MPI_File_get_info), which may differ from those requested.
  std::map<std::string, std::string> hints_in_effect() const {
    MPI_Info raw = MPI_INFO_NULL;
    mpi_check(MPI_File_get_info(get(), &raw), "MPI_File_get_info");
    return Info::adopt(raw).to_map();
  }
};

/// Owns a communicator made by MPI_Comm_split / dup (never MPI_COMM_WORLD or SELF).
using Comm = Handle<handle_traits::Comm>;
/// Owns a one-sided window (MPI_Win_create / MPI_Win_allocate); freed (collectively) on
/// destruction.
using Win = Handle<handle_traits::Win>;
/// Owns a non-blocking request; one still pending on destruction is cancelled and completed.
using Request = Handle<handle_traits::Request>;
/// Owns an MPI_Group.
using Group = Handle<handle_traits::Group>;

/// MPI counts are int: splits a 64-bit byte count into calls of at most this many bytes.
inline constexpr std::int64_t kMaxBytesPerCall = std::int64_t(1) << 30;

} // namespace pio
