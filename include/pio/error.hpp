#pragma once
/// Exceptions that cross the module boundary and the harness's internal layers.

#include <stdexcept>
#include <string>
#include <utility>

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

/// A module directive whose value is well formed and within its declared limits but makes no
/// sense for the test: out of range for the geometry, an impossible geometry, a file that would
/// end beyond 2^63-1 bytes. Thrown from Module::init_module (on every rank alike: compute it from
/// the directives and the process count only), it stops the run before the block's first I/O
/// with exit code 2 and the file:line of `directive` in the block (docs/reference/reliability.md);
/// thrown from a later method it fails the test like any Error.
class DirectiveError : public Error {
public:
  /// directive: the directive at fault, as the module declares it (e.g. "HeaderOffset").
  DirectiveError(std::string directive, const std::string &what, std::string hint = {})
      : Error(what, std::move(hint)), directive_(std::move(directive)) {}
  /// The directive at fault, as the module declares it.
  const std::string &directive() const noexcept { return directive_; }

private:
  std::string directive_;
};

/// An MPI call returned an error code; the message names the call and MPI's error string.
class MpiError : public Error {
public:
  using Error::Error;
};

} // namespace pio
