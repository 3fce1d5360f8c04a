// pio-manifest OBJECT MANIFEST: opens one module object and writes its manifest (manifest.hpp).
// pio_add_module runs it after each module is linked; no MPI is started.
#include <cstdio>
#include <iostream>
#include <string>

#include "load/manifest.hpp"
#include "pio/error.hpp"

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: pio-manifest OBJECT.so OUTPUT.pio-manifest\n"
                 "Opens one pio-bench module object and writes the manifest pio-harness reads to "
                 "find its modules without opening it.\n";
    return 2;
  }
  const std::string object = argv[1], manifest = argv[2];
  try {
    pio::harness::write_manifest(object, manifest);
  } catch (const pio::Error &e) {
    std::remove(manifest.c_str()); // never leave the previous build's manifest beside it
    std::cerr << "pio-manifest: error: cannot write the module manifest of " << object << ": "
              << e.what() << (e.hint().empty() ? "" : " (fix: " + e.hint() + ")") << "\n";
    return 1;
  }
  return 0;
}
