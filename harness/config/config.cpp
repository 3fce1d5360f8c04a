// The site config, read with Dotconf (thesis §3.2.3, Tables 3.1-3.3). The harness's own
// directives come from one table (harness_directives.cpp); values are checked against their
// DirectiveSpec by check_directive, for harness and module directives alike.
// Every directive reaches one catch-all callback (Dotconf's ARG_NAME fallback entry), which
// records it with its file and line; errors are collected here, never returned to Dotconf
// (Dotconf would use the text as a printf format), and thrown as ConfigError after the loop.
#include "config/config.hpp"

#include "config/cache_rules.hpp"
#include "config/config_source.hpp"
#include "config/directive_check.hpp"
#include "config/harness_directives.hpp"
#include "config/sweep.hpp"

#include <dotconf.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

#include "config/text.hpp"

namespace pio::harness {

namespace {

/// Dotconf's context: what has been read so far and the first error.
struct ParseState {
  Config config;
  std::optional<ConfigError> error;
  std::optional<ModuleBlock> open;
  std::vector<ModuleBlock> blocks;
  std::string file; // of the current directive
  int line = 0;
  std::string name; // of the current directive
  /// The files being read, outermost first (for Include cycles), and how many were read.
  std::vector<std::pair<dev_t, ino_t>> reading;
  std::vector<std::string> reading_names;
  int files_read = 0;
  /// The files as another process read them (parse_config with read_before), and the next one.
  const std::vector<ConfigSource> *given = nullptr;
  size_t next_given = 0;

  /// Reads one file (the main config, or an Include'd one named at from_file:from_line).
  void parse_file(const std::string &path, const std::string &from_file, int from_line);

  /// The file's text as rank 0 read it (given) or from disk, and its identity for cycles.
  std::pair<ConfigSource, std::pair<dev_t, ino_t>>
  source_of(const std::string &path, const std::string &from_file, int from_line);

  /// Refuses a file being read already (an Include cycle) or too many files.
  void check_nesting(const std::pair<dev_t, ino_t> &id, const std::string &path,
                     const std::string &from_file, int from_line) const;

  /// Hands the checked text to Dotconf, which calls on_directive for every line.
  void read_lines(const std::string &path, const ConfigSource &src);

  [[noreturn]] void fail(const std::string &what, const std::string &hint) const {
    throw ConfigError(file, line, what, hint);
  }

  /// Structure (<ap_module>, </ap_module>) and the harness directives table; anything else in a
  /// block is the module's own directive or its backend's option, anything else outside blocks a
  /// backend's option, validated once the module and the backends are known (the plan).
  void directive(const std::string &n, const std::vector<std::string> &args) {
    if (n == "<ap_module>")
      return open_block(args);
    if (n == "</ap_module>")
      return close_block(args);
    if (n == kIncludeMarker)
      return include(args);
    const HarnessDirective *d = find_harness_directive(n);
    if (open && (!d || !allowed_in_block(d->scope))) {
      if (d)
        fail(name + " is a global directive", "move it outside <ap_module> ... </ap_module>");
      open->module_directives.push_back(DirectiveLine{name, args, file, line});
      return;
    }
    if (!d)
      return backend_line(args);
    if (!open && d->scope == DirectiveScope::Block)
      fail(name + " belongs inside an <ap_module> block",
           "move it inside <ap_module> ... </ap_module>");
    try {
      const auto words = check_directive(d->spec, args);
      if (open && d->set_block)
        d->set_block(*open, words, file, line);
      else if (!open && (d->set_global || d->set_setting))
        set_global(*d, args, words);
      // Where each setting comes from, for the errors found once the block is whole (a global
      // line is recorded by set_global); a block setting is applied from here once the global
      // ones are known (parse, after the last file).
      if (open)
        open->harness_lines.push_back(DirectiveLine{d->spec.name, args, file, line});
    } catch (const ConfigError &) {
      throw;
    } catch (const Error &e) {
      fail(e.what(), e.hint());
    }
  }

  /// A global directive: each may be written once (or again with the same value), except those
  /// whose lines add up (ModulePath, Hint, Tune, TuneHook); otherwise the last would win in
  /// silence, as when a composed config Includes others that set their own ResultsFile.
  void set_global(const HarnessDirective &d, const std::vector<std::string> &args,
                  const std::vector<std::string> &words) {
    auto &lines = config.global.written[d.spec.name];
    if (!d.adds_up && !lines.empty() && lines.front().args != args) {
      const std::string first = lines.front().file + ":" + std::to_string(lines.front().line);
      fail(d.spec.name + " is set twice: here and at " + first +
               " (the last one would win in silence)",
           "keep one " + d.spec.name + " line: remove this one or the one at " + first +
               "; an Included config's globals count as written in the including one");
    }
    set_in_global(d, config.global, words);
    lines.push_back(DirectiveLine{d.spec.name, args, file, line});
  }

  /// A global line that is no harness directive: a backend's option for every block, each
  /// written once (or again with the same value), as the harness's globals are.
  void backend_line(const std::vector<std::string> &args) {
    for (const auto &l : config.global.backend_lines)
      if (lower(l.name) == lower(name) && l.args != args) {
        const std::string first = l.file + ":" + std::to_string(l.line);
        fail(name + " is set twice: here and at " + first + " (the last one would win in silence)",
             "keep one " + name + " line: remove this one or the one at " + first +
                 "; an Included config's globals count as written in the including one");
      }
    config.global.backend_lines.push_back(DirectiveLine{name, args, file, line});
  }

  /// Include <file>: read it here, relative to the including file's directory.
  void include(const std::vector<std::string> &args) {
    if (args.size() != 1)
      fail(args.empty() ? std::string("Include without a file name")
                        : "Include takes one file name, got " + std::to_string(args.size()),
           "write: Include other.conf (relative to this file's directory; quote a name with "
           "spaces)");
    const std::string &target = args[0];
    const std::string dir =
        file.find('/') == std::string::npos ? "." : file.substr(0, file.rfind('/'));
    const std::string path = target[0] == '/' ? target : dir + "/" + target;
    const std::string from_file = file;
    const int from_line = line;
    parse_file(path, from_file, from_line);
    file = from_file; // the rest of the including file
    line = from_line;
  }

  void open_block(const std::vector<std::string> &args) {
    if (open)
      fail("<ap_module> inside the block opened at " + open->file + ":" +
               std::to_string(open->line),
           "close that block with </ap_module> first; blocks do not nest");
    if (!args.empty())
      fail("<ap_module> takes no values, got " + std::to_string(args.size()),
           "write <ap_module> alone on its line");
    open = ModuleBlock{};
    open->file = file;
    open->line = line;
    for (const auto &d : harness_directives()) // block-only defaults; the others come from global
      if (d.scope == DirectiveScope::Block && !d.spec.default_value.empty())
        d.set_block(*open, check_directive(d.spec, default_words(d.spec)), file, line);
  }

  void close_block(const std::vector<std::string> &args) {
    if (!open)
      fail("</ap_module> without an open <ap_module>", "remove it or open a block before it");
    if (!args.empty())
      fail("</ap_module> takes no values, got " + std::to_string(args.size()),
           "write </ap_module> alone on its line");
    if (open->module_name.empty())
      throw ConfigError(open->file, open->line, "<ap_module> block without ModuleName",
                        "add ModuleName \"<module>\" inside the block; pio-harness "
                        "--list-modules lists the modules");
    const ModuleBlock &b = *open;
    if (b.sync_at_end && b.timing_scope == TimingScope::Unit &&
        !(b.stone_wall_wear_out && b.stone_wall > 0))
      throw ConfigError(b.file, b.line, "SyncAtEnd needs one timed window per phase",
                        "add TimingScope phase (or StoneWall with StoneWallWearOut on) to the "
                        "block, or remove SyncAtEnd");
    blocks.push_back(std::move(*open));
    open.reset();
  }
};

const char *on_directive(command_t *cmd, context_t *ctx) {
  auto *st = static_cast<ParseState *>(ctx);
  if (st->error)
    return nullptr; // report the first error only
  st->file = cmd->configfile->filename ? cmd->configfile->filename : "?";
  st->line = static_cast<int>(cmd->configfile->line);
  st->name = cmd->name ? cmd->name : "";
  // Dotconf reads at most CFG_VALUES - 1 words and lumps the rest of the line into one more:
  // a list would silently gain a value with spaces in it. (Sweep says so in its own words.)
  if (cmd->arg_count >= CFG_VALUES && lower(st->name) != "sweep") {
    st->error = ConfigError(st->file, st->line,
                            st->name + " takes at most " + std::to_string(CFG_VALUES - 1) +
                                " values on one line",
                            "split the values over several lines, or shorten the list");
    return nullptr;
  }
  std::vector<std::string> args;
  for (int i = 0; i < cmd->arg_count; ++i)
    if (cmd->data.list[i])
      args.emplace_back(cmd->data.list[i]);
  // Nothing may unwind through Dotconf's C frames.
  try {
    st->directive(lower(st->name), args);
  } catch (const ConfigError &e) {
    st->error = e;
  } catch (const std::exception &e) {
    st->error = ConfigError(st->file, st->line, e.what(), "check the line");
  } catch (...) {
    st->error = ConfigError(st->file, st->line, "unknown error", "check the line");
  }
  return nullptr;
}

int on_error(configfile_t *cf, int type, unsigned long, const char *msg) {
  auto *st = static_cast<ParseState *>(cf->context);
  if (!st->error) {
    std::string text = msg ? msg : "unknown error";
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
      text.pop_back();
    std::string hint = "check the line's syntax (docs/reference/configuration.md)";
    if (type == ERR_INCLUDE_ERROR)
      hint = "Include paths are relative to the including file's directory";
    st->error =
        ConfigError(cf->filename ? cf->filename : "?", static_cast<int>(cf->line), text, hint);
  }
  return 0;
}

std::pair<ConfigSource, std::pair<dev_t, ino_t>>
ParseState::source_of(const std::string &path, const std::string &from_file, int from_line) {
  const bool nested = !from_file.empty();
  if (given) {
    // The reader refused cycles already; the files come in the order it read them.
    if (next_given >= given->size() || (*given)[next_given].path != path)
      throw ConfigError(nested ? from_file : path, from_line,
                        "config file '" + path + "' is not among the files rank 0 read",
                        "report this as a bug: the broadcast config differs from rank 0's");
    const ConfigSource &src = (*given)[next_given];
    return {src, std::make_pair(dev_t{0}, static_cast<ino_t>(++next_given))};
  }
  ConfigSource src = read_config_source(path, from_file, from_line);
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    throw ConfigError(nested ? from_file : path, from_line, "config file '" + path + "' vanished",
                      "check the path");
  return {std::move(src), std::make_pair(st.st_dev, st.st_ino)};
}

void ParseState::check_nesting(const std::pair<dev_t, ino_t> &id, const std::string &path,
                               const std::string &from_file, int from_line) const {
  for (size_t i = 0; i < reading.size(); ++i)
    if (reading[i] == id) {
      std::string cycle;
      for (size_t k = i; k < reading_names.size(); ++k)
        cycle += reading_names[k] + " includes ";
      throw ConfigError(from_file, from_line, "Include cycle: " + cycle + path,
                        "remove the Include that leads back to a file being read");
    }
  if (reading.size() >= 16 || files_read >= 256)
    throw ConfigError(from_file, from_line,
                      "Include nested deeper than 16 files or more than 256 files read",
                      "include fewer files");
}

void ParseState::read_lines(const std::string &path, const ConfigSource &src) {
  static const configoption_t options[] = {{"", ARG_NAME, on_directive, nullptr, CTX_ALL}};
  char devnull[] = "/dev/null";
  // DONT_SUBSTITUTE: read_config_source has expanded ${VAR} (Dotconf would make an unset one
  // empty in silence, and read a literal ${ written as $${ again).
  configfile_t *cf = dotconf_create(devnull, options, this, CASE_INSENSITIVE | DONT_SUBSTITUTE);
  if (!cf)
    throw ConfigError(path, 0, "Dotconf cannot start", "check that /dev/null is readable");
  // Dotconf reads the checked text, and names the real file in its messages.
  std::vector<char> text(src.sanitized.begin(), src.sanitized.end());
  std::fclose(cf->stream);
  cf->stream = fmemopen(text.data(), text.size(), "r");
  std::free(cf->filename);
  cf->filename = strdup(path.c_str());
  cf->errorhandler = on_error;
  if (cf->stream)
    dotconf_command_loop(cf);
  dotconf_cleanup(cf);
}

void ParseState::parse_file(const std::string &path, const std::string &from_file, int from_line) {
  const auto [src, id] = source_of(path, from_file, from_line);
  check_nesting(id, path, from_file, from_line);
  ++files_read;
  if (from_file.empty())
    config.text = src.raw;
  config.sources.push_back(src);
  reading.push_back(id);
  reading_names.push_back(path);
  if (!src.sanitized.empty())
    read_lines(path, src);
  reading.pop_back();
  reading_names.pop_back();
}

} // namespace

namespace {
Config parse(const std::string &path, const std::vector<ConfigSource> *given) {
  ParseState state;
  state.given = given;
  for (const auto &d : harness_directives()) // the table's defaults, before any line is read
    if (!d.spec.default_value.empty())
      set_in_global(d, state.config.global, check_directive(d.spec, default_words(d.spec)));
  state.config.path = path;
  state.parse_file(path, "", 0);
  if (state.error)
    throw *state.error;
  if (state.open)
    throw ConfigError(state.open->file, state.open->line,
                      "<ap_module> is not closed before the end of the file",
                      "add </ap_module> after the block's directives");

  // A block's settings are the global ones, wherever the globals were written, overlaid by its
  // own lines.
  const GlobalConfig &g = state.config.global;
  std::vector<DirectiveLine> global_lines;
  for (const auto &[name, lines] : g.written)
    global_lines.insert(global_lines.end(), lines.begin(), lines.end());
  for (auto &b : state.blocks) {
    static_cast<BlockSettings &>(b) = g;
    for (const auto &l : b.harness_lines)
      if (const HarnessDirective *d = find_harness_directive(l.name); d && d->set_setting)
        d->set_setting(b, check_directive(d->spec, l.args));
    b.harness_lines.insert(b.harness_lines.begin(), global_lines.begin(), global_lines.end());
    state.config.modules.push_back(std::move(b));
  }
  expand_sweeps(state.config); // after the global defaults, so a swept value wins
  check_cache_rules(state.config);
  return state.config;
}
} // namespace

Config parse_config(const std::string &path) { return parse(path, nullptr); }

Config parse_config(const std::string &path, const std::vector<ConfigSource> &read_before) {
  return parse(path, &read_before);
}

} // namespace pio::harness
