// The broadcast start-up (docs/measurements/performance.md, "Start-up"): only rank 0 reads the
// config files and the manifests; the other ranks plan from what it broadcasts, an error rank 0
// finds stops every rank with exit 2, and StageModules opens node-local copies that are gone
// afterwards.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <boost/filesystem.hpp>
#include <cstdlib>
#include <fstream>

#include "config/config.hpp"
#include "guard/created_paths.hpp"
#include "load/library.hpp"
#include "mpi_test.hpp"
#include "run/startup_broadcast.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {
void write_file(const std::string &path, const std::string &text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}
bool says(const pio::test::Ran &ran, const std::string &text) {
  return on_root([&] {
    CHECK_THAT(ran.err, Catch::Matchers::Contains(text));
    return ran.err.find(text) != std::string::npos;
  });
}
/// True when dir exists and is empty, once every rank has left its run (the node's first rank
/// removes the copies as its run() returns).
bool empty_dir(const std::string &dir) {
  MPI_Barrier(MPI_COMM_WORLD);
  return boost::filesystem::is_directory(dir) && boost::filesystem::is_empty(dir);
}
} // namespace

TEST_CASE("start-up inputs survive their serialization byte for byte", "[startup]") {
  pio::harness::StartupInputs in;
  in.ok = true;
  pio::harness::ConfigSource s;
  s.path = "a.conf";
  s.included_from = "main.conf:3";
  const char raw[] = "WorkUnits ${N}\n# \xff\xfe not UTF-8\n"; // bytes that are not UTF-8
  s.raw = std::string(raw, sizeof raw - 1);
  s.sanitized = "WorkUnits 7\n";
  s.variables.push_back({"N", "7", true, false, "a.conf", 1});
  in.sources = {s, s};
  pio::harness::ModuleObject o;
  o.path = "/m/null.so";
  o.manifest_path = "/m/null.pio-manifest";
  o.manifest.format = 1;
  o.manifest.object = "null.so";
  o.manifest.api_version = 5;
  o.manifest.abi = pio::harness::harness_abi();
  o.manifest.build_id = "abc123";
  o.manifest.modules = {{"null", "Null"}, {"other", ""}};
  in.catalog.listed = {o};
  in.catalog.listed.push_back(o);
  in.catalog.listed.back().problem = "stale";
  in.catalog.listed.back().hint = "rebuild";
  in.catalog.unlisted = {"/m/x.so"};
  in.catalog.problems = {"p1"};
  in.catalog.duplicates["null"] = {"/a/null.so", "/b/null.so"};
  in.catalog.notes = {"n1"};

  const auto back = pio::harness::startup_from_bytes(pio::harness::startup_to_bytes(in));
  REQUIRE(back.ok);
  REQUIRE(back.sources.size() == 2);
  CHECK(back.sources[0].raw == s.raw);
  CHECK(back.sources[0].sanitized == s.sanitized);
  CHECK(back.sources[1].included_from == "main.conf:3");
  REQUIRE(back.sources[0].variables.size() == 1);
  const auto &v = back.sources[0].variables[0];
  CHECK((v.name == "N" && v.value == "7" && v.set && !v.from_default && v.file == "a.conf" &&
         v.line == 1));
  REQUIRE(back.catalog.listed.size() == 2);
  const auto &bo = back.catalog.listed[0];
  CHECK(bo.path == o.path);
  CHECK(bo.manifest_path == o.manifest_path);
  CHECK(bo.manifest.object == "null.so");
  CHECK(bo.manifest.api_version == 5);
  CHECK(pio::harness::abi_mismatch(bo.manifest.abi, pio::harness::harness_abi()).empty());
  CHECK(bo.manifest.build_id == "abc123");
  CHECK(bo.manifest.modules == o.manifest.modules);
  CHECK(back.catalog.listed[1].problem == "stale");
  CHECK(back.catalog.listed[1].hint == "rebuild");
  CHECK(back.catalog.unlisted == in.catalog.unlisted);
  CHECK(back.catalog.problems == in.catalog.problems);
  CHECK(back.catalog.duplicates == in.catalog.duplicates);
  CHECK(back.catalog.notes == in.catalog.notes);
  // A failed start-up sends only that.
  pio::harness::StartupInputs failed;
  failed.sources = {s};
  const auto f = pio::harness::startup_from_bytes(pio::harness::startup_to_bytes(failed));
  CHECK((!f.ok && f.sources.empty()));
  CHECK_THROWS_WITH(pio::harness::startup_from_bytes("not msgpack"),
                    Catch::Matchers::Contains("rank 0's inputs cannot be read"));
}

TEST_CASE("the config parsed from rank 0's texts opens no file and keeps its values", "[startup]") {
  pio::test::TempDir dir;
  const std::string main_conf = dir.file("p" + std::to_string(pio::test::rank()) + ".conf");
  const std::string inc = dir.file("i" + std::to_string(pio::test::rank()) + ".conf");
  write_file(inc, "<ap_module>\n  ModuleName null\n  WorkUnits ${PIO_STARTUP_T}\n</ap_module>\n");
  write_file(main_conf, "TestFile " + dir.file("t.dat") + "\nInclude " +
                            inc.substr(inc.rfind('/') + 1) + "\n");
  ::setenv("PIO_STARTUP_T", "3", 1);
  const auto read = pio::harness::parse_config(main_conf);
  // The files are gone and the variable differs: the texts rank 0 read are all that count.
  ::unlink(inc.c_str());
  ::unlink(main_conf.c_str());
  ::setenv("PIO_STARTUP_T", "9", 1);
  const auto given = pio::harness::parse_config(main_conf, read.sources);
  ::unsetenv("PIO_STARTUP_T");
  REQUIRE(given.modules.size() == 1);
  CHECK(given.text == read.text);
  CHECK(given.global.test_file == dir.file("t.dat"));
  const auto &lines = given.modules[0].module_directives;
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].args == std::vector<std::string>{"3"});
  CHECK(lines[0].file == inc);
  CHECK(lines[0].line == 3);
  CHECK(given.sources.size() == 2);
  // A file that rank 0 did not read is a bug, said as one, never a read.
  std::vector<pio::harness::ConfigSource> only_main(read.sources.begin(), read.sources.begin() + 1);
  CHECK_THROWS_WITH(pio::harness::parse_config(main_conf, only_main),
                    Catch::Matchers::Contains("is not among the files rank 0 read"));
}

TEST_CASE("every rank runs rank 0's config, not its own environment's", "[startup]") {
  pio::test::TempDir dir;
  // Rank 0 expands 3; another rank reading the file itself would plan 5 units.
  ::setenv("PIO_STARTUP_UNITS", pio::test::rank() == 0 ? "3" : "5", 1);
  auto ran = pio::test::run_config(dir, "env",
                                   "TestFile " + dir.file("t.dat") +
                                       "\n<ap_module>\nModuleName null\nWorkUnits "
                                       "${PIO_STARTUP_UNITS}\n</ap_module>\n");
  ::unsetenv("PIO_STARTUP_UNITS");
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &rep = ran.results.at("modules").at(0).at("tests").at(0).at("reps").at(0);
    CHECK(rep.at("units") == 3);
    CHECK(ran.results.at("startup_s").get<double>() > 0);
    return rep.at("units") == 3;
  }));
}

TEST_CASE("an error rank 0 finds stops every rank with its file:line and exit 2", "[startup]") {
  pio::test::TempDir dir;
  pio::test::write_text(dir.file("bad.inc"), "# included\nNoSuchDirective 1\n");
  auto ran =
      pio::test::run_config(dir, "inc", "TestFile " + dir.file("t.dat") + "\nInclude bad.inc\n");
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(says(ran, dir.file("bad.inc") + ":2:"));

  // A stale manifest, seen by rank 0 only, fails the block on every rank.
  const std::string mods = dir.file("mods");
  if (pio::test::rank() == 0) {
    boost::filesystem::create_directory(mods);
    boost::filesystem::copy_file(pio::test::module_dir() + "/null.so", mods + "/null.so");
    boost::filesystem::copy_file(pio::test::module_dir() + "/null.pio-manifest",
                                 mods + "/null.pio-manifest");
    const utimbuf older{1000000000, 1000000000};
    ::utime((mods + "/null.pio-manifest").c_str(), &older);
  }
  pio::harness::RunOptions opt;
  opt.module_dirs = {mods};
  ran = pio::test::run_config_with(
      dir, "stale",
      "TestFile " + dir.file("t.dat") + "\n<ap_module>\nModuleName null\n</ap_module>\n", opt);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(says(ran, "stale.conf:3:"));
  REQUIRE(says(ran, "is stale"));
}

TEST_CASE("StageModules: the run opens node-local copies, removed afterwards", "[startup]") {
  pio::test::TempDir dir;
  const std::string node = dir.file("node");
  if (pio::test::rank() == 0)
    ::mkdir(node.c_str(), 0700);
  auto ran = pio::test::run_config(dir, "stage",
                                   "StageModules " + node + "\nTestFile " + dir.file("t.dat") +
                                       "\n<ap_module>\nModuleName null\n</ap_module>\n");
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const std::string lib = ran.results.at("modules").at(0).at("library");
    CHECK_THAT(lib, Catch::Matchers::StartsWith(node + "/pio-modules."));
    CHECK_THAT(lib, Catch::Matchers::EndsWith("/null.so"));
    return lib.rfind(node + "/pio-modules.", 0) == 0;
  }));
  REQUIRE(all_ranks(empty_dir(node))); // the copies and their directory are gone

  // --check does no I/O: it copies nothing (pre-flight opens the modules where they are).
  pio::harness::RunOptions check;
  check.check_only = true;
  ran = pio::test::run_config_with(dir, "stagecheck",
                                   "StageModules " + node + "\nTestFile " + dir.file("t.dat") +
                                       "\n<ap_module>\nModuleName null\n</ap_module>\n",
                                   check);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(all_ranks(empty_dir(node)));

  // A directory that cannot hold one: file:line of the directive, exit 2 on every rank.
  pio::test::write_text(dir.file("plain"), "x");
  for (const std::string &bad : {dir.file("absent"), dir.file("plain")}) {
    ran = pio::test::run_config(dir, "badstage",
                                "TestFile " + dir.file("t.dat") + "\nStageModules " + bad +
                                    "\n<ap_module>\nModuleName null\n</ap_module>\n");
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, "badstage.conf:2: StageModules " + bad + ": cannot create a directory"));
    ran = pio::test::run_config_with(dir, "badstage",
                                     "TestFile " + dir.file("t.dat") + "\nStageModules " + bad +
                                         "\n<ap_module>\nModuleName null\n</ap_module>\n",
                                     check);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(says(ran, "badstage.conf:2: StageModules " + bad + ": not a writable directory"));
  }
}

TEST_CASE("remove_tracked empties a tracked directory before removing it", "[startup][guard]") {
  pio::test::TempDir dir;
  const std::string d = dir.file("made" + std::to_string(pio::test::rank()));
  REQUIRE(::mkdir(d.c_str(), 0700) == 0);
  pio::harness::track_created(d); // the directory first, as StageModules does
  write_file(d + "/a.so", "a");
  pio::harness::track_created(d + "/a.so");
  pio::harness::remove_tracked();
  REQUIRE(all_ranks(!boost::filesystem::exists(d)));
}
