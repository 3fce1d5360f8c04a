#pragma once
// Reading a trace one line at a time (a trace may be larger than memory: nothing is kept), with
// its line number and whether the line was cut short (the file ends without its newline: a trace
// copied while it was being written, or truncated).

#include <cstdint>
#include <istream>
#include <string>

namespace pio::replay {

/// The lines of a trace, numbered from 1.
class TraceLines {
public:
  /// Lines of `in`, a trace named `path` in messages.
  TraceLines(std::istream &in, std::string path) : in_(in), path_(std::move(path)) {}
  /// The next line into `line` (without its newline); false at the end.
  bool next(std::string &line) {
    if (!std::getline(in_, line))
      return false;
    ++number_;
    cut_ = in_.eof(); // getline stopped at the end of the file, not at a newline
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    return true;
  }
  /// The number of the line last read.
  std::int64_t number() const { return number_; }
  /// Whether the line last read is the file's last and has no newline.
  bool cut() const { return cut_; }
  /// The trace's name in messages.
  const std::string &path() const { return path_; }
  /// "path:line" of the line last read.
  std::string here() const { return path_ + ":" + std::to_string(number_); }

private:
  std::istream &in_;
  std::string path_;
  std::int64_t number_ = 0;
  bool cut_ = false;
};

} // namespace pio::replay
