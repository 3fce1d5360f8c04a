// A backend for the plan's tests (tests/harness/plan): options of every kind the plan checks
// (limits, a choice that cannot be swept), no capabilities, no files: the null module runs
// through it.
#include "pio/io/backend_export.hpp"

namespace {

class OptionBackend final : public pio::io::Backend {
public:
  explicit OptionBackend(const pio::Settings &) {}
  std::unique_ptr<pio::io::OpenFile> open(MPI_Comm, const std::string &path, int,
                                          const std::map<std::string, std::string> &) override {
    throw pio::Error("the test backend testoptions opens no file (" + path + ")",
                     "run a module without files (null) through it");
  }
};

pio::io::BackendInfo info() {
  using T = pio::DirectiveType;
  pio::io::BackendInfo b("testoptions", pio::io::make_backend<OptionBackend>);
  b.summary = "a test backend: options of every kind, no capabilities, no files";
  b.options = {
      pio::io::BackendOption{
          pio::DirectiveSpec{"OptLevel", T::Integer, "2", "a level"}.between(1, 8)},
      pio::io::BackendOption{
          pio::DirectiveSpec{"OptFixed", T::Text, "a", "fixed per run", {"a", "b"}}, false}};
  return b;
}

} // namespace

PIO_EXPORT_BACKENDS(std::vector<pio::io::BackendInfo>{info()})
