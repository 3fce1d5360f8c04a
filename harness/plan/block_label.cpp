// Block labels (see block_label.hpp).
#include "plan/block_label.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "config/config_error.hpp"
#include "config/directive_check.hpp"
#include "config/harness_directives.hpp"
#include "config/text.hpp"
#include "config/values.hpp"

namespace pio::harness {

namespace {

/// One setting of a block as a label shows it.
struct Item {
  std::string key;   ///< unique among a block's items: directive name, or Hint:<key>
  std::string shown; ///< as the label writes it (a hint without "Hint:")
  std::string value;
  /// Interface and the backend's options: a derived label shows them away from this default.
  std::optional<std::string> shown_unless = {};
};

std::string join(const std::vector<std::string> &words) {
  std::string out;
  for (const auto &w : words)
    out += (out.empty() ? "" : ",") + w;
  return out;
}

/// A hint in bytes as a size again ("4194304" -> "4M"), others as they are.
std::string shown_hint(const std::string &value) {
  if (value.empty() || value.size() > 18 ||
      !std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); }))
    return value;
  return format_size(std::stoll(value));
}

std::vector<Item> items(const ModulePlan &p) {
  const ModuleBlock &b = *p.block;
  std::vector<Item> out;
  for (const auto &[name, words] : p.settings.all())
    if (name != "Mode")
      out.push_back({name, name, join(words)});
  auto flag = [&](const char *name, bool on) { out.push_back({name, name, on ? "on" : "off"}); };
  flag("Collective", b.collective);
  flag("FileView", b.file_view);
  flag("SyncWrites", b.sync_writes);
  out.push_back({"Verify", "Verify", to_string(b.verify)});
  // The block's default interface: its module's, else the harness's.
  const std::string default_interface =
      !p.info->default_interface.empty() ? lower(p.info->default_interface)
                                         : find_harness_directive("Interface")->spec.default_value;
  out.push_back({"Interface", "Interface", p.backend->name, default_interface});
  for (const auto &o : p.backend->options) {
    const auto v = p.interface_settings.find(o.spec.name);
    if (v != p.interface_settings.end())
      out.push_back({o.spec.name, o.spec.name, v->second,
                     shown_value(o.spec, check_directive(o.spec, default_words(o.spec)))});
  }
  out.push_back({"TimingScope", "TimingScope", to_string(b.timing_scope)});
  std::ostringstream wall; // StoneWall as a short number: 0.5, 86400, 1e-09
  wall << b.stone_wall;
  out.push_back({"StoneWall", "StoneWall", wall.str()});
  flag("StoneWallWearOut", b.stone_wall_wear_out);
  flag("SyncAtEnd", b.sync_at_end);
  if (!b.test_file.empty())
    out.push_back({"TestFile", "TestFile", b.test_file});
  out.push_back({"ModuleReps", "ModuleReps", b.reps_auto ? "auto" : std::to_string(b.reps)});
  out.push_back({"WarmUpReps", "WarmUpReps", std::to_string(b.warm_up_reps)});
  out.push_back({"CacheMode", "CacheMode", to_string(b.cache_mode)});
  out.push_back({"ReadShift", "ReadShift", std::to_string(b.read_shift)});
  out.push_back({"Processes", "Processes", b.processes ? std::to_string(b.processes) : "all"});
  for (const auto &[key, value] : b.hints)
    out.push_back({"Hint:" + key, key, shown_hint(value)});
  return out;
}

/// The module and its mode: "simple_strided(write)".
std::string base_of(const ModulePlan &p) {
  std::string base = p.info->name;
  if (p.settings.has("Mode") && !p.settings.all().at("Mode").empty())
    base += "(" + join(p.settings.all().at("Mode")) + ")";
  return base;
}

const Item *find_item(const std::vector<Item> &list, const std::string &key) {
  for (const auto &i : list)
    if (lower(i.key) == lower(key))
      return &i;
  return nullptr;
}

std::string where(const ModuleBlock &b) {
  return b.label.empty() ? b.file + ":" + std::to_string(b.line)
                         : b.label_file + ":" + std::to_string(b.label_line);
}

/// Whether a derived label shows this setting of a block: only what the block itself sets away
/// from the harness's defaults (hints: every hint requested, global ones included), so that a
/// label never depends on the other blocks of the config.
/// Module directives (sizes, counts...) are left out unless swept: they name the block's tests.
/// CacheMode too (a config that sets it keeps the labels its results were compared under).
bool shown_when_derived(const ModuleBlock &b, const Item &it) {
  if (it.key == "Collective" || it.key == "SyncWrites" || it.key == "StoneWallWearOut" ||
      it.key == "SyncAtEnd")
    return it.value == "on";
  if (it.key == "FileView")
    return it.value == "off";
  if (it.key == "TimingScope")
    return it.value != to_string(TimingScope::Unit);
  if (it.key == "StoneWall")
    return it.value != "0";
  if (it.key == "ReadShift")
    return it.value != "0";
  if (it.key == "Processes") // written in the block (or swept), not the run's size by default
    return !b.processes_line.name.empty();
  if (it.shown_unless)
    return lower(it.value) != lower(*it.shown_unless);
  return it.key == "TestFile" || it.key.rfind("Hint:", 0) == 0;
}

} // namespace

void label_blocks(std::vector<ModulePlan> &plans) {
  std::vector<std::vector<Item>> all;
  std::vector<std::string> bases;
  for (const auto &p : plans) {
    all.push_back(items(p));
    bases.push_back(base_of(p));
  }
  std::map<std::string, size_t> taken;
  for (size_t i = 0; i < plans.size(); ++i) {
    const ModuleBlock &b = *plans[i].block;
    std::string label = b.label.empty() ? bases[i] : b.label;
    std::set<std::string> shown;
    auto show = [&](const Item *it) {
      if (it && shown.insert(it->key).second)
        label += " " + it->shown + "=" + it->value;
    };
    for (const auto &[name, value] : b.swept)
      show(find_item(all[i], name));
    if (b.label.empty())
      for (const auto &it : all[i])
        if (shown_when_derived(b, it))
          show(&it);
    const auto [at, fresh] = taken.emplace(label, i);
    if (!fresh)
      throw ConfigError(b.label.empty() ? b.file : b.label_file,
                        b.label.empty() ? b.line : b.label_line,
                        "the blocks at " + where(*plans[at->second].block) +
                            " and here have the "
                            "same label '" +
                            label + "'",
                        "labels name blocks in the results and must be unique (a derived label "
                        "leaves out module directives such as BufferSizes unless swept): give "
                        "one of them a Label");
    plans[i].label = label;
  }
}

} // namespace pio::harness
