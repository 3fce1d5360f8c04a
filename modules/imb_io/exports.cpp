// The IMB-IO family's shared object: every benchmark of the IMB 3.2 User Guide §4.1 Table 1
// (Open_Close; S_, P_, C_ Write / Read, blocking and non-blocking), each a module named
// imb_<benchmark> with IMB's name as its title. "P_Write_indv (non-aggregate)" selects the mode.
#include "io_module.hpp"

namespace imb::io {
pio::ModuleInfo module_info(const Benchmark &b, pio::CreateModule create);
}

namespace {

/// A CreateModule for benchmark I of the list.
template <size_t I> std::unique_ptr<pio::Module> create() {
  return std::make_unique<imb::io::IoModule>(imb::io::benchmarks().at(I));
}

template <size_t... I> std::vector<pio::ModuleInfo> infos(std::index_sequence<I...>) {
  const auto list = imb::io::benchmarks();
  return {imb::io::module_info(list.at(I), create<I>)...};
}

} // namespace

// Table 1: Open_Close and 9 flavours x Write/Read x blocking/non-blocking.
PIO_EXPORT_MODULES(infos(std::make_index_sequence<1 + 9 * 2 * 2>{}))
