#pragma once
/// The parsed site config (thesis §3.2.3, Tables 3.1-3.3) as data: directive lines, the global
/// directives, the module blocks.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "config/config_source.hpp"
#include "pio/block_settings.hpp"
#include "pio/cache_mode.hpp"
#include "pio/timing_scope.hpp"
#include "pio/verify_mode.hpp"

namespace pio::harness {

/// One directive line as written: name, argument words, where.
struct DirectiveLine {
  std::string name;              ///< as written
  std::vector<std::string> args; ///< argument words (quotes removed)
  std::string file;              ///< file it came from (Include'd files keep their own name)
  int line = 0;                  ///< line in that file
};

/// Global directives (Table 3.1 and our extensions); its BlockSettings are the blocks' defaults.
/// The defaults here are the ones declared in the harness directives table
/// (harness_directives.cpp); a test keeps the two in step.
struct GlobalConfig : BlockSettings {
  std::string test_file = "pio-bench.testfile";  ///< TestFile
  bool show_averages = false;                    ///< ShowAverages
  bool report_open_time = false;                 ///< ReportOpenTime
  bool report_close_time = false;                ///< ReportCloseTime
  bool report_header_offset = false;             ///< ReportHeaderOffset
  std::vector<std::string> module_paths;         ///< ModulePath dir... (repeatable)
  std::string stage_modules;                     ///< StageModules dir (node-local copies)
  std::string results_file = "pio-results.json"; ///< ResultsFile (-r overrides)
  std::string csv_file;                          ///< CsvFile: one row per repetition ("" = no CSV)
  bool overwrite = false;  ///< Overwrite: allow an existing TestFile to be replaced
  bool keep_files = false; ///< KeepFiles: do not delete test files
  /// StepTimeout: seconds without progress before a rank exits (0 = off; -1 = not set: the
  /// watchdog's automatic default, see watchdog.hpp)
  double step_timeout = -1;
  /// SuiteTime: seconds the time-driven blocks share (0 = none; docs/guides/running.md,
  /// "site.conf")
  double suite_time = 0;
  bool show_all_tests = false; ///< ShowAllTests: every test's rows, even under Output::Figure
  int rounds = 1; ///< Rounds: the blocks run this many times, each round shuffled (plan/rounds)
  /// Every other global line (not a harness directive): a backend's option (ODirect,
  /// H5Alignment ...) for every block, checked against the backends' tables when the blocks are
  /// planned (plan/backend_plan.hpp), in file order.
  std::vector<DirectiveLine> backend_lines;
  /// Every line of each global directive as written (its name as the table spells it -> its
  /// lines, in order; an Included file keeps its own name): for messages naming file:line, and
  /// to refuse a global set twice to different values.
  std::map<std::string, std::vector<DirectiveLine>> written;
};

/// One <ap_module> ... </ap_module> block; its BlockSettings are the global ones overlaid by its
/// own lines.
struct ModuleBlock : BlockSettings {
  std::string file; ///< where the block opens
  int line = 0;
  std::string module_name;      ///< ModuleName (required)
  std::string module_name_file; ///< where ModuleName is written (an Included file keeps its name)
  int module_name_line = 0;
  long reps = 1;           ///< ModuleReps (1 to 1e6)
  double settle_time = 0;  ///< ModuleSettleTime seconds (0 to 86400)
  double suite_weight = 1; ///< SuiteWeight: this block's part of SuiteTime, relative to the others
  /// TimingScope: unit or phase (docs/reference/timing.md)
  TimingScope timing_scope = TimingScope::Unit;
  double stone_wall = 0;            ///< StoneWall seconds per phase (0 = off)
  bool stone_wall_wear_out = false; ///< StoneWallWearOut: IO500's stonewall (timing)
  bool sync_at_end = false;         ///< SyncAtEnd: one flush after a phase's last unit
  std::string test_file;            ///< TestFile override ("" = global)
  /// Where the block's harness settings come from: the global lines, then the block's own, then
  /// its swept values (a Hint:<key> sweep as a Hint line); the last line of a name is in effect.
  std::vector<DirectiveLine> harness_lines;
  /// Every other line: the module's own directives, and its backend's options (the plan splits
  /// them by the tables of the two)
  std::vector<DirectiveLine> module_directives;
  std::string label;      ///< Label ("" = derived, see block_label.hpp)
  std::string label_file; ///< where Label is written
  int label_line = 0;     ///< where Label is written
  /// FilesFrom as written (name empty: none): the Label of the earlier block whose files this
  /// block works on (plan/shared_files.hpp).
  DirectiveLine files_from;
  /// Processes (or Sweep Processes) as written: the counts of ranks the block runs on (name
  /// empty: none; the block runs on every rank of the run).
  DirectiveLine processes_line;
  /// The ranks this block runs on, the first `processes` of the run (0 = all of them); set per
  /// expanded block by expand_processes (sweep.hpp).
  int processes = 0;
  std::vector<DirectiveLine> sweeps; ///< Sweep lines (args: name, values), before expand_sweeps
  /// After expand_sweeps: this block's swept settings (name as shown, value as written).
  std::vector<std::pair<std::string, std::string>> swept;
  /// ModuleReps auto: repeat each test until the median's interval is within reps_target of the
  /// median or reps_time_cap seconds have passed (reps: the most; docs/reference/results.md).
  bool reps_auto = false;
  double reps_target = 0.05; ///< ModuleReps auto: the interval's half-width sought (+-5 %)
  double reps_time_cap = 60; ///< ModuleReps auto: seconds per test at most
  /// ReadShift: rank r reads what rank r + read_shift wrote in the FilesFrom block (0: off).
  int read_shift = 0;
};

/// The whole config.
struct Config {
  std::string path;                  ///< main config file
  std::string text;                  ///< its text, as read (for the results document)
  std::vector<ConfigSource> sources; ///< every file read (main first), with its ${VAR}s
  GlobalConfig global;
  std::vector<ModuleBlock> modules; ///< in file order
  /// Notes for the console (rank 0) from expanding the config for a run's size: Processes
  /// counts larger than the run, skipped (expand_processes).
  std::vector<std::string> notes;
};

} // namespace pio::harness
