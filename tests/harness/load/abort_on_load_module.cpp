// Test fixture: a complete module whose static initialiser calls abort(), so any process that
// opens it dies of SIGABRT. A run that does not name it must never open it.
#include <cstdlib>

#include "pio/pio.hpp"

namespace {
struct AbortOnLoad {
  AbortOnLoad() { std::abort(); }
} abort_on_load;

class Never : public pio::Module {
public:
  std::vector<pio::TestSpec> init_module(const pio::ModuleContext &) override { return {}; }
  void describe_test(pio::TestContext &) override {}
  std::int64_t work_unit(pio::UnitContext &) override { return 0; }
};
} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    pio::ModuleInfo("abort_on_load", pio::make_module<Never>)})
