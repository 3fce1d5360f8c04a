#pragma once
/// RAII, move-only wrappers for MPI handles, and conversion of MPI return codes to exceptions.

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "pio/error.hpp"

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

/// Owns an MPI_Datatype (committed or not); frees it on destruction.
class Datatype {
public:
  Datatype() = default;
  /// Takes ownership of t; commits it when commit is true.
  explicit Datatype(MPI_Datatype t, bool commit = true) : t_(t) {
    if (commit)
      mpi_check(MPI_Type_commit(&t_), "MPI_Type_commit");
  }
  Datatype(Datatype &&o) noexcept : t_(std::exchange(o.t_, MPI_DATATYPE_NULL)) {}
  Datatype &operator=(Datatype &&o) noexcept {
    if (this != &o) {
      reset();
      t_ = std::exchange(o.t_, MPI_DATATYPE_NULL);
    }
    return *this;
  }
  Datatype(const Datatype &) = delete;
  Datatype &operator=(const Datatype &) = delete;
  ~Datatype() { reset(); }
  /// The raw handle (MPI_DATATYPE_NULL when empty).
  MPI_Datatype get() const { return t_; }
  /// Frees the type now.
  void reset() {
    if (t_ != MPI_DATATYPE_NULL)
      MPI_Type_free(&t_);
    t_ = MPI_DATATYPE_NULL;
  }

private:
  MPI_Datatype t_ = MPI_DATATYPE_NULL;
};

/// Owns an MPI_Info.
class Info {
public:
  /// Creates an empty info object.
  Info() { mpi_check(MPI_Info_create(&i_), "MPI_Info_create"); }
  /// Creates an info object holding every key/value of hints.
  explicit Info(const std::map<std::string, std::string> &hints) : Info() {
    for (const auto &[k, v] : hints)
      mpi_check(MPI_Info_set(i_, k.c_str(), v.c_str()), "MPI_Info_set");
  }
  /// Takes ownership of an existing handle.
  static Info adopt(MPI_Info raw) {
    Info i(nullptr);
    i.i_ = raw;
    return i;
  }
  Info(Info &&o) noexcept : i_(std::exchange(o.i_, MPI_INFO_NULL)) {}
  Info &operator=(Info &&o) noexcept {
    if (this != &o) {
      reset();
      i_ = std::exchange(o.i_, MPI_INFO_NULL);
    }
    return *this;
  }
  Info(const Info &) = delete;
  Info &operator=(const Info &) = delete;
  ~Info() { reset(); }
  /// The raw handle.
  MPI_Info get() const { return i_; }
  /// All key/value pairs.
  std::map<std::string, std::string> to_map() const {
    std::map<std::string, std::string> out;
    if (i_ == MPI_INFO_NULL)
      return out;
    int n = 0;
    mpi_check(MPI_Info_get_nkeys(i_, &n), "MPI_Info_get_nkeys");
    for (int k = 0; k < n; ++k) {
      char key[MPI_MAX_INFO_KEY + 1];
      mpi_check(MPI_Info_get_nthkey(i_, k, key), "MPI_Info_get_nthkey");
      int len = 0, flag = 0;
      mpi_check(MPI_Info_get_valuelen(i_, key, &len, &flag), "MPI_Info_get_valuelen");
      std::string value(static_cast<size_t>(len) + 1, '\0');
      mpi_check(MPI_Info_get(i_, key, len + 1, value.data(), &flag), "MPI_Info_get");
      value.resize(static_cast<size_t>(len));
      out[key] = value;
    }
    return out;
  }
  void reset() {
    if (i_ != MPI_INFO_NULL)
      MPI_Info_free(&i_);
    i_ = MPI_INFO_NULL;
  }

private:
  explicit Info(std::nullptr_t) {}
  MPI_Info i_ = MPI_INFO_NULL;
};

/// Owns an MPI_File; closes it on destruction (collective on the file's communicator).
class File {
public:
  File() = default;
  /// Opens path on comm with amode and hints; throws MpiError naming the path on failure.
  File(MPI_Comm comm, const std::string &path, int amode, const Info &info) {
    int rc = MPI_File_open(comm, path.c_str(), amode, info.get(), &f_);
    if (rc != MPI_SUCCESS) {
      f_ = MPI_FILE_NULL;
      mpi_check(rc, ("MPI_File_open(\"" + path + "\")").c_str());
    }
  }
  File(File &&o) noexcept : f_(std::exchange(o.f_, MPI_FILE_NULL)) {}
  File &operator=(File &&o) noexcept {
    if (this != &o) {
      reset();
      f_ = std::exchange(o.f_, MPI_FILE_NULL);
    }
    return *this;
  }
  File(const File &) = delete;
  File &operator=(const File &) = delete;
  ~File() { reset(); }
  /// The raw handle (MPI_FILE_NULL when none).
  MPI_File get() const { return f_; }
  /// Closes the file, throwing on error.
  void close() {
    if (f_ != MPI_FILE_NULL)
      mpi_check(MPI_File_close(&f_), "MPI_File_close");
    f_ = MPI_FILE_NULL;
  }
  /// The hints in effect (MPI_File_get_info), which may differ from those requested.
  std::map<std::string, std::string> hints_in_effect() const {
    MPI_Info raw = MPI_INFO_NULL;
    mpi_check(MPI_File_get_info(f_, &raw), "MPI_File_get_info");
    return Info::adopt(raw).to_map();
  }
  void reset() {
    if (f_ != MPI_FILE_NULL)
      MPI_File_close(&f_);
    f_ = MPI_FILE_NULL;
  }

private:
  MPI_File f_ = MPI_FILE_NULL;
};

/// Owns a communicator made by MPI_Comm_split / dup (never MPI_COMM_WORLD or SELF).
class Comm {
public:
  Comm() = default;
  /// Takes ownership of c.
  explicit Comm(MPI_Comm c) : c_(c) {}
  Comm(Comm &&o) noexcept : c_(std::exchange(o.c_, MPI_COMM_NULL)) {}
  Comm &operator=(Comm &&o) noexcept {
    if (this != &o) {
      reset();
      c_ = std::exchange(o.c_, MPI_COMM_NULL);
    }
    return *this;
  }
  Comm(const Comm &) = delete;
  Comm &operator=(const Comm &) = delete;
  ~Comm() { reset(); }
  /// The raw handle (MPI_COMM_NULL when this rank is not a member).
  MPI_Comm get() const { return c_; }
  void reset() {
    if (c_ != MPI_COMM_NULL)
      MPI_Comm_free(&c_);
    c_ = MPI_COMM_NULL;
  }

private:
  MPI_Comm c_ = MPI_COMM_NULL;
};

/// MPI counts are int: splits a 64-bit byte count into calls of at most this many bytes.
inline constexpr std::int64_t kMaxBytesPerCall = std::int64_t(1) << 30;

} // namespace pio
