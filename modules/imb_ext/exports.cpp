// The IMB-EXT family's shared object (IMB 3.2 User Guide §4.1 Table 1, §4.2.3): the six
// one-sided kernels, each a module named imb_<kernel> with IMB's name as its title, run by the
// IMB methodology of §5 (imb::ImbModule). "Unidir_Put (non-aggregate)" selects the mode.
#include "imb_module.hpp"
#include "one_sided.hpp"

namespace {

template <std::unique_ptr<imb::ext::OneSided> (*Make)()> std::unique_ptr<imb::Kernel> kernel() {
  return Make();
}

template <std::unique_ptr<imb::ext::OneSided> (*Make)()> pio::ModuleInfo info(bool has_modes) {
  pio::ModuleInfo m = imb::module_info(kernel<Make>, imb::create<kernel<Make>>);
  const imb::Traits t = Make()->traits();
  m.summary = std::string("IMB-EXT ") + t.name +
              (has_modes ? " (one-sided; Mode aggregate or non-aggregate)" : " (window overhead)");
  m.reference = std::string("IMB 3.2 User Guide ") + t.section + ", §4.2.2.2, §5";
  m.directives = imb::ext::directives(has_modes);
  return m;
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    info<imb::ext::make_unidir_put>(true), info<imb::ext::make_unidir_get>(true),
    info<imb::ext::make_bidir_put>(true), info<imb::ext::make_bidir_get>(true),
    info<imb::ext::make_accumulate>(true), info<imb::ext::make_window>(false)})
