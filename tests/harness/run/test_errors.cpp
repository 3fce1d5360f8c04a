// Error consensus (docs/reference/reliability.md): a module that throws on one rank in any of the
// seven methods fails that test or module on every rank with the failing rank's message; the run
// goes on to the next module and exits non-zero.
#include <catch2/catch.hpp>

#include "mpi_test.hpp"

using pio::test::on_root;

namespace {
std::string faulty_then_null(const pio::test::TempDir &dir, const std::string &method,
                             int fail_test, bool use_file) {
  return "TestFile " + dir.file("faults.dat") + "\n<ap_module>\nModuleName test_faults\nFailIn " +
         method + "\nFailRank " + std::to_string(pio::test::size() - 1) + "\nFailTest " +
         std::to_string(fail_test) + "\nUseFile " + (use_file ? "on" : "off") +
         "\n</ap_module>\n<ap_module>\nModuleName null\nWorkUnits 2\n</ap_module>\n";
}
} // namespace

// 4 ranks: ranks 1 and 2 are neither the failing (last) rank nor rank 0, and must still learn of
// the failure.
TEST_CASE("a failure on one rank in any of the seven methods reaches every rank",
          "[errors][4ranks]") {
  const char *methods[] = {"init_module",     "describe_test", "before_work_unit", "work_unit",
                           "after_work_unit", "cleanup_test",  "cleanup_module"};
  for (const char *method : methods) {
    for (bool use_file : {true, false}) {
      DYNAMIC_SECTION(method << (use_file ? " with file" : " without file")) {
        pio::test::TempDir dir;
        const auto ran =
            pio::test::run_config(dir, "faults", faulty_then_null(dir, method, 1, use_file));
        REQUIRE(pio::test::all_ranks(ran.exit_code == 1));
        REQUIRE(on_root([&] {
          const auto &faulty = ran.results.at("modules").at(0);
          const auto &null = ran.results.at("modules").at(1);
          const std::string expect = std::string("injected failure in ") + method + " on rank " +
                                     std::to_string(pio::test::size() - 1);
          // The error is recorded where it happened: on the module or on test 1.
          std::string recorded = faulty.at("error").is_null() ? "" : faulty["error"].dump();
          for (const auto &t : faulty.at("tests"))
            if (!t.at("error").is_null())
              recorded += t["error"].dump();
          CHECK(recorded.find(expect) != std::string::npos);
          CHECK(ran.err.find(expect) != std::string::npos);
          const bool module_level =
              std::string(method) == "init_module" || std::string(method) == "cleanup_module";
          if (!module_level) {
            // Test 0 completed before test 1 failed, and its results were kept.
            CHECK(faulty.at("tests").at(0).at("error").is_null());
            CHECK(faulty["tests"][0].at("reps").size() == 1);
            CHECK(!faulty["tests"].at(1).at("error").is_null());
          }
          // The next module still ran.
          CHECK(null.at("error").is_null());
          CHECK(null.at("tests").at(0).at("reps").size() == 1);
          return recorded.find(expect) != std::string::npos && null["error"].is_null() &&
                 null["tests"][0]["reps"].size() == 1;
        }));
        // The harness deleted the test file it created, even after the failure.
        REQUIRE(pio::test::all_ranks(!pio::test::exists(dir.file("faults.dat"))));
      }
    }
  }
}
