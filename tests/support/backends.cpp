#include "backends.hpp"

#include "hdf5_backend.hpp"
#include "mpiio_backend.hpp"
#include "pio/error.hpp"
#include "posix_backend.hpp"
#ifdef PIO_HAVE_IO_URING
#include "uring_backend.hpp"
#endif

namespace pio::test {

const pio::io::BackendInfo &backend_info(const std::string &name) {
  static const pio::io::BackendInfo infos[] = {
      pio::io::mpiio_info(),
      pio::io::posix_info(),
      pio::io::hdf5_info(),
#ifdef PIO_HAVE_IO_URING
      pio::io::io_uring_info(),
#endif
  };
  for (const auto &b : infos)
    if (b.name == name)
      return b;
  throw pio::Error("no in-tree backend " + name, "use mpiio, posix, hdf5 or io_uring");
}

std::unique_ptr<pio::io::Backend>
backend(const std::string &name, const std::map<std::string, std::vector<std::string>> &options) {
  const pio::io::BackendInfo &info = backend_info(name);
  std::map<std::string, std::vector<std::string>> values = options;
  for (const auto &o : info.options)
    if (!values.count(o.spec.name))
      values[o.spec.name] = {o.spec.default_value};
  return info.create(pio::Settings(values));
}

pio::io::Backend &posix() {
  static const std::unique_ptr<pio::io::Backend> b = backend("posix");
  return *b;
}

} // namespace pio::test
