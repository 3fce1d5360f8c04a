// Sweeps in the config (see sweep.hpp): checked as read, expanded after the whole config is read
// (block flags and hints take their global defaults first), validated per expanded block by the
// module plan like any other directive line.
#include "sweep.hpp"

#include <algorithm>
#include <cctype>

#include "directive_check.hpp"
#include "harness_directives.hpp"

#include "text.hpp"

namespace pio::harness {

namespace {

/// The most blocks one Sweep block may expand to: more is a typo, not an experiment.
constexpr size_t kMaxSweepBlocks = 4096;

const char *const kSweepHint =
    "Sweep takes a module directive, Collective, FileView, SyncWrites, Verify, TimingScope, "
    "StoneWall, Processes or Hint:<key>, then its values, e.g. Sweep BufferSizes 64K 1M, Sweep "
    "Hint:cb_buffer_size 1M 4M 16M, Sweep Collective on off, Sweep Processes 1 2 4";

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

/// True for "Hint:<key>" (any case), setting key.
bool hint_target(const std::string &name, std::string &key) {
  if (lower(name.substr(0, 5)) != "hint:")
    return false;
  key = name.substr(5);
  return true;
}

/// The harness block flags a Sweep may vary.
bool sweepable_flag(const std::string &name) {
  for (const char *f :
       {"collective", "fileview", "syncwrites", "verify", "timingscope", "stonewall"})
    if (lower(name) == f)
      return true;
  return false;
}

/// 4K..16M -> 4K 8K ... 16M; throws Error.
std::vector<std::string> size_range(const std::string &word, size_t dots) {
  const std::string hint = "write a range of sizes as <from>..<to>, e.g. 4K..16M (doubling)";
  std::int64_t from = 0, to = 0;
  try {
    from = parse_size(word.substr(0, dots));
    to = parse_size(word.substr(dots + 2));
  } catch (const Error &e) {
    throw Error("range '" + word + "': " + e.what(), hint);
  }
  if (from <= 0 || to < from)
    throw Error("range '" + word + "' is empty or starts at 0", hint);
  std::vector<std::string> out;
  for (std::int64_t v = from; v <= to; v *= 2) {
    out.push_back(format_size(v));
    if (v > to / 2)
      break;
  }
  return out;
}

/// One dimension of a sweep, ready to apply.
struct Dimension {
  enum class Kind { Flag, Hint, Module } kind = Kind::Module;
  std::string name; ///< as shown: the flag's declared name, Hint:<key>, the module directive
  std::string key;  ///< the hint key
  std::vector<std::string> values;
  const DirectiveLine *line = nullptr;
};

Dimension dimension(const DirectiveLine &sweep) {
  Dimension d;
  d.line = &sweep;
  d.name = sweep.args.at(0);
  d.values = sweep_values(std::vector<std::string>(sweep.args.begin() + 1, sweep.args.end()));
  if (hint_target(d.name, d.key)) {
    d.kind = Dimension::Kind::Hint;
    d.name = "Hint:" + d.key;
  } else if (sweepable_flag(d.name)) {
    d.kind = Dimension::Kind::Flag;
    d.name = find_harness_directive(d.name)->spec.name;
  }
  return d;
}

void apply(ModuleBlock &b, const Dimension &d, const std::string &value) {
  b.swept.emplace_back(d.name, value);
  switch (d.kind) {
  case Dimension::Kind::Hint:
    b.hints[d.key] = hint_value(value);
    return;
  case Dimension::Kind::Module:
    b.module_directives.push_back(DirectiveLine{d.name, {value}, d.line->file, d.line->line});
    return;
  case Dimension::Kind::Flag:
    break;
  }
  const std::string n = lower(d.name);
  if (n == "timingscope" || n == "stonewall") { // not flags: stored as the directive stores them
    BlockDraft draft;
    draft.block = std::move(b);
    find_harness_directive(n)->set_block(draft, {value}, d.line->file, d.line->line);
    b = std::move(draft.block);
    return;
  }
  const bool on = parse_flag(value);
  if (n == "collective")
    b.collective = on;
  else if (n == "fileview")
    b.file_view = on;
  else if (n == "syncwrites")
    b.sync_writes = on;
  else
    b.verify = on;
}

std::string where(const DirectiveLine &l) { return l.file + ":" + std::to_string(l.line); }

/// The block's sweep dimensions; throws ConfigError for a directive swept twice, or set and swept.
std::vector<Dimension> dimensions(const ModuleBlock &block) {
  std::vector<Dimension> dims;
  for (const auto &s : block.sweeps) {
    Dimension d;
    try {
      d = dimension(s);
    } catch (const Error &e) {
      throw ConfigError(s.file, s.line, e.what(), e.hint());
    }
    for (const auto &prev : dims)
      if (lower(prev.name) == lower(d.name))
        throw ConfigError(s.file, s.line,
                          d.name + " is swept twice (also at " + where(*prev.line) + ")",
                          "write all its values on one Sweep line");
    if (d.kind == Dimension::Kind::Module)
      for (const auto &l : block.module_directives)
        if (lower(l.name) == lower(d.name))
          throw ConfigError(s.file, s.line,
                            d.name + " is both set (at " + where(l) + ") and swept here",
                            "remove one of the two lines");
    dims.push_back(std::move(d));
  }
  return dims;
}

} // namespace

std::string hint_value(const std::string &value) {
  if (value.empty() || !std::isdigit(static_cast<unsigned char>(value[0])))
    return value;
  try {
    return std::to_string(parse_size(value));
  } catch (const Error &) {
    return value; // not a size: a hint value the MPI library judges
  }
}

std::vector<std::string> sweep_values(const std::vector<std::string> &words) {
  std::vector<std::string> out;
  for (const auto &w : words) {
    const auto dots = w.find("..");
    if (dots == std::string::npos) {
      out.push_back(w);
      continue;
    }
    const auto range = size_range(w, dots);
    out.insert(out.end(), range.begin(), range.end());
  }
  if (out.empty())
    throw Error("Sweep without values", kSweepHint);
  return out;
}

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

void check_sweep(const std::vector<std::string> &words) {
  if (words.empty())
    throw Error("Sweep without a directive name", kSweepHint);
  const std::string &name = words[0];
  // Dotconf passes at most 16 words and leaves the rest of the line in the 16th.
  if (words.size() >= 16)
    throw Error("Sweep takes at most 14 values on one line",
                "use a size range (4K..16M) or fewer values");
  if (lower(name) == "processes") {
    if (words.size() == 1)
      throw Error("Sweep without values", kSweepHint);
    return check_process_counts(std::vector<std::string>(words.begin() + 1, words.end()));
  }
  const auto values = sweep_values(std::vector<std::string>(words.begin() + 1, words.end()));
  std::string key;
  if (hint_target(name, key)) {
    if (key.empty())
      throw Error("Sweep Hint: without a hint key", kSweepHint);
    return;
  }
  const HarnessDirective *d = find_harness_directive(name);
  if (!d)
    return; // a module directive: checked with the module's spec
  if (!sweepable_flag(name))
    throw Error(d->spec.name + " cannot be swept", kSweepHint);
  for (const auto &v : values)
    check_directive(d->spec, {v});
}

void expand_sweeps(Config &config) {
  std::vector<ModuleBlock> out;
  for (auto &block : config.modules) {
    if (block.sweeps.empty()) {
      out.push_back(std::move(block));
      continue;
    }
    const auto dims = dimensions(block);
    size_t total = 1;
    for (const auto &d : dims) {
      total *= d.values.size();
      if (total > kMaxSweepBlocks)
        throw ConfigError(d.line->file, d.line->line,
                          "the Sweep lines of this block make more than " +
                              std::to_string(kMaxSweepBlocks) + " blocks",
                          "sweep fewer values, or split the experiment into several runs");
    }
    std::vector<size_t> at(dims.size(), 0);
    for (size_t n = 0; n < total; ++n) {
      ModuleBlock e = block;
      e.sweeps.clear();
      for (size_t i = 0; i < dims.size(); ++i)
        apply(e, dims[i], dims[i].values[at[i]]);
      out.push_back(std::move(e));
      for (size_t i = dims.size(); i-- > 0;) { // the last Sweep line varies fastest
        if (++at[i] < dims[i].values.size())
          break;
        at[i] = 0;
      }
    }
  }
  config.modules = std::move(out);
}

} // namespace pio::harness
