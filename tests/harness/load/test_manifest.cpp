// Loading from manifests (docs/reference/reliability.md, "Loading"): pio_add_module writes a
// manifest listing what each object exports; a run reads manifests as text and opens only the
// objects its config names, so a truncated, garbage or aborting object beside them is never opened;
// objects without a manifest still load, with a warning; stale manifests, API mismatches and
// duplicates are reported; --list-modules opens each object in a child process.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <boost/filesystem.hpp>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "load/catalog.hpp"
#include "load/manifest.hpp"
#include "plan/module_plan.hpp"
#include "mpi_test.hpp"
#include "pio/version.hpp"

using Catch::Matchers::Contains;
using pio::test::all_ranks;
using pio::test::on_root;

namespace {

/// Copies a file on rank 0 (a fresh file: its modification time is now).
void copy_file(const std::string &from, const std::string &to) {
  if (pio::test::rank() != 0)
    return;
  const auto bytes = pio::test::read_bytes(from);
  std::ofstream f(to, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string text_of(const std::string &path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// A module directory holding null.so and its manifest (written after the object).
void put_null(const pio::test::TempDir &dir) {
  copy_file(pio::test::module_dir() + "/null.so", dir.file("null.so"));
  copy_file(pio::test::module_dir() + "/null.pio-manifest", dir.file("null.pio-manifest"));
}

/// Broken objects without manifests: half of a real module (dlopen would die of SIGBUS), text,
/// and a module whose static initialiser calls abort().
void put_broken(const pio::test::TempDir &dir) {
  if (pio::test::rank() == 0) {
    const auto whole = pio::test::read_bytes(pio::test::module_dir() + "/simple_strided.so");
    std::ofstream f(dir.file("half.so"), std::ios::binary);
    f.write(reinterpret_cast<const char *>(whole.data()),
            static_cast<std::streamsize>(whole.size() / 2));
  }
  copy_file(std::string(PIO_CRASHING_MODULE_DIR) + "/abort_on_load.so",
            dir.file("abort_on_load.so"));
  pio::test::write_text(dir.file("text.so"), "not a shared object\n");
}

std::string null_config(const pio::test::TempDir &dir, const std::string &module = "null") {
  return "TestFile " + dir.file("x.dat") + "\n<ap_module>\nModuleName " + module +
         "\n</ap_module>\n";
}

/// Runs config on the module path `module_dirs`, then a directory of the in-tree backends (each
/// object and its manifest, written after it): every block's Interface needs its backend.
pio::test::Ran run_in(const pio::test::TempDir &dir, const std::string &name,
                      const std::string &config, std::vector<std::string> module_dirs) {
  pio::test::TempDir backends;
  for (const char *b : {"mpiio_backend", "posix_backend", "hdf5_backend"}) {
    copy_file(pio::test::module_dir() + "/" + b + ".so", backends.file(std::string(b) + ".so"));
    copy_file(pio::test::module_dir() + "/" + b + ".pio-manifest",
              backends.file(std::string(b) + ".pio-manifest"));
  }
  MPI_Barrier(MPI_COMM_WORLD); // files written by rank 0 are there
  pio::harness::RunOptions opt;
  opt.module_dirs = std::move(module_dirs);
  opt.module_dirs.push_back(backends.path());
  return pio::test::run_config_with(dir, name, config, opt);
}

} // namespace

TEST_CASE("pio_add_module writes a manifest beside each module listing what it exports",
          "[loader]") {
  namespace fs = boost::filesystem;
  int objects = 0, manifests = 0;
  for (fs::directory_iterator it(pio::test::module_dir()), end; it != end; ++it) {
    if (it->path().extension() == ".so")
      ++objects;
    if (it->path().extension() != ".pio-manifest")
      continue;
    ++manifests;
    const auto m = pio::harness::read_manifest(it->path().string());
    const std::string so = pio::test::module_dir() + "/" + m.object;
    INFO(it->path().string());
    CHECK(m.format == pio::harness::kManifestFormat);
    CHECK(pio::harness::manifest_path_for(so) == it->path().string());
    CHECK(m.api_version == pio::kApiVersion);
    CHECK(pio::harness::abi_mismatch(m.abi, pio::harness::harness_abi()).empty());
    CHECK(m.build_id == pio::harness::elf_build_id(so));
    CHECK(std::regex_match(m.build_id, std::regex("[0-9a-f]{16,}")));
    CHECK(fs::last_write_time(it->path()) >= fs::last_write_time(so));
    const auto lib = pio::harness::load_library(so);
    std::vector<std::pair<std::string, std::string>> exported;
    for (const auto &info : *lib.modules)
      exported.emplace_back(info.name, info.title);
    CHECK(m.modules == exported);
    std::vector<std::string> backends; // a backend object's manifest lists its backends
    for (const auto &info : *lib.backends)
      backends.push_back(info.name);
    CHECK(m.backends == backends);
  }
  CHECK(objects > 10);
  CHECK(manifests == objects); // every module built by pio_add_module has one
  const auto simple =
      pio::harness::read_manifest(pio::test::module_dir() + "/simple_strided.pio-manifest");
  CHECK(simple.object == "simple_strided.so");
  CHECK(simple.modules ==
        std::vector<std::pair<std::string, std::string>>{{"simple_strided", "Simple Strided"}});
  // The backends are objects of their own, with `backend <word>` lines.
  const auto posix =
      pio::harness::read_manifest(pio::test::module_dir() + "/posix_backend.pio-manifest");
  CHECK(posix.object == "posix_backend.so");
  CHECK(posix.modules.empty());
  CHECK(posix.backends == std::vector<std::string>{"posix"});
}

TEST_CASE("pio-manifest writes the manifest of a module and fails clearly on anything else",
          "[loader]") {
  pio::test::TempDir dir;
  REQUIRE(on_root([&] {
    const std::string tool = PIO_MANIFEST_TOOL;
    const std::string good =
        tool + " " + pio::test::module_dir() + "/null.so " + dir.file("null.pio-manifest");
    CHECK(std::system(good.c_str()) == 0);
    CHECK(text_of(dir.file("null.pio-manifest")) ==
          text_of(pio::test::module_dir() + "/null.pio-manifest"));
    // A stale manifest from an earlier build is removed, never left beside a broken object.
    std::ofstream(dir.file("bad.pio-manifest")) << "format 1\n";
    const std::string bad_object = std::string(PIO_BAD_MODULE_DIR) + "/no_symbol.so";
    const std::string bad =
        tool + " " + bad_object + " " + dir.file("bad.pio-manifest") + " 2> " + dir.file("err.txt");
    const int status = std::system(bad.c_str());
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    CHECK_THAT(text_of(dir.file("err.txt")),
               Contains("pio-manifest: error: cannot write the module manifest of " + bad_object +
                        ": module file " + bad_object + " has no pio_api_version symbol"));
    CHECK(!pio::test::exists(dir.file("bad.pio-manifest")));
    return true;
  }));
}

TEST_CASE("a run opens only the object its config names: broken objects beside it stay closed",
          "[loader]") {
  pio::test::TempDir dir;
  put_null(dir);
  put_broken(dir);
  const auto ran = run_in(dir, "only", null_config(dir), {dir.path()});
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK(ran.results.at("modules").at(0).at("module") == "null");
    CHECK(ran.err.find("half.so") == std::string::npos);
    CHECK(ran.err.find("abort_on_load") == std::string::npos);
    CHECK(ran.err.find("warning") == std::string::npos);
    return ran.results.at("modules").at(0).at("module") == "null";
  }));
  // By title too, and "Title (mode)" is resolved from the manifests alone.
  const auto titled = run_in(dir, "titled", null_config(dir, "Null"), {dir.path()});
  REQUIRE(all_ranks(titled.exit_code == 0));
}

TEST_CASE("an object without a manifest is opened only if no manifest provides the module, "
          "with a warning; a broken one beside it is reported by name",
          "[loader]") {
  pio::test::TempDir dir;
  // test_faults is never installed, so no manifest on the default path provides it.
  copy_file(pio::test::module_dir() + "/test_faults.so", dir.file("test_faults.so"));
  put_broken(dir);
  const std::string config = "TestFile " + dir.file("x.dat") +
                             "\n<ap_module>\nModuleName test_faults\nTests 1\n</ap_module>\n";
  const auto ran = run_in(dir, "unlisted", config, {dir.path()});
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err,
               Contains("warning: " + dir.file("test_faults.so") + " has no module manifest (" +
                        dir.file("test_faults.pio-manifest") +
                        "), so it was opened to look for module test_faults"));
    CHECK_THAT(ran.err, Contains(dir.file("abort_on_load.so") +
                                 ": opening it killed the process with SIGABRT"));
    CHECK_THAT(ran.err, Contains("module file " + dir.file("half.so") + " is truncated"));
    return ran.results.at("modules").at(0).at("module") == "test_faults";
  }));
  // A name no object provides: every object without a manifest was tried, the run survives.
  const auto none = run_in(dir, "none", null_config(dir, "no_such_thing"), {dir.path()});
  REQUIRE(all_ranks(none.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(none.err, Contains(dir.file("abort_on_load.so") +
                                  ": opening it killed the process with SIGABRT") &&
                             Contains("ModuleName \"no_such_thing\": no such module"));
    return true;
  }));
}

TEST_CASE("a stale manifest or one whose object is missing is reported with the fix", "[loader]") {
  pio::test::TempDir dir, empty;
  put_null(dir);
  if (pio::test::rank() == 0) {
    // The object changed after its manifest was written.
    struct timespec later[2];
    clock_gettime(CLOCK_REALTIME, &later[0]);
    later[0].tv_sec += 60;
    later[1] = later[0];
    CHECK(utimensat(AT_FDCWD, dir.file("null.so").c_str(), later, 0) == 0);
  }
  const auto ran = run_in(dir, "stale", null_config(dir), {dir.path()});
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err,
               Contains(dir.file("stale.conf") + ":3: module manifest " +
                        dir.file("null.pio-manifest") + " is stale: " + dir.file("null.so") +
                        " was modified after the manifest was written") &&
                   Contains("fix: rebuild the module"));
    return true;
  }));
  copy_file(pio::test::module_dir() + "/null.pio-manifest", empty.file("null.pio-manifest"));
  const auto missing = run_in(empty, "missing", null_config(empty), {empty.path()});
  REQUIRE(all_ranks(missing.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(missing.err, Contains("module manifest " + empty.file("null.pio-manifest") +
                                     " names " + empty.file("null.so") + ", which does not exist"));
    return true;
  }));
}

TEST_CASE("a module built for another API version is reported leading with the mismatch",
          "[loader]") {
  pio::test::TempDir dir;
  copy_file(pio::test::module_dir() + "/null.so", dir.file("null.so"));
  const std::string text = text_of(pio::test::module_dir() + "/null.pio-manifest");
  pio::test::write_text(
      dir.file("null.pio-manifest"),
      std::regex_replace(text, std::regex("api_version \\d+"), "api_version 999"));
  const auto ran = run_in(dir, "oldapi", null_config(dir), {dir.path()});
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(ran.err,
               Contains(dir.file("oldapi.conf") + ":3: module file " + dir.file("null.so") +
                        " was built for module API version 999, but this pio-harness "
                        "has module API version " +
                        std::to_string(pio::kApiVersion)));
    CHECK(ran.err.find("no such module") == std::string::npos);
    return true;
  }));
}

TEST_CASE("--list-modules lists good objects and names a broken one without dying", "[loader]") {
  pio::test::TempDir dir;
  put_null(dir);
  put_broken(dir);
  copy_file(pio::test::module_dir() + "/test_faults.so", dir.file("test_faults.so"));
  MPI_Barrier(MPI_COMM_WORLD);
  REQUIRE(on_root([&] {
    pio::harness::RunOptions opt;
    opt.module_dirs = {dir.path()};
    std::ostringstream out;
    CHECK(pio::harness::list_modules(opt, out) == 0);
    const std::string text = out.str();
    CHECK_THAT(text, Contains("\nnull  \"Null\"  (" + dir.file("null.so") + ")\n"));
    CHECK_THAT(text, Contains("\nnot loaded: " + dir.file("abort_on_load.so") +
                              ": opening it killed the process with SIGABRT (abort)"));
    CHECK_THAT(text,
               Contains("\nnot loaded: module file " + dir.file("half.so") + " is truncated"));
    CHECK_THAT(
        text, Contains("\nnot loaded: module file " + dir.file("text.so") + " is not an ELF file"));
    CHECK_THAT(text, Contains("\ntest_faults  (" + dir.file("test_faults.so") + ")\n"));
    CHECK_THAT(text, Contains("\nwarning: " + dir.file("test_faults.so") +
                              " has no module manifest (" + dir.file("test_faults.pio-manifest") +
                              "): a run opens it only when no manifest provides the module it "
                              "needs"));
    return true;
  }));
}

TEST_CASE("a build tree and its own install are not duplicates; another build of a module is",
          "[loader]") {
  pio::test::TempDir build, install, other, dir;
  put_null(build);
  put_null(install);
  copy_file(pio::test::module_dir() + "/null.so", other.file("null.so"));
  pio::test::write_text(other.file("null.pio-manifest"),
                        std::regex_replace(text_of(build.file("null.pio-manifest")),
                                           std::regex("build_id [0-9a-f]+"), "build_id 0123"));
  MPI_Barrier(MPI_COMM_WORLD);

  const auto twins = pio::harness::scan_modules({build.path(), install.path()});
  CHECK(twins.duplicates.empty());
  REQUIRE(twins.notes.size() == 1);
  CHECK(twins.notes[0] == "1 module object(s) in " + install.path() +
                              " are the same builds as in " + build.path() +
                              ", which are used (null.so)");
  const auto same = run_in(dir, "same", null_config(dir), {build.path(), install.path()});
  REQUIRE(all_ranks(same.exit_code == 0));
  REQUIRE(on_root([&] { return same.err.find("warning") == std::string::npos; }));

  auto differ = pio::harness::scan_modules({build.path(), other.path()});
  REQUIRE(differ.duplicates.count("null") == 1);
  CHECK(differ.duplicates.at("null") ==
        std::vector<std::string>{build.file("null.so"), other.file("null.so")});
  const auto warnings = differ.duplicate_warnings();
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "module null is provided by " + build.file("null.so") + " and " +
                           other.file("null.so") + "; " + build.file("null.so") +
                           " is used (remove the other, or order the module path)");
  const auto both = run_in(dir, "both", null_config(dir), {build.path(), other.path()});
  REQUIRE(all_ranks(both.exit_code == 2));
  REQUIRE(on_root([&] {
    CHECK_THAT(both.err, Contains("module null is provided by both " + build.file("null.so") +
                                  " and " + other.file("null.so")));
    return true;
  }));
}
