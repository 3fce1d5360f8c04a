// The harness directives table (thesis §3.2.3, Tables 3.1 and 3.2, plus our extensions).
// Values reach the setters already checked against the spec (check_directive), so the setters
// only convert and store.
#include "config/harness_directives.hpp"

#include "config/directive_check.hpp"
#include "config/module_reps.hpp"
#include "config/process_counts.hpp"
#include "config/tune_hook.hpp"
#include "config/values.hpp"

#include <algorithm>
#include <cctype>

#include "config/text.hpp"

namespace pio::harness {

namespace {

using Words = std::vector<std::string>;
using T = DirectiveType;

/// Hint takes exactly a key and a value (a DirectiveSpec cannot say "exactly two").
void add_hint(std::map<std::string, std::string> &into, const Words &w) {
  if (w.size() != 2)
    throw Error("Hint takes a key and a value, got " + std::to_string(w.size()) + " word" +
                    (w.size() == 1 ? "" : "s"),
                "write: Hint <key> <value>, e.g. Hint cb_buffer_size 16777216");
  into[w[0]] = hint_value(w[1]); // sizes as bytes: Hint cb_buffer_size 16M
}

/// Processes, or Sweep Processes: checked, kept as written until the run's size is known.
void set_processes(ModuleBlock &b, const Words &w, const std::string &file, int line) {
  check_process_counts(w);
  const DirectiveLine &prev = b.processes_line;
  if (!prev.name.empty())
    throw Error("Processes is given twice in this block (also at " + prev.file + ":" +
                    std::to_string(prev.line) + ")",
                "write all the counts on one line, e.g. Processes 1 2 4 all");
  b.processes_line = DirectiveLine{"Processes", w, file, line};
}

/// Stores an on/off value in a GlobalConfig field.
template <bool GlobalConfig::*field> void global_flag(GlobalConfig &g, const Words &w) {
  g.*field = parse_flag(w[0]);
}

/// Stores an on/off value in a block setting (the global default, or a block's own).
template <bool BlockSettings::*field> void setting_flag(BlockSettings &s, const Words &w) {
  s.*field = parse_flag(w[0]);
}

/// A row for a setting every block takes from the global lines unless it writes its own.
HarnessDirective block_setting(DirectiveSpec spec, const char *origin, std::string syntax,
                               void (*set)(BlockSettings &, const Words &),
                               bool sweepable = false) {
  HarnessDirective d{std::move(spec), DirectiveScope::Both, origin, std::move(syntax)};
  d.set_setting = set;
  d.sweepable = sweepable;
  return d;
}

/// The names of the rows so far that may be swept and tuned: "Collective, FileView, ...".
std::string sweepable_in(const std::vector<HarnessDirective> &rows) {
  std::string out;
  for (const auto &d : rows)
    if (d.sweepable)
      out += (out.empty() ? "" : ", ") + d.spec.name;
  return out;
}

/// The mode a Verify word names; throws Error for another word (a Sweep value, say).
VerifyMode verify_of(const std::string &word) {
  if (const auto m = verify_mode(word))
    return *m;
  throw Error("Verify '" + word + "' is not one of off, on, timed",
              "write Verify off, on or timed (timed: checks inside the timed unit)");
}

/// A checked Interface word as the plan looks it up (the backends' words are lower case).
std::string interface_of(const std::string &word) { return lower(word); }

/// The mode a CacheMode word names; throws Error for another word (a Sweep value, say).
CacheMode cache_mode_of(const std::string &word) {
  if (const auto m = cache_mode(word))
    return *m;
  throw Error("CacheMode '" + word + "' is not one of keep, drop, direct",
              "write CacheMode keep, drop or direct");
}

/// The scope a TimingScope word names; throws Error for another word (a Sweep value, say).
TimingScope timing_scope_of(const std::string &word) {
  if (const auto s = timing_scope(word))
    return *s;
  throw Error("TimingScope '" + word + "' is not one of unit, phase",
              "write TimingScope unit or TimingScope phase");
}

const char *const kT31 = "thesis Table 3.1";
const char *const kT32 = "thesis Table 3.2";
const char *const kExt = "extension";

/// The rows of pio-tune's search (Tune, TuneHook) and of shuffled rounds (Rounds). A Tune line is
/// kept as written; the plan checks its form and values against the tuned directive
/// (plan/tune_space.hpp), which needs the whole table, this one included.
std::vector<HarnessDirective> tune_directives(const std::string &tunable) {
  using S = DirectiveScope;
  using T = DirectiveType;
  std::vector<HarnessDirective> t;
  t.push_back(
      {{"Tune", T::Texts, "",
        "a setting pio-tune may vary: <name> <value>... (choices) or <name> <from>..<to> "
        "[linear] (sizes double, integers on a log scale); <name> is a module directive (in "
        "its block), " +
            tunable +
            ", a backend's option, Hint:<key> or Hook:<name> (a value for TuneHook); "
            "outside a block: every block; each value is checked as the directive checks it; "
            "ignored by an ordinary run (docs/guides/tuning.md)"},
       S::Both,
       "extension",
       "<name> <value>...",
       [](GlobalConfig &, const Words &) {},
       [](ModuleBlock &, const Words &, const std::string &, int) {}});
  t.back().adds_up = true;
  t.push_back({{"TuneHook", T::Text, "",
                "a command pio-tune runs before each trial, {name} replaced by the trial's value "
                "of Tune <name> (Hook:<name> as {name}), {trial} by its number; its output and "
                "exit status are kept, and a failing hook fails the trial (repeatable; ignored "
                "by an ordinary run; docs/guides/tuning.md)"},
               S::Global,
               "extension",
               "\"<command>\"",
               [](GlobalConfig &, const Words &w) { hook_placeholders(w.at(0)); }});
  t.back().adds_up = true;
  t.push_back(
      {DirectiveSpec{"Rounds", T::Integer, "1",
                     "run the config's blocks this many times, each round in a new "
                     "shuffled order, so that drift on a shared machine does not line up "
                     "with a block's setting; the results keep each block's round and "
                     "the tools pool its repetitions (docs/reference/configuration.md, \"Rounds\")"}
           .between(1, 1000),
       S::Global, "extension", "<n>",
       [](GlobalConfig &g, const Words &w) { g.rounds = static_cast<int>(parse_integer(w[0])); }});
  return t;
}

std::vector<HarnessDirective> make_table() {
  using S = DirectiveScope;
  std::vector<HarnessDirective> t;
  t.push_back(
      {{"TestFile", T::Text, "pio-bench.testfile",
        "the file under test (PATH.RANK for file-per-process tests); in a block, that "
        "block's file"},
       S::Both,
       kT31,
       "<path>",
       [](GlobalConfig &g, const Words &w) { g.test_file = w[0]; },
       [](ModuleBlock &b, const Words &w, const std::string &, int) { b.test_file = w[0]; }});
  t.push_back({{"ShowAverages", T::Flag, "off",
                "one row per test with the spread over repetitions instead of one row per "
                "repetition"},
               S::Global,
               kT31,
               "",
               global_flag<&GlobalConfig::show_averages>});
  t.push_back(
      {{"ReportOpenTime", T::Flag, "off", "show the open time column (always in the results)"},
       S::Global,
       kT31,
       "",
       global_flag<&GlobalConfig::report_open_time>});
  t.push_back(
      {{"ReportCloseTime", T::Flag, "off", "show the close time column (always in the results)"},
       S::Global,
       kT31,
       "",
       global_flag<&GlobalConfig::report_close_time>});
  t.push_back({{"ReportHeaderOffset", T::Flag, "off", "show the header offset column"},
               S::Global,
               kT31,
               "",
               global_flag<&GlobalConfig::report_header_offset>});
  t.push_back(
      block_setting({"SyncWrites", T::Flag, "off",
                     "flush (MPI_File_sync; posix: fsync) every write inside the timed unit"},
                    kT31, "", setting_flag<&BlockSettings::sync_writes>, true));
  t.push_back({{"ModulePath", T::Texts, "",
                "directories to search for module .so files (repeatable; relative to the config "
                "file); searched after -M, before $PIO_MODULE_PATH and the install directory"},
               S::Global,
               kExt,
               "<dir>...",
               [](GlobalConfig &g, const Words &w) {
                 g.module_paths.insert(g.module_paths.end(), w.begin(), w.end());
               }});
  t.back().adds_up = true;
  t.push_back({{"StageModules", T::Text, "",
                "node-local directory (e.g. /tmp or /dev/shm, existing on every node) where each "
                "node's first rank writes the module objects the run needs, read once by rank 0 "
                "and broadcast, so that the node's ranks open them from there, not from the "
                "shared file system; the copies and their directory are removed at exit "
                "(docs/measurements/performance.md, \"Start-up\"); default: off"},
               S::Global,
               kExt,
               "<dir>",
               [](GlobalConfig &g, const Words &w) { g.stage_modules = w[0]; }});
  t.push_back(
      {{"ResultsFile", T::Text, "pio-results.json", "the JSON results document (-r overrides)"},
       S::Global,
       kExt,
       "<path>",
       [](GlobalConfig &g, const Words &w) { g.results_file = w[0]; }});
  t.push_back({{"CsvFile", T::Text, "",
                "a CSV file with one row per repetition, every parameter a column (none: no CSV)"},
               S::Global,
               kExt,
               "<path>",
               [](GlobalConfig &g, const Words &w) { g.csv_file = w[0]; }});
  t.push_back(block_setting(
      {"Verify", T::Text, to_string(VerifyMode::Off),
       "stamp written data (rank, offset) and check it after writes and on reads: on = "
       "in the untimed methods; timed = inside the timed work unit (it stamps before a "
       "write, checks after a read, as IOR -R does; pattern modules and metadata's "
       "read only; docs/reference/timing.md)",
       verify_mode_words()},
      kExt, "<mode>", [](BlockSettings &s, const Words &w) { s.verify = verify_of(w[0]); }, true));
  t.push_back(block_setting({"Collective", T::Flag, "off",
                             "collective calls (MPI-IO's _all variants; posix runs them "
                             "independently)"},
                            kExt, "", setting_flag<&BlockSettings::collective>, true));
  t.push_back(
      block_setting({"FileView", T::Flag, "on",
                     "describe accesses with an MPI file view (off: one explicit-offset call per "
                     "contiguous piece); on a backend with file views (capability file_views: "
                     "mpiio), the others place each unit by its extents"},
                    kExt, "", setting_flag<&BlockSettings::file_view>, true));
  t.push_back(block_setting(
      {"CacheMode", T::Text, to_string(CacheMode::Keep),
       "the page cache before every read phase (its residency is measured and recorded "
       "either way): keep = as the writes left it; drop = flushed and evicted from the "
       "ranks' file ranges first (fsync + posix_fadvise DONTNEED, untimed); direct = "
       "O_DIRECT (a backend with capability o_direct, posix, on a file system with direct "
       "I/O; refused elsewhere) "
       "(docs/reference/timing.md, \"The page cache\")",
       cache_mode_words()},
      kExt, "<mode>", [](BlockSettings &s, const Words &w) { s.cache_mode = cache_mode_of(w[0]); },
      true));
  t.push_back(block_setting(
      {"Interface", T::Text, "mpiio",
       "the I/O backend the block's test files are opened and transferred through; its "
       "options are block directives too (mpiio, posix and hdf5 ship with pio-bench; "
       "pio-harness --list-interfaces lists those found, their options and "
       "capabilities; docs/reference/interfaces.md)"},
      kExt, "<interface>",
      [](BlockSettings &s, const Words &w) { s.interface = interface_of(w[0]); }, true));
  t.push_back({{"Overwrite", T::Flag, "off",
                "allow an existing TestFile to be written (it is never deleted) and an existing "
                "results file to be replaced"},
               S::Global,
               kExt,
               "",
               global_flag<&GlobalConfig::overwrite>});
  t.push_back({{"KeepFiles", T::Flag, "off", "keep the test files this run created"},
               S::Global,
               kExt,
               "",
               global_flag<&GlobalConfig::keep_files>});
  t.push_back({DirectiveSpec{"StepTimeout", T::Real, "",
                             "seconds a rank may go without progress before it says where it is "
                             "stuck and exits, so that mpiexec ends the run instead of hanging; "
                             "not set: 600 s, raised to 10 times the slowest step seen so far; "
                             "0 = off"}
                   .between(0, 86400),
               S::Global, kExt, "<seconds>",
               [](GlobalConfig &g, const Words &w) { g.step_timeout = parse_real(w[0]); }});
  t.push_back(
      {DirectiveSpec{"SuiteTime", T::Real, "0",
                     "seconds the time-driven blocks share (modules with a time setting, "
                     "b_eff_io's ScheduledTime): each block that does not set its own "
                     "gets SuiteTime x its SuiteWeight / the sum of their weights, less "
                     "what blocks that set their own time take; the other blocks cost "
                     "what their work costs (docs/guides/running.md, \"site.conf\"); 0 = off"}
           .between(0, 1e7),
       S::Global, kExt, "<seconds>",
       [](GlobalConfig &g, const Words &w) { g.suite_time = parse_real(w[0]); }});
  t.push_back({{"ShowAllTests", T::Flag, "off",
                "print every test's rows on the console, also for modules whose figure "
                "summarises their tests (b_eff); the results and CSV always hold them"},
               S::Global,
               kExt,
               "",
               global_flag<&GlobalConfig::show_all_tests>});
  t.push_back(block_setting(
      {"Hint", T::Texts, "",
       "an MPI-IO hint <key> <value> for every test (repeatable; a size such as 16M is "
       "passed in bytes; recorded with the hints in effect after open)"},
      kExt, "<key> <value>", [](BlockSettings &s, const Words &w) { add_hint(s.hints, w); }));
  t.back().adds_up = true;
  t.push_back({{"Include", T::Text, "",
                "read another config file here (relative to the including file's directory)"},
               S::Global,
               kExt,
               "<file>"}); // read by Dotconf itself
  t.push_back({{"ModuleName", T::Text, "",
                "the module's name or title (required); \"Title (mode)\" also sets its Mode"},
               S::Block,
               kT32,
               "<name>",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &file, int line) {
                 b.module_name = w[0];
                 b.module_name_file = file;
                 b.module_name_line = line;
               }});
  t.push_back({{"ModuleReps", T::Texts, "1",
                "repetitions of every test (1 to 1000000); auto [T%] [S]: repeat until the 95 % "
                "interval of the median is within +-T % (default 5 %) or S seconds (default 60) "
                "have passed, at least 6 and at most 1000 times (docs/reference/results.md, "
                "\"Steadiness\")"},
               S::Block,
               kT32,
               "<n> or auto [<T>%] [<S>]",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &, int) {
                 const RepsSetting r = parse_module_reps(w);
                 b.reps = r.reps;
                 b.reps_auto = r.automatic;
                 b.reps_target = r.target;
                 b.reps_time_cap = r.time_cap_s;
               }});
  t.push_back(block_setting(
      DirectiveSpec{"WarmUpReps", T::Integer, "0",
                    "repetitions of every test run first, on the same file, and not "
                    "recorded, so the recorded ones do not pay for first use (a new "
                    "file's blocks, the connections): fio's ramp_time, IMB's warm-up "
                    "(docs/reference/results.md, \"Flags\")"}
          .between(0, 1000),
      kExt, "<n>", [](BlockSettings &s, const Words &w) { s.warm_up_reps = parse_integer(w[0]); }));
  t.push_back(
      {DirectiveSpec{"ModuleSettleTime", T::Real, "0", "seconds to wait after the block's tests"}
           .between(0, 86400),
       S::Block, kT32, "<seconds>", nullptr,
       [](ModuleBlock &b, const Words &w, const std::string &, int) {
         b.settle_time = parse_real(w[0]);
       }});
  t.push_back({DirectiveSpec{"SuiteWeight", T::Real, "1",
                             "this block's part of SuiteTime relative to the other time-driven "
                             "blocks' (2 = twice the share of a block at 1)"}
                   .between(0.001, 1e6),
               S::Block, kExt, "<weight>", nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &, int) {
                 b.suite_weight = parse_real(w[0]);
               }});
  t.push_back({{"TimingScope", T::Text, to_string(TimingScope::Unit),
                "what the barriers bracket: unit = B1 and B2 around every work unit (thesis "
                "§3.2.1); phase = one B1 before the first unit and one B2 after the last, as IOR "
                "and IMB time (docs/reference/timing.md)",
                timing_scope_words()},
               S::Block,
               kExt,
               "<scope>",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &, int) {
                 b.timing_scope = timing_scope_of(w[0]);
               }});
  t.back().sweepable = true;
  t.push_back({DirectiveSpec{"StoneWall", T::Real, "0",
                             "stonewalling: every count-driven phase of the block runs work units "
                             "until this many seconds (at most its declared units), all ranks "
                             "stopping on rank 0's decision; 0 = off (docs/reference/timing.md)"}
                   .between(0, 86400),
               S::Block, kExt, "<seconds>", nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &, int) {
                 b.stone_wall = parse_real(w[0]);
               }});
  t.back().sweepable = true;
  t.push_back({{"StoneWallWearOut", T::Flag, "off",
                "IO500's stonewall (IOR's stoneWallingWearOut): under StoneWall the units run back "
                "to back in one window (as TimingScope phase), rank 0 stops at the deadline, then "
                "every rank completes the largest count any rank reached; the stonewall and "
                "wear-out times are recorded (docs/reference/timing.md)"},
               S::Block,
               kExt,
               "",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &, int) {
                 b.stone_wall_wear_out = parse_flag(w[0]);
               }});
  t.push_back({{"SyncAtEnd", T::Flag, "off",
                "flush the file once after a phase's last unit, inside the timed window, as "
                "IOR -e does (fsync before close); needs TimingScope phase or StoneWallWearOut "
                "(docs/reference/timing.md)"},
               S::Block,
               kExt,
               "",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &, int) {
                 b.sync_at_end = parse_flag(w[0]);
               }});
  t.push_back({{"Label", T::Text, "",
                "the block's name in the results and on the console (unique in a run); without "
                "it: the module, its mode, its swept settings and the harness settings it sets "
                "away from their defaults (never other blocks')"},
               S::Block,
               kExt,
               "<text>",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &file, int line) {
                 b.label = w[0];
                 b.label_file = file;
                 b.label_line = line;
               }});
  t.push_back({{"FilesFrom", T::Text, "",
                "work on the test files and directories the block with this Label made earlier "
                "in the run (IOR -E, IO500's read phases): no untimed preparing, each phase capped "
                "at the units that block's same test completed; the harness keeps the files from "
                "block to block and removes them after the chain's last block "
                "(docs/reference/configuration.md, "
                "\"Blocks that share files\")"},
               S::Block,
               kExt,
               "<label>",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &file, int line) {
                 b.files_from = DirectiveLine{"FilesFrom", w, file, line};
               }});
  t.push_back({DirectiveSpec{"ReadShift", T::Integer, "0",
                             "with FilesFrom: rank r reads what rank r + N (mod the ranks) wrote "
                             "in the earlier block, so on many nodes a read misses the writer's "
                             "page cache (IOR -C -Q: N = ranks per node x Q); 0 = off"}
                   .between(0, 1e6),
               S::Block, kExt, "<n>", nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &, int) {
                 b.read_shift = static_cast<int>(parse_integer(w[0]));
               }});
  t.push_back({{"Processes", T::Texts, "",
                "run the block (every test, init to cleanup) on the first n ranks of the run, the "
                "others idle; several counts run it once per count (as Sweep Processes); all = "
                "every rank; a doubling range 1..all is 1, 2, 4 ... and all; counts above the "
                "run's size are skipped with a note"},
               S::Block,
               kExt,
               "<n|all>...",
               nullptr,
               [](ModuleBlock &b, const Words &w, const std::string &file, int line) {
                 set_processes(b, w, file, line);
               }});
  t.push_back(
      {{"Sweep", T::Texts, "",
        "run the block once per value (repeatable: every combination); <name> is a "
        "module directive, " +
            sweepable_in(t) +
            ", a backend's option, Processes or Hint:<key>; values "
            "separated by spaces or commas (Hint values by spaces); sizes also as a doubling "
            "range 4K..16M"},
       S::Block,
       kExt,
       "<name> <value>...",
       nullptr,
       [](ModuleBlock &b, const Words &w, const std::string &file, int line) {
         check_sweep(w);
         if (lower(w[0]) == "processes") // the rank counts: expanded for the run's size
           return set_processes(b, Words(w.begin() + 1, w.end()), file, line);
         b.sweeps.push_back(DirectiveLine{"Sweep", w, file, line});
       }});
  for (auto &d : tune_directives(sweepable_in(t))) // Tune, TuneHook, Rounds
    t.push_back(std::move(d));
  return t;
}

} // namespace

const std::vector<HarnessDirective> &harness_directives() {
  static const std::vector<HarnessDirective> table = make_table();
  return table;
}

const HarnessDirective *find_harness_directive(const std::string &name) {
  const std::string n = lower(name);
  for (const auto &d : harness_directives())
    if (lower(d.spec.name) == n)
      return &d;
  return nullptr;
}

bool allowed_in_block(DirectiveScope scope) { return scope != DirectiveScope::Global; }

bool sweepable(const std::string &name) {
  const HarnessDirective *d = find_harness_directive(name);
  return d && d->sweepable;
}

std::string sweepable_names() { return sweepable_in(harness_directives()); }

std::string sweep_hint() {
  return "Sweep takes a module directive, " + sweepable_names() +
         ", a backend's option (pio-harness --list-interfaces), Processes or Hint:<key>, then "
         "its values, e.g. Sweep BufferSizes 64K 1M, Sweep Hint:cb_buffer_size 1M 4M 16M, "
         "Sweep Collective on off, Sweep Interface mpiio,posix, Sweep Processes 1 2 4";
}

void set_in_global(const HarnessDirective &d, GlobalConfig &g,
                   const std::vector<std::string> &words) {
  if (d.set_setting)
    d.set_setting(g, words);
  else if (d.set_global)
    d.set_global(g, words);
}

void set_in_block(const HarnessDirective &d, ModuleBlock &b, const std::vector<std::string> &words,
                  const std::string &file, int line) {
  if (d.set_setting)
    d.set_setting(b, words);
  else if (d.set_block)
    d.set_block(b, words, file, line);
}

std::string harness_directive_names(bool in_block) {
  std::string out;
  auto add = [&](DirectiveScope scope) {
    for (const auto &d : harness_directives())
      if (d.scope == scope)
        out += (out.empty() ? "" : ", ") + d.spec.name;
  };
  if (in_block) {
    add(DirectiveScope::Block);
    add(DirectiveScope::Both);
  } else {
    for (const auto &d : harness_directives())
      if (d.scope != DirectiveScope::Block)
        out += (out.empty() ? "" : ", ") + d.spec.name;
  }
  return out;
}

void check_sweep(const std::vector<std::string> &words) {
  if (words.empty())
    throw Error("Sweep without a directive name", sweep_hint());
  const std::string &name = words[0];
  // Dotconf passes at most 16 words and leaves the rest of the line in the 16th.
  if (words.size() >= 16)
    throw Error("Sweep takes at most 14 values on one line",
                "use a size range (4K..16M) or fewer values");
  if (lower(name) == "processes") {
    if (words.size() == 1)
      throw Error("Sweep without values", sweep_hint());
    return check_process_counts(std::vector<std::string>(words.begin() + 1, words.end()));
  }
  std::string key;
  const bool hint = hint_target(name, key);
  const auto values = sweep_values(std::vector<std::string>(words.begin() + 1, words.end()), !hint);
  if (hint) {
    if (key.empty())
      throw Error("Sweep Hint: without a hint key", sweep_hint());
    return;
  }
  const HarnessDirective *d = find_harness_directive(name);
  if (!d)
    return; // a module directive: checked with the module's spec
  if (!d->sweepable)
    throw Error(d->spec.name + " cannot be swept", sweep_hint());
  for (const auto &v : values)
    check_directive(d->spec, {v});
}

} // namespace pio::harness
