// The ModuleInfo of every IMB-IO benchmark (IMB 3.2 User Guide §4.1 Table 1).
#include <cctype>

#include "io_module.hpp"

namespace imb::io {

/// The ModuleInfo of benchmark b: name imb_<lower-case name>, title IMB's name.
pio::ModuleInfo module_info(const Benchmark &b, pio::CreateModule create) {
  std::string name = "imb_";
  for (char c : b.name)
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  pio::ModuleInfo m(name, create);
  m.title = b.name;
  m.family = pio::ModuleFamily::Imb;
  m.summary = "IMB-IO " + b.name +
              (b.action == Action::None    ? " (open/close overhead)"
               : b.nonblocking             ? " (non-blocking, overlapped with CPU exploit)"
               : b.action == Action::Write ? " (Mode aggregate or non-aggregate)"
                                           : "");
  m.reference = "IMB 3.2 User Guide " + b.section + ", §5";
  m.output = pio::Output::Imb;
  m.directives = directives(b);
  return m;
}

} // namespace imb::io
