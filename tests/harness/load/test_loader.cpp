// The loader (Boost.DLL): a real module, a missing file, a wrong API version (refused before
// anything else is called, naming both versions), a missing symbol; directory scans
// (manifests: tests/harness/load/test_manifest.cpp).
#include <catch2/catch.hpp>

#include <fstream>

#include "load/catalog.hpp"
#include "mpi_test.hpp"
#include "pio/version.hpp"

using Catch::Matchers::Contains;

TEST_CASE("a real module loads and lists its modules", "[loader]") {
  auto lib = pio::harness::load_library(pio::test::module_dir() + "/simple_strided.so");
  REQUIRE(lib.modules->size() == 1);
  CHECK(lib.modules->front().name == "simple_strided");
  auto inst = pio::harness::instantiate(lib, lib.modules->front());
  CHECK(inst.module != nullptr);
  CHECK(inst.lib == lib.lib); // the instance keeps its library loaded
}

TEST_CASE("a backend object loads its backends; one built for another API version is refused "
          "before any call",
          "[loader][backend]") {
  const auto lib = pio::harness::load_library(pio::test::module_dir() + "/posix_backend.so");
  CHECK(lib.modules->empty());
  REQUIRE(lib.backends->size() == 1);
  const auto &b = lib.backends->front();
  CHECK(b.name == "posix");
  CHECK(b.capabilities.has(pio::io::Capability::ODirect));
  CHECK(!b.capabilities.has(pio::io::Capability::SharedPointers));
  REQUIRE(b.options.size() == 1);
  CHECK(b.options[0].spec.name == "ODirect");
  CHECK(b.options[0].asks_for == pio::io::Capability::ODirect);
  const std::string path = std::string(PIO_BAD_MODULE_DIR) + "/bad_version_backend.so";
  CHECK_THROWS_WITH(pio::harness::load_library(path),
                    Contains("module API version 999") &&
                        Contains("module API version " + std::to_string(pio::kApiVersion)) &&
                        Contains(path));
}

TEST_CASE("a missing module file is a clear error", "[loader]") {
  CHECK_THROWS_WITH(pio::harness::load_library("/nonexistent/dir/x.so"),
                    Contains("/nonexistent/dir/x.so") && Contains("does not exist"));
}

TEST_CASE("a wrong API version is refused naming both versions", "[loader]") {
  const std::string path = std::string(PIO_BAD_MODULE_DIR) + "/bad_version.so";
  CHECK_THROWS_WITH(pio::harness::load_library(path),
                    Contains("module API version 999") &&
                        Contains("module API version " + std::to_string(pio::kApiVersion)) &&
                        Contains(path));
}

TEST_CASE("a module built with another ABI is refused naming both, before any call", "[loader]") {
  const std::string path = std::string(PIO_BAD_MODULE_DIR) + "/bad_abi.so";
  CHECK_THROWS_WITH(pio::harness::load_library(path),
                    Contains(path) && Contains("another ABI") &&
                        Contains("MPI library: module Open MPI, harness MPICH") &&
                        Contains("C++ library: module libc++ abi 1, harness libstdc++") &&
                        Contains("Open MPI 4.1.4"));
}

TEST_CASE("the ABI comparison names only what differs", "[loader]") {
  const pio::AbiFingerprint &mine = pio::harness::harness_abi();
  CHECK(pio::harness::abi_mismatch(mine, mine).empty());
  pio::AbiFingerprint other = mine;
  other.test_spec_size += 8;
  const std::string diff = pio::harness::abi_mismatch(other, mine);
  CHECK_THAT(diff, Contains("sizeof(TestSpec)") && !Contains("MPI library"));
}

TEST_CASE("a shared object without the API symbol is not a module", "[loader]") {
  CHECK_THROWS_WITH(pio::harness::load_library(std::string(PIO_BAD_MODULE_DIR) + "/no_symbol.so"),
                    Contains("no pio_api_version symbol"));
}

TEST_CASE("a scan reads manifests only; objects without one are opened when a name is missing",
          "[loader]") {
  auto cat = pio::harness::scan_modules({pio::test::module_dir(), PIO_BAD_MODULE_DIR});
  CHECK(cat.libraries.empty()); // nothing opened yet
  CHECK(cat.unlisted.size() == 4); // bad_version, no_symbol, bad_abi, bad_version_backend
  CHECK(cat.find("simple_strided") != nullptr);
  CHECK(cat.find("Simple Strided") != nullptr); // by title too
  CHECK(cat.find("null") != nullptr);
  CHECK(cat.libraries.size() == 2); // only the two objects asked for
  CHECK(cat.problems.empty());
  CHECK(cat.find("no_such_module") == nullptr);
  CHECK(cat.problems.size() == 4); // the four fixtures without a manifest, opened and refused
}

TEST_CASE("a truncated or broken module file is refused by name, never mapped", "[loader]") {
  pio::test::TempDir dir;
  // Half of a real module: dlopen of it would die of SIGBUS.
  const auto whole = pio::test::read_bytes(pio::test::module_dir() + "/null.so");
  {
    std::ofstream f(dir.file("half.so"), std::ios::binary);
    f.write(reinterpret_cast<const char *>(whole.data()),
            static_cast<std::streamsize>(whole.size() / 2));
  }
  pio::test::write_text(dir.file("text.so"), "not a shared object\n");
  CHECK_THROWS_WITH(pio::harness::load_library(dir.file("half.so")),
                    Contains(dir.file("half.so")) && Contains("is truncated"));
  CHECK_THROWS_WITH(pio::harness::load_library(dir.file("text.so")),
                    Contains(dir.file("text.so")) && Contains("is not an ELF file"));
  auto cat = pio::harness::scan_modules({dir.path(), pio::test::module_dir()});
  CHECK(cat.find("null") != nullptr);
  CHECK(cat.problems.empty()); // the broken files were never opened
  CHECK(cat.find("no_such_module") == nullptr);
  CHECK(cat.problems.size() == 2);
}

TEST_CASE("the same module in two directories is reported with both paths", "[loader]") {
  pio::test::TempDir a, b;
  for (const auto *d : {&a, &b}) {
    const auto bytes = pio::test::read_bytes(pio::test::module_dir() + "/null.so");
    std::ofstream f(d->file("null.so"), std::ios::binary);
    f.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  }
  // The same directory twice is one directory, not a duplicate.
  auto once = pio::harness::scan_modules({a.path(), a.path()});
  CHECK(once.find("null") != nullptr);
  CHECK(once.duplicates.empty());
  // Objects without a manifest (opened because no manifest names the module): warned.
  auto cat = pio::harness::scan_modules({a.path(), b.path()});
  CHECK(cat.find("null") != nullptr);
  REQUIRE(cat.duplicates.count("null") == 1);
  const auto warnings = cat.duplicate_warnings();
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Contains(a.file("null.so")) && Contains(b.file("null.so")) &&
                              Contains(a.file("null.so") + " is used"));
}
