// Provenance in the results document (docs/reference/results.md): per-block and per-test timestamps
// in order, the environment that affects MPI-IO, the batch job, every config file's text and the
// ${VAR}s as expanded.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>

#include "backends.hpp"
#include "mpi_test.hpp"

using pio::test::on_root;

namespace {

/// Sets environment variables on this rank for the scope of a test.
struct Env {
  std::vector<std::string> names;
  void set(const std::string &name, const std::string &value) {
    ::setenv(name.c_str(), value.c_str(), 1);
    names.push_back(name);
  }
  ~Env() {
    for (const auto &n : names)
      ::unsetenv(n.c_str());
  }
};

bool iso_ms(const nlohmann::json &v) {
  static const std::regex form(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
  return v.is_string() && std::regex_match(v.get<std::string>(), form);
}

} // namespace

TEST_CASE("the results record timestamps, environment, config files and ${VAR}s",
          "[results][provenance]") {
  pio::test::TempDir dir;
  const std::string hints = dir.file("romio-hints");
  const std::string part =
      "<ap_module>\nModuleName null\nWorkUnits 3\nInterface hdf5\n</ap_module>\n";
  pio::test::write_text(hints, "cb_buffer_size 1048576\n");
  pio::test::write_text(dir.file("part.conf"), part);
  Env env;
  env.set("PIO_H5_DIR", dir.path());
  env.set("MPICH_H5_PROBE", "42");
  env.set("ROMIO_HINTS", hints);
  env.set("SLURM_JOB_ID", "4242");
  env.set("PIO_H5_NOT_MPI", "x");
  ::unsetenv("PIO_H5_LABEL");
  const std::string main_text = "TestFile ${PIO_H5_DIR}/tf\n"
                                "<ap_module>\n"
                                "ModuleName simple_strided\n"
                                "Label ${PIO_H5_LABEL:-first}\n"
                                "BufferSizes 2K 4K\n"
                                "WorkUnits 2\n"
                                "</ap_module>\n"
                                "Include part.conf\n";
  const auto ran = pio::test::run_config(dir, "prov", main_text);
  REQUIRE(pio::test::all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &d = ran.results;
    // ${VAR}: the expanded values are what ran; the raw text is kept.
    CHECK(d.at("test_file") == dir.path() + "/tf");
    CHECK(d.at("config_text") == main_text);
    const auto &files = d.at("config_files");
    REQUIRE(files.size() == 2);
    CHECK(files[0].at("path") == dir.file("prov.conf"));
    CHECK(files[0].at("included_from").is_null());
    CHECK(files[0].at("text") == main_text);
    CHECK(files[1].at("path") == dir.path() + "/part.conf");
    CHECK(files[1].at("included_from") == dir.file("prov.conf") + ":8");
    CHECK(files[1].at("text") == part);
    const auto &vars = d.at("config_variables");
    REQUIRE(vars.size() == 2);
    CHECK(vars[0] == nlohmann::json{{"name", "PIO_H5_DIR"},
                                    {"value", dir.path()},
                                    {"set", true},
                                    {"from_default", false},
                                    {"file", dir.file("prov.conf")},
                                    {"line", 1}});
    CHECK(vars[1].at("name") == "PIO_H5_LABEL");
    CHECK(vars[1].at("value") == "first");
    CHECK(vars[1].at("from_default") == true);
    CHECK(vars[1].at("line") == 4);
    CHECK(d.at("modules").at(0).at("label") == "first");

    // The environment that affects MPI-IO, and nothing else.
    const auto &e = d.at("environment");
    CHECK(e.at("MPICH_H5_PROBE") == "42");
    CHECK(e.at("ROMIO_HINTS") == hints);
    CHECK(!e.contains("PIO_H5_NOT_MPI"));
    CHECK(!e.contains("PIO_H5_DIR"));
    for (const auto &[name, value] : e.items())
      CHECK((name == "ROMIO_HINTS" || name.rfind("MPICH_", 0) == 0 ||
             name.rfind("MPIR_CVAR_", 0) == 0 || name.rfind("ROMIO_", 0) == 0 ||
             name.rfind("HWLOC_", 0) == 0));
    CHECK(d.at("romio_hints_text") == "cb_buffer_size 1048576\n");
    CHECK(d.at("batch_job") == nlohmann::json{{"scheduler", "slurm"}, {"id", "4242"},
                                             {"nodes", ""}, {"node_count", 0}, {"tasks", 0},
                                             {"partition", ""}});
    // The I/O libraries in use: those of the backends the blocks use (HDF5's version as the
    // library reports it: the null block's Interface is hdf5), MPI's first line.
    const auto &libs = d.at("io_libraries");
    CHECK(libs.size() == 2);
    CHECK(libs.at("hdf5") == pio::test::backend_info("hdf5").library_versions().at("hdf5"));
    CHECK(std::regex_match(libs.at("hdf5").get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)")));
    CHECK(libs.at("mpi").get<std::string>().rfind("MPICH Version:", 0) == 0);

    // Timestamps: ISO 8601 UTC with ms, in the order things ran.
    const auto &blocks = d.at("modules");
    REQUIRE(blocks.size() == 2);
    std::vector<std::string> order;
    bool all_iso = true;
    for (const auto &b : blocks) {
      all_iso = all_iso && iso_ms(b.at("started")) && iso_ms(b.at("finished"));
      order.push_back(b.at("started"));
      for (const auto &t : b.at("tests")) {
        all_iso = all_iso && iso_ms(t.at("started")) && iso_ms(t.at("finished"));
        order.push_back(t.at("started"));
        order.push_back(t.at("finished"));
      }
      order.push_back(b.at("finished"));
    }
    CHECK(all_iso);
    CHECK(order.size() == 2 + 2 * 2 + 2 + 2 * 1);
    CHECK(std::is_sorted(order.begin(), order.end()));
    CHECK(d.at("date").get<std::string>().substr(0, 19) <= order.front().substr(0, 19));
    CHECK(blocks[0].at("tests_planned") == 2);
    CHECK(blocks[1].at("tests_planned") == 1);
    return true;
  }));
}
