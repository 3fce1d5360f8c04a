// Tune, TuneHook and Rounds (tune_lines.hpp): their table rows and the form of their lines.
#include "config/tune_lines.hpp"

#include <algorithm>
#include <cctype>

#include "config/text.hpp"
#include "config/values.hpp"

namespace pio::harness {

std::string tune_hint() {
  return "write Tune <name> <value> <value>... (choices) or Tune <name> <from>..<to> [linear] "
         "(a range: sizes double, integers on a log scale unless linear); <name> is a module "
         "directive, " +
         sweepable_names() +
         ", a backend's option (ODirect, an H5 setting ...), Hint:<key> or Hook:<name> (for "
         "TuneHook), e.g. Tune Hint:cb_buffer_size 1M..64M, Tune Collective on off";
}

namespace {

using Words = std::vector<std::string>;

bool is_hook_name(const std::string &n) {
  return !n.empty() && (std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_') &&
         std::all_of(n.begin(), n.end(),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

} // namespace

const char *to_string(TuneTarget t) {
  switch (t) {
  case TuneTarget::Hint:
    return "hint";
  case TuneTarget::Hook:
    return "hook";
  case TuneTarget::Harness:
    return "harness";
  case TuneTarget::Module:
    return "module";
  }
  return "?";
}

TuneTarget tune_target(const std::string &name, std::string &key) {
  if (hint_target(name, key))
    return TuneTarget::Hint;
  if (lower(name.substr(0, 5)) == "hook:") {
    key = name.substr(5);
    return TuneTarget::Hook;
  }
  key = name;
  return find_harness_directive(name) ? TuneTarget::Harness : TuneTarget::Module;
}

TuneValues check_tune_words(const Words &words, bool global) {
  if (words.empty())
    throw Error("Tune without a name", tune_hint());
  std::string key;
  const std::string &name = words[0];
  switch (tune_target(name, key)) {
  case TuneTarget::Hint:
    if (key.empty())
      throw Error("Tune Hint: without a hint key", tune_hint());
    break;
  case TuneTarget::Hook:
    if (!is_hook_name(key))
      throw Error("Tune " + name +
                      ": a hook value's name is letters, digits and _ (not starting "
                      "with a digit)",
                  "write e.g. Tune Hook:stripe_count 1 2 4, and {stripe_count} in the TuneHook");
    break;
  case TuneTarget::Harness:
    if (!sweepable(name))
      throw Error(find_harness_directive(name)->spec.name + " cannot be tuned", tune_hint());
    break;
  case TuneTarget::Module:
    if (global)
      throw Error("Tune " + name + " outside a block: " + name +
                      " is not a harness setting, so it can only be a module's directive",
                  "move the Tune line inside the <ap_module> block whose module has " + name +
                      " (a global Tune takes Hint:<key>, Hook:<name> or a harness setting)");
    break;
  }
  if (words.size() == 1)
    throw Error("Tune " + name + " without values", tune_hint());
  TuneValues v;
  const auto dots = words[1].find("..");
  if (dots != std::string::npos) {
    v.from = words[1].substr(0, dots);
    v.to = words[1].substr(dots + 2);
    if (v.from.empty() || v.to.empty())
      throw Error("Tune " + name + ": the range '" + words[1] + "' lacks a bound", tune_hint());
    if (words.size() > 3 ||
        (words.size() == 3 && lower(words[2]) != "log" && lower(words[2]) != "linear"))
      throw Error("Tune " + name + ": after the range " + words[1] +
                      " only a scale may follow (log or linear), got '" + words.back() + "'",
                  "write Tune " + name + " " + words[1] + " [linear], or list the values");
    v.linear = words.size() == 3 && lower(words[2]) == "linear";
    return v;
  }
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i].find("..") != std::string::npos)
      throw Error("Tune " + name + ": a range must be the only value (" + words[i] + ")",
                  tune_hint());
    if (std::find(v.choices.begin(), v.choices.end(), words[i]) != v.choices.end())
      throw Error("Tune " + name + ": the value '" + words[i] + "' is written twice",
                  "list each value once");
    v.choices.push_back(words[i]);
  }
  if (v.choices.size() < 2)
    throw Error("Tune " + name + " has one value only: there is nothing to choose",
                "list two or more values, or set it with " + name + " " + v.choices[0]);
  return v;
}

} // namespace pio::harness
