// The site config, read with Dotconf (thesis §3.2.3, Tables 3.1-3.3; DESIGN §5).
// Every directive reaches one catch-all callback (Dotconf's ARG_NAME fallback entry), which
// records it with its file and line; errors are collected here, never returned to Dotconf
// (Dotconf would use the text as a printf format), and thrown as ConfigError after the loop.
#include "config.hpp"

#include <dotconf.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

namespace pio::harness {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

const char *const kGlobalDirectives =
    "TestFile, ShowAverages, ReportOpenTime, ReportCloseTime, ReportHeaderOffset, SyncWrites, "
    "ModulePath, ResultsFile, Verify, Collective, FileView, Overwrite, KeepFiles, StepTimeout, "
    "Hint, Include, "
    "<ap_module>";
const char *const kBlockDirectives = "ModuleName, ModuleReps, ModuleSettleTime, TestFile, Verify, "
                                     "Collective, FileView, SyncWrites, Hint, </ap_module>";

/// A block while it is being read: flags not given stay unset and take the global value later.
struct RawBlock {
  ModuleBlock block;
  std::optional<bool> verify, collective, file_view, sync_writes;
  std::map<std::string, std::string> hints;
};

/// Dotconf's context: what has been read so far and the first error.
struct ParseState {
  Config config;
  std::optional<ConfigError> error;
  std::optional<RawBlock> open;
  std::vector<RawBlock> blocks;
  std::string file; // of the current directive
  int line = 0;
  std::string name; // of the current directive

  [[noreturn]] void fail(const std::string &what, const std::string &hint) const {
    throw ConfigError(file, line, what, hint);
  }
  void want_args(const std::vector<std::string> &args, size_t n, const std::string &usage) const {
    if (args.size() != n)
      fail(name + " takes " + std::to_string(n) + " value" + (n == 1 ? "" : "s") + ", got " +
               std::to_string(args.size()),
           "write: " + usage);
  }
  bool flag(const std::vector<std::string> &args) const {
    if (args.empty())
      return true; // a bare toggle, as the thesis writes ShowAverages
    if (args.size() != 1)
      fail(name + " takes one value, got " + std::to_string(args.size()),
           "write: " + name + " on|off");
    try {
      return parse_flag(args[0]);
    } catch (const Error &e) {
      fail(name + ": " + e.what(), e.hint());
    }
  }
  std::string text(const std::vector<std::string> &args, const std::string &usage) const {
    want_args(args, 1, usage);
    return args[0];
  }
  void hint(const std::vector<std::string> &args, std::map<std::string, std::string> &into) const {
    want_args(args, 2, "Hint <key> <value>, e.g. Hint cb_buffer_size 16777216");
    into[args[0]] = args[1];
  }

  void global(const std::string &n, const std::vector<std::string> &a) {
    GlobalConfig &g = config.global;
    if (n == "testfile")
      g.test_file = text(a, "TestFile \"/path/to/file\"");
    else if (n == "showaverages")
      g.show_averages = flag(a);
    else if (n == "reportopentime")
      g.report_open_time = flag(a);
    else if (n == "reportclosetime")
      g.report_close_time = flag(a);
    else if (n == "reportheaderoffset")
      g.report_header_offset = flag(a);
    else if (n == "syncwrites")
      g.sync_writes = flag(a);
    else if (n == "modulepath") {
      if (a.empty())
        fail("ModulePath needs a directory", "write: ModulePath /path/to/modules");
      g.module_paths.insert(g.module_paths.end(), a.begin(), a.end());
    } else if (n == "resultsfile")
      g.results_file = text(a, "ResultsFile results.json");
    else if (n == "verify")
      g.verify = flag(a);
    else if (n == "collective")
      g.collective = flag(a);
    else if (n == "fileview")
      g.file_view = flag(a);
    else if (n == "overwrite")
      g.overwrite = flag(a);
    else if (n == "keepfiles")
      g.keep_files = flag(a);
    else if (n == "hint")
      hint(a, g.hints);
    else if (n == "steptimeout") {
      const std::string v = text(a, "StepTimeout 600");
      try {
        g.step_timeout = parse_real(v);
      } catch (const Error &e) {
        fail("StepTimeout: " + std::string(e.what()), "write seconds, e.g. 600 (0 = off)");
      }
      if (g.step_timeout < 0)
        fail("StepTimeout " + v + " is negative", "write seconds, 0 (off) or more");
    } else if (n == "<ap_module>") {
      want_args(a, 0, "<ap_module>");
      open = RawBlock{};
      open->block.file = file;
      open->block.line = line;
    } else if (n == "</ap_module>")
      fail("</ap_module> without an open <ap_module>", "remove it or open a block before it");
    else
      fail("unknown directive '" + name + "'", std::string("global directives are: ") +
                                                   kGlobalDirectives +
                                                   "; module directives go inside <ap_module>");
  }

  void in_block(const std::string &n, const std::vector<std::string> &a) {
    RawBlock &b = *open;
    if (n == "modulename") {
      b.block.module_name = text(a, "ModuleName \"Simple Strided (write)\"");
      b.block.module_name_line = line;
    } else if (n == "modulereps") {
      const std::string v = text(a, "ModuleReps 10");
      try {
        b.block.reps = static_cast<long>(parse_integer(v));
      } catch (const Error &e) {
        fail("ModuleReps: " + std::string(e.what()), "write a whole number of at least 1");
      }
      if (b.block.reps < 1)
        fail("ModuleReps " + v + " must be at least 1", "write a whole number of at least 1");
    } else if (n == "modulesettletime") {
      const std::string v = text(a, "ModuleSettleTime 30");
      try {
        b.block.settle_time = parse_real(v);
      } catch (const Error &e) {
        fail("ModuleSettleTime: " + std::string(e.what()), "write seconds, e.g. 30 or 0.5");
      }
      if (b.block.settle_time < 0)
        fail("ModuleSettleTime " + v + " is negative", "write seconds, 0 or more");
    } else if (n == "testfile")
      b.block.test_file = text(a, "TestFile \"/path/to/file\"");
    else if (n == "verify")
      b.verify = flag(a);
    else if (n == "collective")
      b.collective = flag(a);
    else if (n == "fileview")
      b.file_view = flag(a);
    else if (n == "syncwrites")
      b.sync_writes = flag(a);
    else if (n == "hint")
      hint(a, b.hints);
    else if (n == "<ap_module>")
      fail("<ap_module> inside the block opened at " + b.block.file + ":" +
               std::to_string(b.block.line),
           "close that block with </ap_module> first; blocks do not nest");
    else if (n == "</ap_module>") {
      want_args(a, 0, "</ap_module>");
      if (b.block.module_name.empty())
        throw ConfigError(b.block.file, b.block.line, "<ap_module> block without ModuleName",
                          "add ModuleName \"<module>\" inside the block; pio-harness "
                          "--list-modules lists the modules");
      blocks.push_back(std::move(b));
      open.reset();
    } else if (n == "showaverages" || n == "reportopentime" || n == "reportclosetime" ||
               n == "reportheaderoffset" || n == "modulepath" || n == "resultsfile" ||
               n == "overwrite" || n == "keepfiles" || n == "steptimeout")
      fail(name + " is a global directive", "move it outside <ap_module> ... </ap_module>");
    else // the module's own directive, validated once the module is known
      b.block.module_directives.push_back(DirectiveLine{name, a, file, line});
  }
};

const char *on_directive(command_t *cmd, context_t *ctx) {
  auto *st = static_cast<ParseState *>(ctx);
  if (st->error)
    return nullptr; // report the first error only
  st->file = cmd->configfile->filename ? cmd->configfile->filename : "?";
  st->line = static_cast<int>(cmd->configfile->line);
  st->name = cmd->name ? cmd->name : "";
  std::vector<std::string> args;
  for (int i = 0; i < cmd->arg_count; ++i)
    if (cmd->data.list[i])
      args.emplace_back(cmd->data.list[i]);
  try {
    const std::string n = lower(st->name);
    if (st->open)
      st->in_block(n, args);
    else
      st->global(n, args);
  } catch (const ConfigError &e) {
    st->error = e;
  }
  return nullptr;
}

int on_error(configfile_t *cf, int type, unsigned long, const char *msg) {
  auto *st = static_cast<ParseState *>(cf->context);
  if (!st->error) {
    std::string text = msg ? msg : "unknown error";
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
      text.pop_back();
    std::string hint = "check the line's syntax (docs/configuration.md)";
    if (type == ERR_INCLUDE_ERROR)
      hint = "Include paths are relative to the including file's directory";
    st->error =
        ConfigError(cf->filename ? cf->filename : "?", static_cast<int>(cf->line), text, hint);
  }
  return 0;
}

/// Dotconf crashes on an Include without a file name: refuse it before Dotconf sees it, in the
/// main file and (recursively) in included files.
void refuse_bare_include(const std::string &path, int depth = 0) {
  std::ifstream f(path);
  std::string line;
  int n = 0;
  const std::string dir =
      path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
  while (std::getline(f, line)) {
    ++n;
    std::istringstream words(line);
    std::string first, second;
    words >> first >> second;
    if (lower(first) != "include")
      continue;
    if (second.empty())
      throw ConfigError(path, n, "Include without a file name",
                        "write: Include other.conf (relative to this file's directory)");
    if (second.size() > 1 && second.front() == '"' && second.back() == '"')
      second = second.substr(1, second.size() - 2);
    if (depth < 16)
      refuse_bare_include(second[0] == '/' ? second : dir + "/" + second, depth + 1);
  }
}

} // namespace

Config parse_config(const std::string &path) {
  struct stat st;
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    throw ConfigError(path, 0, "config file '" + path + "' does not exist or is not a file",
                      "give the path of a config file: pio-harness -c site.conf");
  std::ifstream in(path);
  if (!in)
    throw ConfigError(path, 0, "config file '" + path + "' cannot be read",
                      "check its permissions");
  std::ostringstream text;
  text << in.rdbuf();
  refuse_bare_include(path);

  ParseState state;
  state.config.path = path;
  state.config.text = text.str();
  static const configoption_t options[] = {{"", ARG_NAME, on_directive, nullptr, CTX_ALL}};
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  configfile_t *cf = dotconf_create(name.data(), options, &state, CASE_INSENSITIVE);
  if (!cf)
    throw ConfigError(path, 0, "Dotconf cannot open config file '" + path + "'",
                      "check the path and its permissions");
  cf->errorhandler = on_error;
  dotconf_command_loop(cf);
  dotconf_cleanup(cf);
  if (state.error)
    throw *state.error;
  if (state.open)
    throw ConfigError(state.open->block.file, state.open->block.line,
                      "<ap_module> is not closed before the end of the file",
                      "add </ap_module> after the block's directives");

  // Block flags and hints default to the global ones, wherever the globals were written.
  const GlobalConfig &g = state.config.global;
  for (auto &raw : state.blocks) {
    ModuleBlock b = std::move(raw.block);
    b.verify = raw.verify.value_or(g.verify);
    b.collective = raw.collective.value_or(g.collective);
    b.file_view = raw.file_view.value_or(g.file_view);
    b.sync_writes = raw.sync_writes.value_or(g.sync_writes);
    b.hints = g.hints;
    for (const auto &[k, v] : raw.hints)
      b.hints[k] = v;
    state.config.modules.push_back(std::move(b));
  }
  return state.config;
}

Settings validate_module_directives(const ModuleBlock &block, const std::string &module_name,
                                    const std::vector<DirectiveSpec> &accepted) {
  std::string accepted_list;
  for (const auto &d : accepted)
    accepted_list += (accepted_list.empty() ? "" : ", ") + d.name;
  std::map<std::string, std::vector<std::string>> values;
  for (const auto &line : block.module_directives) {
    const DirectiveSpec *spec = nullptr;
    for (const auto &d : accepted)
      if (lower(d.name) == lower(line.name))
        spec = &d;
    if (!spec)
      throw ConfigError(
          line.file, line.line,
          "unknown directive '" + line.name + "' for module " + module_name +
              "; it accepts: " + (accepted_list.empty() ? std::string("none") : accepted_list) +
              " (and the block directives " + kBlockDirectives + ")",
          "check the spelling; pio-harness --list-modules shows each directive");
    std::vector<std::string> words = line.args;
    const bool list = spec->type == DirectiveType::Integers || spec->type == DirectiveType::Sizes ||
                      spec->type == DirectiveType::Texts;
    if (spec->type == DirectiveType::Flag && words.empty())
      words = {"on"};
    if (words.empty() || (!list && words.size() != 1))
      throw ConfigError(line.file, line.line,
                        spec->name + " takes " + (list ? "one or more values" : "one value") +
                            ", got " + std::to_string(words.size()),
                        spec->name + ": " + spec->help);
    for (auto &w : words) {
      try {
        switch (spec->type) {
        case DirectiveType::Flag:
          parse_flag(w);
          break;
        case DirectiveType::Integer:
        case DirectiveType::Integers:
          parse_integer(w);
          break;
        case DirectiveType::Size:
        case DirectiveType::Sizes:
          parse_size(w);
          break;
        case DirectiveType::Real:
          parse_real(w);
          break;
        case DirectiveType::Text:
        case DirectiveType::Texts:
          if (!spec->choices.empty()) {
            auto it = std::find_if(spec->choices.begin(), spec->choices.end(),
                                   [&](const std::string &c) { return lower(c) == lower(w); });
            if (it == spec->choices.end()) {
              std::string choices;
              for (const auto &c : spec->choices)
                choices += (choices.empty() ? "" : ", ") + c;
              throw Error("'" + w + "' is not one of " + choices, "write one of: " + choices);
            }
            w = *it;
          }
          break;
        }
      } catch (const Error &e) {
        throw ConfigError(line.file, line.line, spec->name + ": " + e.what(),
                          e.hint().empty() ? spec->help : e.hint());
      }
    }
    values[spec->name] = words; // a later line wins
  }
  for (const auto &d : accepted) {
    if (values.count(d.name) || d.default_value.empty())
      continue;
    std::istringstream s(d.default_value);
    std::vector<std::string> words;
    for (std::string w; s >> w;)
      words.push_back(w);
    values[d.name] = words;
  }
  return Settings(std::move(values));
}

} // namespace pio::harness
