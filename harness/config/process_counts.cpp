// Processes lines (process_counts.hpp): counts of ranks as written, and the blocks they expand to.
#include "config/process_counts.hpp"

#include <algorithm>
#include <cctype>

#include "config/config_error.hpp"
#include "config/text.hpp"

namespace pio::harness {

namespace {

const char *const kProcessesHint =
    "write counts of ranks (at least 1), all, or a doubling range such as 1..all or 2..16, e.g. "
    "Processes 1 2 4 all";

/// A process count as written: a positive integer, or 0 for `all`. Throws Error.
int process_count(const std::string &word) {
  if (lower(word) == "all")
    return 0;
  const bool digits =
      !word.empty() && word.size() <= 9 &&
      std::all_of(word.begin(), word.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!digits || std::stoi(word) < 1)
    throw Error("Processes: '" + word + "' is not a count of ranks", kProcessesHint);
  return std::stoi(word);
}

/// The counts one word of a Processes line stands for in a run of run_size ranks (`all` is
/// run_size; run_size 0: only checking the word, `all` stays 0); throws Error.
std::vector<int> process_word(const std::string &word, int run_size) {
  const auto dots = word.find("..");
  if (dots == std::string::npos) {
    const int n = process_count(word);
    return {n == 0 ? run_size : n};
  }
  const int from = process_count(word.substr(0, dots));
  const int to = process_count(word.substr(dots + 2));
  if (from == 0)
    throw Error("Processes: range '" + word + "' starts at all", kProcessesHint);
  if (to != 0 && to < from)
    throw Error("Processes: range '" + word + "' is empty", kProcessesHint);
  if (run_size == 0)
    return {from, to};
  // As the sizes of a Sweep: doubling, up to the end; ..all ends with the run's size, as IMB's
  // -npmin series (npmin, 2 npmin, 4 npmin ... and the run's size) does.
  if (to == 0 && from > run_size)
    return {from}; // 4..all in a run of 2: nothing of the range fits
  const long last = to == 0 ? run_size : to;
  std::vector<int> out;
  for (long v = from; v <= last; v *= 2)
    out.push_back(static_cast<int>(v));
  if (to == 0 && (out.empty() || out.back() != run_size))
    out.push_back(run_size);
  return out;
}

} // namespace

void check_process_counts(const std::vector<std::string> &words) {
  if (words.empty())
    throw Error("Processes without a count", kProcessesHint);
  for (const auto &w : words)
    process_word(w, 0);
}

std::vector<int> process_counts(const std::vector<std::string> &words, int run_size,
                                std::vector<int> &skipped) {
  std::vector<int> out;
  for (const auto &w : words)
    for (int n : process_word(w, run_size)) {
      if (n > run_size) {
        if (std::find(skipped.begin(), skipped.end(), n) == skipped.end())
          skipped.push_back(n);
        continue;
      }
      if (std::find(out.begin(), out.end(), n) == out.end())
        out.push_back(n);
    }
  return out;
}

void expand_processes(Config &config, int run_size) {
  std::vector<ModuleBlock> out;
  auto &in = config.modules;
  for (size_t first = 0; first < in.size();) {
    // The blocks one <ap_module> expanded to (by its Sweep lines): they share its file:line.
    size_t end = first + 1;
    while (end < in.size() && in[end].file == in[first].file && in[end].line == in[first].line)
      ++end;
    const DirectiveLine l = in[first].processes_line;
    if (l.name.empty()) {
      for (size_t i = first; i < end; ++i) {
        in[i].processes = run_size;
        out.push_back(std::move(in[i]));
      }
      first = end;
      continue;
    }
    std::vector<int> skipped;
    std::vector<int> counts;
    try {
      counts = process_counts(l.args, run_size, skipped);
    } catch (const Error &e) {
      throw ConfigError(l.file, l.line, e.what(), e.hint());
    }
    std::string list;
    for (int n : skipped)
      list += (list.empty() ? "" : " ") + std::to_string(n);
    const std::string has =
        "the run has " + std::to_string(run_size) + " process" + (run_size == 1 ? "" : "es");
    if (counts.empty())
      throw ConfigError(l.file, l.line,
                        "Processes: " + has + ", fewer than every count asked for (" + list + ")",
                        "run with mpiexec -n " + std::to_string(skipped.front()) +
                            " or more, or add a count the run has (all, or a range such as "
                            "1..all)");
    if (!skipped.empty())
      config.notes.push_back(l.file + ":" + std::to_string(l.line) + ": Processes " + list +
                             " skipped: " + has);
    // One written count is a setting; several (or a range) a sweep, whatever the run keeps.
    const bool swept = l.args.size() > 1 || l.args[0].find("..") != std::string::npos;
    for (int n : counts) // the slowest dimension: every other combination at one count first
      for (size_t i = first; i < end; ++i) {
        ModuleBlock e = in[i];
        e.processes = n;
        if (swept)
          e.swept.insert(e.swept.begin(), {"Processes", std::to_string(n)});
        out.push_back(std::move(e));
      }
    first = end;
  }
  config.modules = std::move(out);
}

} // namespace pio::harness
