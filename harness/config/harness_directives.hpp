#pragma once
/// The harness's own directives (thesis Tables 3.1 and 3.2, and our extensions) in one table:
/// it drives their parsing and validation, their error messages, --list-modules and the
/// reference table in docs/reference/configuration.md.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config/config_model.hpp"
#include "pio/directive.hpp"

namespace pio::harness {

/// Where a harness directive may be written.
enum class DirectiveScope {
  Global, ///< outside any <ap_module> block
  Block,  ///< inside an <ap_module> block
  Both,   ///< either: the block's value overrides the global one for that block
};

/// One harness directive: its spec (type, default, help, limits), where it may be written,
/// where it comes from, and how a checked value is stored.
struct HarnessDirective {
  DirectiveSpec spec;   ///< type, default (applied before the config is read), help, limits
  DirectiveScope scope; ///< where it may be written
  std::string origin;   ///< "thesis Table 3.1", "thesis Table 3.2" or "extension"
  std::string syntax;   ///< the value as the docs show it, e.g. "<path>" ("" for flags)
  /// Stores checked words in the global config (nullptr: not a global directive, a block
  /// setting (set_setting), or read by Dotconf itself, as Include is). May throw pio::Error for a
  /// rule the spec cannot express.
  void (*set_global)(GlobalConfig &, const std::vector<std::string> &) = nullptr;
  /// Stores checked words in the block being read, written at file:line (an Included file's own
  /// name and line; nullptr: global only, or a block setting).
  void (*set_block)(ModuleBlock &, const std::vector<std::string> &, const std::string &file,
                    int line) = nullptr;
  /// A setting every block takes from the global lines unless it writes its own: stores checked
  /// words in the global config's BlockSettings or in a block's (nullptr: not such a setting).
  void (*set_setting)(BlockSettings &, const std::vector<std::string> &) = nullptr;
  bool sweepable = false; ///< may be swept (Sweep) and tuned (Tune)
  bool adds_up = false;   ///< its lines add up (ModulePath, Hint ...): a global may repeat it
};

/// Every harness directive, in the order the docs list them.
const std::vector<HarnessDirective> &harness_directives();

/// The harness directive with this name (case-insensitive), or nullptr.
const HarnessDirective *find_harness_directive(const std::string &name);

/// True when a directive of this scope may be written in a block (Block, Both) or outside one.
bool allowed_in_block(DirectiveScope scope);

/// True when the harness directive with this name may be swept and tuned (Collective, Verify ...).
bool sweepable(const std::string &name);

/// The sweepable harness directives' names, "Collective, FileView, ..." (for help texts).
std::string sweepable_names();

/// How to write a Sweep line, for error messages.
std::string sweep_hint();

/// Stores a checked value of a global line of a harness directive (or its table default) in the
/// global config: in its BlockSettings for a block setting.
void set_in_global(const HarnessDirective &d, GlobalConfig &g,
                   const std::vector<std::string> &words);

/// Stores a checked value of a harness directive in a block whose settings are whole (a swept
/// value, a trial's): as the block's own line would.
void set_in_block(const HarnessDirective &d, ModuleBlock &b, const std::vector<std::string> &words,
                  const std::string &file, int line);

/// "TestFile, ShowAverages, ..." for error messages: the directives accepted outside blocks
/// (in_block false) or inside them (block-only directives first).
std::string harness_directive_names(bool in_block);

/// Checks a Sweep line's words as it is read (a name and at least one value; the values of a
/// swept harness setting (Collective, FileView, Interface ...) checked as that directive checks
/// them; Hint:<key> with a key). Module directives are checked once the module is known. Throws
/// pio::Error.
void check_sweep(const std::vector<std::string> &words);

} // namespace pio::harness
