// The run's TestFiles checked before any I/O (file_check.hpp).
#include "plan/file_check.hpp"

#include <limits.h>
#include <stdlib.h>

#include <vector>

#include "config/config_error.hpp"

namespace pio::harness {

namespace {

/// Where a global directive was written ("file:line"), or nothing if it has its default.
const DirectiveLine *written(const Config &config, const std::string &name) {
  const auto it = config.global.written.find(name);
  return it == config.global.written.end() || it->second.empty() ? nullptr : &it->second.back();
}

/// A path as the file system names it: its directory resolved (links, "..", relative), so that
/// two spellings of one file compare equal; the path itself if its directory does not exist.
std::string resolved(const std::string &path) {
  const auto slash = path.find_last_of('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  char buf[PATH_MAX];
  if (!::realpath(dir.c_str(), buf))
    return path;
  return std::string(buf) + "/" + path.substr(slash == std::string::npos ? 0 : slash + 1);
}

/// A TestFile and the line that names it (line 0: its default).
struct NamedFile {
  std::string path, file;
  int line;
};

/// One output file of the run, with how it was named.
struct Output {
  std::string path;
  const char *directive; ///< ResultsFile or CsvFile
  const char *option;    ///< the command line's way to give it
  bool from_option;
  const DirectiveLine *at; ///< its config line, or nullptr
};

/// Refuses an output file that is also the TestFile t.
void check_apart(const NamedFile &t, const Output &o) {
  if (o.path.empty() || resolved(o.path) != resolved(t.path))
    return;
  const std::string what = std::string(o.directive) + " " + o.path +
                           (o.from_option ? std::string(" (given with ") + o.option + ")"
                            : o.at ? " (" + o.at->file + ":" + std::to_string(o.at->line) + ")"
                                   : std::string()) +
                           " is also the TestFile " + t.path +
                           (t.line == 0 ? " (its default)" : "") +
                           ": the results would be written into the test file";
  // Located at the TestFile line, or at the output's own line for the default TestFile.
  throw ConfigError(t.line > 0 || !o.at ? t.file : o.at->file,
                    t.line > 0 ? t.line
                    : o.at     ? o.at->line
                               : 1,
                    what, std::string("name different files for ") + o.directive + " and TestFile");
}

} // namespace

void check_test_files(const Config &c, const OutputFiles &outputs, OwnedFiles &probe,
                      std::ostream *note) {
  std::vector<NamedFile> tests;
  const DirectiveLine *global = written(c, "TestFile");
  tests.push_back({c.global.test_file, global ? global->file : c.path, global ? global->line : 0});
  for (const auto &b : c.modules)
    if (!b.test_file.empty())
      tests.push_back({b.test_file, b.file, b.line});
  const Output results{outputs.results, "ResultsFile", "--results", outputs.results_from_option,
                       written(c, "ResultsFile")};
  const Output csv{outputs.csv, "CsvFile", "-o csv=", outputs.csv_from_option,
                   written(c, "CsvFile")};
  for (const auto &t : tests) {
    check_apart(t, results);
    check_apart(t, csv);
    try {
      probe.check(t.path, note);
    } catch (const ConfigError &) {
      throw;
    } catch (const Error &e) {
      if (t.line == 0) // the default TestFile: no line to name
        throw Error(std::string(e.what()) + " (TestFile's default)", e.hint());
      throw ConfigError(t.file, t.line, e.what(), e.hint());
    }
  }
}

} // namespace pio::harness
