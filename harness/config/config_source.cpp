// Each config file is read here, bounded and checked line by line, before Dotconf parses it
// (see config_source.hpp for what Dotconf mishandles).
#include "config/config_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "config/config_error.hpp"

#include "config/text.hpp"

namespace pio::harness {

namespace {

bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

/// Closes a descriptor on scope exit.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

/// A physical line ends in one `\` (before an optional CR): Dotconf joins the next line to it.
bool continues(const std::string &line) {
  std::size_t n = line.size();
  if (n > 0 && line[n - 1] == '\r')
    --n;
  return n > 0 && line[n - 1] == '\\' && (n < 2 || line[n - 2] != '\\');
}

std::string strip_continuation(std::string line) {
  if (!line.empty() && line.back() == '\r')
    line.pop_back();
  line.pop_back(); // the backslash
  return line;
}

/// Reads at most limit + 1 bytes of a regular file. Throws ConfigError at (file, line).
std::string read_bounded(const std::string &path, const std::string &file, int line) {
  const std::string what = "config file '" + path + "'";
  if (path.empty())
    throw ConfigError(file, line, "an empty config file name",
                      "give the path of a config file (Include paths are relative to the "
                      "including file's directory)");
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0)
    throw ConfigError(file, line,
                      what + (errno == ENOENT
                                  ? " does not exist"
                                  : " cannot be opened: " + std::string(std::strerror(errno))),
                      "check the path and its permissions (Include paths are relative to the "
                      "including file's directory)");
  struct stat st;
  if (::fstat(f.fd, &st) != 0)
    throw ConfigError(file, line, what + " cannot be read: " + std::strerror(errno),
                      "check the file");
  if (!S_ISREG(st.st_mode))
    throw ConfigError(file, line,
                      what + " is not a regular file (" +
                          (S_ISDIR(st.st_mode)    ? "a directory"
                           : S_ISCHR(st.st_mode)  ? "a character device"
                           : S_ISFIFO(st.st_mode) ? "a pipe"
                                                  : "not a plain file") +
                          ")",
                      "name a config file; a directory, device or pipe cannot be a config");
  std::string data;
  char buf[65536];
  for (;;) {
    const ssize_t got = ::read(f.fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      throw ConfigError(file, line, what + " cannot be read: " + std::strerror(errno),
                        "check the file");
    if (got == 0)
      break;
    data.append(buf, static_cast<std::size_t>(got));
    if (data.size() > kMaxConfigBytes)
      throw ConfigError(file, line,
                        what + " is larger than " + std::to_string(kMaxConfigBytes >> 20) + " MiB",
                        "a config is a short text file: check that this is the file you meant");
  }
  return data;
}

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

const char *const kVariableFix =
    "write ${NAME} or ${NAME:-default} (NAME: letters, digits and _, not starting with a digit); "
    "write $$ for a literal $";

} // namespace

std::string expand_variables(const std::string &line, const std::string &path, int number,
                             std::vector<ConfigVariable> &used) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '$' || i + 1 >= line.size() || (line[i + 1] != '$' && line[i + 1] != '{')) {
      out += line[i];
      continue;
    }
    if (line[i + 1] == '$') { // $$: a literal $
      out += '$';
      ++i;
      continue;
    }
    const std::size_t close = line.find('}', i + 2);
    if (close == std::string::npos)
      throw ConfigError(path, number, "'${' without a closing '}'", kVariableFix);
    const std::string inside = line.substr(i + 2, close - i - 2);
    const std::size_t sep = inside.find(":-");
    const std::string name = inside.substr(0, sep);
    if (name.empty() || !name_start(name[0]) || !std::all_of(name.begin(), name.end(), name_char))
      throw ConfigError(path, number, "'${" + inside + "}' is not a variable name", kVariableFix);
    const char *value = std::getenv(name.c_str());
    ConfigVariable v{name, value ? value : "", value != nullptr, false, path, number};
    if (sep != std::string::npos && v.value.empty()) {
      v.value = inside.substr(sep + 2);
      v.from_default = true;
    } else if (!value) {
      throw ConfigError(path, number, "environment variable " + name + " is not set",
                        "set it for the run (export " + name +
                            "=...; mpiexec passes it to every rank), give a default with ${" +
                            name + ":-value}, or write $${" + name + "} for the literal text");
    }
    if (v.value.find_first_of("\n\r") != std::string::npos)
      throw ConfigError(path, number,
                        "the value of " + std::string(v.from_default ? "the default of " : "") +
                            "${" + name + "} contains a line break",
                        "a value is inserted into its line: set the variable to a one-line value");
    out += v.value;
    used.push_back(std::move(v));
    i = close;
  }
  return out;
}

ConfigSource read_config_source(const std::string &path, const std::string &from_file,
                                int from_line) {
  ConfigSource src;
  src.path = path;
  if (!from_file.empty())
    src.included_from = from_file + ":" + std::to_string(from_line);
  src.raw =
      from_file.empty() ? read_bounded(path, path, 0) : read_bounded(path, from_file, from_line);
  // Physical lines, keeping whether each ended in a newline.
  std::vector<std::string> lines;
  std::vector<bool> newline;
  for (std::size_t pos = 0; pos < src.raw.size();) {
    const std::size_t nl = src.raw.find('\n', pos);
    lines.push_back(src.raw.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
    newline.push_back(nl != std::string::npos);
    pos = nl == std::string::npos ? src.raw.size() : nl + 1;
  }
  for (std::size_t i = 0; i < lines.size();) {
    const int number = static_cast<int>(i) + 1;
    if (lines[i].find('\0') != std::string::npos)
      throw ConfigError(path, number, "a NUL byte in the line",
                        "remove it; the file may be binary or corrupted");
    // A logical line: the physical ones Dotconf would join with `\` continuations.
    std::string logical = lines[i];
    std::size_t last = i;
    while (continues(lines[last]) && newline[last]) {
      if (last + 1 >= lines.size())
        throw ConfigError(path, number, "the last line ends with \\ but no line follows",
                          "remove the trailing backslash");
      ++last;
      if (lines[last].find('\0') != std::string::npos)
        throw ConfigError(path, static_cast<int>(last) + 1, "a NUL byte in the line",
                          "remove it; the file may be binary or corrupted");
      logical = strip_continuation(logical) + lines[last];
      if (logical.size() > kMaxConfigLine)
        break;
    }
    // ${VAR} everywhere but in comments, before the length check (which is on what Dotconf reads).
    const std::size_t used_before = src.variables.size();
    if (logical.size() <= kMaxConfigLine) {
      const std::size_t first = logical.find_first_not_of(" \t\r\f\v");
      if (first != std::string::npos && logical[first] != '#')
        logical = expand_variables(logical, path, number, src.variables);
    }
    const bool expanded = src.variables.size() > used_before;
    if (logical.size() > kMaxConfigLine)
      throw ConfigError(path, number,
                        "the line is longer than " + std::to_string(kMaxConfigLine) + " bytes" +
                            (expanded ? " after ${VAR} expansion" : "") +
                            " (a longer line would be split and its tail read as a "
                            "directive)",
                        "shorten it; split a long list over several lines of the same "
                        "directive where the directive allows it");
    // The directive name, as Dotconf reads it: the first word, case-insensitive.
    std::size_t b = 0;
    while (b < logical.size() && space(logical[b]))
      ++b;
    std::size_t e = b;
    while (e < logical.size() && !space(logical[e]))
      ++e;
    const std::string name = lower(logical.substr(b, e - b));
    if (name == "includepath")
      throw ConfigError(path, number, "IncludePath is not supported",
                        "write Include paths relative to the including file's directory, or "
                        "absolute");
    if (name == "include")
      logical = logical.substr(0, b) + kIncludeMarker + logical.substr(e);
    if (!logical.empty() && logical.back() == '\\')
      logical += ' '; // never a continuation Dotconf would see
    src.sanitized += logical;
    src.sanitized += '\n';
    for (std::size_t k = i; k < last; ++k)
      src.sanitized += '\n'; // keep the line numbers of what follows
    i = last + 1;
  }
  return src;
}

} // namespace pio::harness
