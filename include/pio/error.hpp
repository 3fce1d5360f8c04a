#pragma once
/// Exceptions that cross the module boundary and the harness's internal layers.

#include <stdexcept>
#include <string>

namespace pio {

/// An error with a message saying what went wrong and, separately, what to do about it.
class Error : public std::runtime_error {
public:
  /// what: what failed (and where); hint: how to fix it (may be empty).
  explicit Error(const std::string &what, std::string hint = {})
      : std::runtime_error(what), hint_(std::move(hint)) {}
  /// What the user can do about it.
  const std::string &hint() const noexcept { return hint_; }

private:
  std::string hint_;
};

/// An MPI call returned an error code; the message names the call and MPI's error string.
class MpiError : public Error {
public:
  using Error::Error;
};

} // namespace pio
