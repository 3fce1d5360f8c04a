#include "report/hint_warning.hpp"

#include <algorithm>
#include <cctype>

namespace pio::harness {

namespace {

bool same_text(const std::string &a, const std::string &b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

} // namespace

void HintWarningReporter::test_finished(const RunResult &, const ModuleResult &block,
                                        const TestResult &test) {
  if (test.file.empty() || test.hints_in_effect.empty())
    return; // no file was opened: no hints to compare
  for (const auto &[key, value] : test.hints_requested) {
    const auto it = test.hints_in_effect.find(key);
    if ((it != test.hints_in_effect.end() && same_text(it->second, value)) ||
        !warned_.insert(key).second)
      continue;
    *err_ << "pio-harness: warning: block " << block.label << " (" << block.config_location
          << "): hint " << key << "=" << value << " requested, in effect: "
          << (it == test.hints_in_effect.end() ? std::string("not set (ignored by the MPI library)")
                                               : it->second)
          << "\n";
  }
}

} // namespace pio::harness
