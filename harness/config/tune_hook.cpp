// TuneHook commands (tune_hook.hpp).
#include "config/tune_hook.hpp"

#include "pio/error.hpp"

namespace pio::harness {

std::vector<std::string> hook_placeholders(const std::string &command) {
  std::vector<std::string> out;
  for (size_t i = 0; i < command.size(); ++i) {
    if (command[i] == '}')
      throw Error("TuneHook: a '}' without its '{' at character " + std::to_string(i + 1),
                  "write {name} for a tuned value, e.g. TuneHook \"setfattr -n x -v {size} "
                  "dir\"");
    if (command[i] != '{')
      continue;
    const auto end = command.find('}', i);
    if (end == std::string::npos)
      throw Error("TuneHook: a '{' without its '}' at character " + std::to_string(i + 1),
                  "close the placeholder: {name}");
    const std::string name = command.substr(i + 1, end - i - 1);
    if (name.empty() || name.find('{') != std::string::npos)
      throw Error("TuneHook: an empty or nested placeholder at character " + std::to_string(i + 1),
                  "write {name} with the name of a Tune line, e.g. {stripe_count}");
    out.push_back(name);
    i = end;
  }
  return out;
}

} // namespace pio::harness
