// The site config, read with Dotconf (thesis §3.2.3, Tables 3.1-3.3). The harness's own
// directives come from one table (harness_directives.cpp); values are checked against their
// DirectiveSpec by check_directive, for harness and module directives alike.
// Every directive reaches one catch-all callback (Dotconf's ARG_NAME fallback entry), which
// records it with its file and line; errors are collected here, never returned to Dotconf
// (Dotconf would use the text as a printf format), and thrown as ConfigError after the loop.
#include "config.hpp"

#include "directive_check.hpp"
#include "harness_directives.hpp"

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

/// Dotconf's context: what has been read so far and the first error.
struct ParseState {
  Config config;
  std::optional<ConfigError> error;
  std::optional<BlockDraft> open;
  std::vector<BlockDraft> blocks;
  std::string file; // of the current directive
  int line = 0;
  std::string name; // of the current directive

  [[noreturn]] void fail(const std::string &what, const std::string &hint) const {
    throw ConfigError(file, line, what, hint);
  }

  /// Structure (<ap_module>, </ap_module>) and the harness directives table; anything else in a
  /// block is the module's own directive, validated once the module is known.
  void directive(const std::string &n, const std::vector<std::string> &args) {
    if (n == "<ap_module>")
      return open_block(args);
    if (n == "</ap_module>")
      return close_block(args);
    const HarnessDirective *d = find_harness_directive(n);
    if (open && (!d || !allowed_in_block(d->scope))) {
      if (d)
        fail(name + " is a global directive", "move it outside <ap_module> ... </ap_module>");
      open->block.module_directives.push_back(DirectiveLine{name, args, file, line});
      return;
    }
    if (!d)
      fail("unknown directive '" + name + "'",
           "global directives are: " + harness_directive_names(false) +
               ", <ap_module>; module directives go inside <ap_module>");
    if (!open && d->scope == DirectiveScope::Block)
      fail(name + " belongs inside an <ap_module> block",
           "move it inside <ap_module> ... </ap_module>");
    try {
      const auto words = check_directive(d->spec, args);
      if (open && d->set_block)
        d->set_block(*open, words, line);
      else if (!open && d->set_global)
        d->set_global(config.global, words);
    } catch (const ConfigError &) {
      throw;
    } catch (const Error &e) {
      fail(e.what(), e.hint());
    }
  }

  void open_block(const std::vector<std::string> &args) {
    if (open)
      fail("<ap_module> inside the block opened at " + open->block.file + ":" +
               std::to_string(open->block.line),
           "close that block with </ap_module> first; blocks do not nest");
    if (!args.empty())
      fail("<ap_module> takes no values, got " + std::to_string(args.size()),
           "write <ap_module> alone on its line");
    open = BlockDraft{};
    open->block.file = file;
    open->block.line = line;
    for (const auto &d : harness_directives()) // block-only defaults; the others come from global
      if (d.scope == DirectiveScope::Block && !d.spec.default_value.empty())
        d.set_block(*open, check_directive(d.spec, default_words(d.spec)), line);
  }

  void close_block(const std::vector<std::string> &args) {
    if (!open)
      fail("</ap_module> without an open <ap_module>", "remove it or open a block before it");
    if (!args.empty())
      fail("</ap_module> takes no values, got " + std::to_string(args.size()),
           "write </ap_module> alone on its line");
    if (open->block.module_name.empty())
      throw ConfigError(open->block.file, open->block.line, "<ap_module> block without ModuleName",
                        "add ModuleName \"<module>\" inside the block; pio-harness "
                        "--list-modules lists the modules");
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
  std::vector<std::string> args;
  for (int i = 0; i < cmd->arg_count; ++i)
    if (cmd->data.list[i])
      args.emplace_back(cmd->data.list[i]);
  try {
    st->directive(lower(st->name), args);
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
  for (const auto &d : harness_directives()) // the table's defaults, before any line is read
    if (d.set_global && !d.spec.default_value.empty())
      d.set_global(state.config.global, check_directive(d.spec, default_words(d.spec)));
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
              " (and the block directives " + harness_directive_names(true) + ")",
          "check the spelling; pio-harness --list-modules shows each directive");
    try {
      values[spec->name] = check_directive(*spec, line.args); // a later line wins
    } catch (const Error &e) {
      throw ConfigError(line.file, line.line, e.what(), e.hint());
    }
  }
  for (const auto &d : accepted) {
    if (values.count(d.name) || d.default_value.empty())
      continue;
    try {
      values[d.name] = check_directive(d, default_words(d));
    } catch (const Error &e) {
      throw Error("module " + module_name +
                      " declares a default that breaks its own spec: " + e.what(),
                  "a bug in the module: fix its DirectiveSpec for " + d.name + "; meanwhile set " +
                      d.name + " in the block");
    }
  }
  return Settings(std::move(values));
}

} // namespace pio::harness
