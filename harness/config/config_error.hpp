#pragma once
/// The error every config stage throws: it names the file and line, what is wrong and the fix.

#include <string>
#include <utility>

#include "pio/error.hpp"

namespace pio::harness {

/// A config error: names the file and line, the directive, and what is accepted.
class ConfigError : public Error {
public:
  ConfigError(const std::string &file, int line, const std::string &what, std::string hint = {})
      : Error(file + ":" + std::to_string(line) + ": " + what, std::move(hint)), file_(file),
        line_(line) {}
  const std::string &file() const { return file_; }
  int line() const { return line_; }

private:
  std::string file_;
  int line_;
};

} // namespace pio::harness
