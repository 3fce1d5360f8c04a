#include "plan/module_plan.hpp"

#include "config/config_error.hpp"
#include "plan/backend_plan.hpp"
#include "plan/block_label.hpp"
#include "plan/module_directives.hpp"
#include "plan/shared_files.hpp"
#include "plan/suite_time.hpp"

#include <algorithm>
#include <cstdlib>

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/filesystem.hpp>
#include <regex>
#include <sstream>

namespace pio::harness {

namespace {
/// The directories searched without being named: the build tree's and the install's.
std::vector<std::string> default_module_dirs() {
  std::vector<std::string> dirs;
  // The modules installed beside this executable (<prefix>/bin/pio-harness ->
  // <prefix>/lib*/pio-bench/modules) come first: they match it even if the install moved.
  boost::dll::fs::error_code ec;
  const auto exe = boost::dll::program_location(ec);
  if (!ec) {
    // Run from the build tree (build/harness/pio-harness): the build's modules (build/modules).
    const std::string build_dir = (exe.parent_path().parent_path() / "modules").string();
    if (boost::filesystem::exists(exe.parent_path().parent_path() / "CMakeCache.txt"))
      dirs.push_back(build_dir);
    const auto prefix = exe.parent_path().parent_path();
    for (const char *lib : {"lib", "lib64", "lib/x86_64-linux-gnu"}) {
      const std::string d = (prefix / lib / "pio-bench" / "modules").string();
      if (d != PIO_INSTALL_MODULE_DIR)
        dirs.push_back(d);
    }
  }
  dirs.push_back(PIO_INSTALL_MODULE_DIR);
  return dirs;
}

/// A module whose tests run once (ModuleInfo::runs_once) refuses repetitions, at the line in
/// effect (the block's own, else the global one).
void check_runs_once(const ModuleBlock &b, const ModuleInfo &info) {
  if (!info.runs_once)
    return;
  const auto refuse = [&](const char *name, const std::string &what) {
    DirectiveLine at{name, {}, b.file, b.line};
    for (const auto &l : b.harness_lines)
      if (l.name == name)
        at = l;
    throw ConfigError(at.file, at.line,
                      what + ": module " + info.name +
                          " runs its tests once (its schedule's reads check what its writes and "
                          "rewrites left; a repeated write changes that file)",
                      "remove it from this block, or repeat the whole block with Rounds or a "
                      "Sweep");
  };
  if (b.reps_auto || b.reps > 1)
    refuse("ModuleReps",
           "ModuleReps " + (b.reps_auto ? std::string("auto") : std::to_string(b.reps)));
  if (b.warm_up_reps > 0)
    refuse("WarmUpReps", "WarmUpReps " + std::to_string(b.warm_up_reps));
}

/// True when file lies in one of the default directories (not named by the user).
bool in_default_dir(const std::string &file) {
  const std::string dir = file.substr(0, file.find_last_of('/'));
  boost::system::error_code ec;
  for (const auto &d : default_module_dirs())
    if (boost::filesystem::equivalent(d, dir, ec))
      return true;
  return false;
}
} // namespace

std::vector<std::string> module_search_path(const std::vector<std::string> &explicit_dirs,
                                            const Config &config) {
  std::vector<std::string> dirs = explicit_dirs;
  for (const auto &d : explicit_dirs) // ModulePath lines are checked where they are read
    if (!boost::filesystem::is_directory(d))
      throw Error("the module directory " + d + " given with -M / --module-path " +
                      (boost::filesystem::exists(d) ? "is not a directory" : "does not exist"),
                  "name an existing directory holding module .so files (pio-harness "
                  "--list-modules shows what is found)");
  std::string base = ".";
  const auto slash = config.path.find_last_of('/');
  if (slash != std::string::npos)
    base = config.path.substr(0, slash);
  // ModulePath's directories, relative to the config's, must exist: a missing one would be
  // skipped in silence and its modules reported as unknown.
  const auto lines = config.global.written.find("ModulePath");
  if (lines != config.global.written.end())
    for (const DirectiveLine &l : lines->second)
      for (const auto &d : l.args) {
        const std::string path = !d.empty() && d[0] == '/' ? d : base + "/" + d;
        if (!boost::filesystem::is_directory(path))
          throw ConfigError(
              l.file, l.line,
              "ModulePath " + d + ": " + path +
                  (boost::filesystem::exists(path) ? " is not a directory" : " does not exist"),
              "name an existing directory holding module .so files (relative to " + base +
                  "), or remove it from the line");
      }
  for (const auto &d : config.global.module_paths)
    dirs.push_back(!d.empty() && d[0] == '/' ? d : base + "/" + d);
  if (const char *env = std::getenv("PIO_MODULE_PATH")) {
    std::stringstream s(env);
    std::string d;
    while (std::getline(s, d, ':'))
      if (!d.empty())
        dirs.push_back(d);
  }
  for (const auto &d : default_module_dirs())
    dirs.push_back(d);
  return dirs;
}

std::vector<std::string> module_warnings(const Catalog &catalog) {
  std::vector<std::string> out;
  for (const auto &w : catalog.duplicate_warnings()) {
    // Only where the user named a directory: the default directories are the harness's own.
    const bool backend = w.rfind("backend ", 0) == 0;
    const size_t at = backend ? 8 : 7; // after "module " or "backend "
    const auto &paths = (backend ? catalog.backend_duplicates : catalog.duplicates)
                            .at(w.substr(at, w.find(' ', at) - at));
    if (std::any_of(paths.begin(), paths.end(),
                    [](const std::string &f) { return !in_default_dir(f); }))
      out.push_back(w);
  }
  out.insert(out.end(), catalog.unlisted_warnings.begin(), catalog.unlisted_warnings.end());
  return out;
}

std::vector<ModulePlan> plan_modules(const Config &config, Catalog &catalog) {
  std::vector<ModulePlan> plans;
  check_global_backend_lines(config, catalog);
  for (const auto &block : config.modules) {
    ModulePlan p;
    p.block = &block;
    ModuleBlock effective = block;
    // "Simple Strided (write)": a spatial pattern plus its temporal mode (thesis Table 3.3).
    static const std::regex with_mode(R"(^\s*(.*\S)\s*\(\s*([^()]*\S)\s*\)\s*$)");
    std::smatch m;
    const bool has_mode_form = std::regex_match(block.module_name, m, with_mode);
    // The manifests are asked first for both forms, so an object without a manifest is opened
    // only when no manifest provides the module.
    const bool listed = catalog.listed_provides(block.module_name) ||
                        (has_mode_form && catalog.listed_provides(m[1].str()));
    auto find = [&](const std::string &name) {
      try {
        return catalog.find(name, &p.library, !listed);
      } catch (const ConfigError &) {
        throw;
      } catch (const Error &e) {
        throw ConfigError(block.module_name_file, block.module_name_line, e.what(), e.hint());
      }
    };
    p.info = find(block.module_name);
    if (!p.info && has_mode_form) {
      p.info = find(m[1].str());
      if (p.info) {
        bool has_mode = false;
        for (const auto &d : p.info->directives)
          has_mode = has_mode || d.name == "Mode";
        if (!has_mode)
          throw ConfigError(block.module_name_file, block.module_name_line,
                            "module " + p.info->name + " has no temporal modes, but ModuleName \"" +
                                block.module_name + "\" asks for mode '" + m[2].str() + "'",
                            "write ModuleName \"" + p.info->name + "\"");
        for (const auto &d : block.module_directives)
          if (d.name == "Mode")
            throw ConfigError(d.file, d.line,
                              "Mode is given twice: in ModuleName \"" + block.module_name +
                                  "\" and here",
                              "keep one of them");
        effective.module_directives.insert(
            effective.module_directives.begin(),
            DirectiveLine{"Mode", {m[2].str()}, block.module_name_file, block.module_name_line});
      }
    }
    if (!p.info) {
      std::string names;
      for (const auto &n : catalog.names())
        names += (names.empty() ? "" : ", ") + n;
      std::string problems;
      for (const auto &pr : catalog.problems)
        problems += pr + "; ";
      // A module file that could not be loaded (another API version, a broken file) is the
      // likely cause: it leads.
      throw ConfigError(block.module_name_file, block.module_name_line,
                        (problems.empty() ? "" : "module files not loaded: " + problems) +
                            "ModuleName \"" + block.module_name +
                            "\": no such module (found: " + (names.empty() ? "none" : names) + ")",
                        "use one of the names above (pio-harness --list-modules shows them), or "
                        "add the module's directory with ModulePath / --module-path");
    }
    if (const auto dup = catalog.duplicates.find(p.info->name); dup != catalog.duplicates.end()) {
      // Two files the user pointed at provide this module: which one is meant is unclear.
      int named = 0;
      std::string files;
      for (const auto &f : dup->second)
        if (!in_default_dir(f) && files.find(f) == std::string::npos) {
          ++named;
          files += (files.empty() ? "" : " and ") + f;
        }
      if (named >= 2)
        throw ConfigError(block.module_name_file, block.module_name_line,
                          "module " + p.info->name + " is provided by both " + files,
                          "remove one of them, or name only one directory with ModulePath / -M");
    }
    effective.module_directives = plan_backend(config, effective.module_directives, catalog, p);
    std::string options;
    for (const auto &o : p.backend->options)
      options += (options.empty() ? "" : ", ") + o.spec.name;
    if (!options.empty())
      options += " of Interface " + p.backend->name;
    p.settings = validate_module_directives(effective, p.info->name, p.info->directives, options);
    check_runs_once(block, *p.info);
    plans.push_back(std::move(p));
  }
  label_blocks(plans);
  link_shared_files(config, plans);
  share_suite_time(config, plans);
  return plans;
}

} // namespace pio::harness
