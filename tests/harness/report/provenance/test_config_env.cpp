// ${VAR} in config values (docs/reference/configuration.md, "Environment variables"): expanded
// before Dotconf reads the line, recorded, and an unset variable is an error naming file:line.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <optional>

#include "config/config.hpp"
#include "mpi_test.hpp"
#include "report/provenance.hpp"

namespace {

using pio::harness::ConfigError;
using pio::harness::parse_config;

/// Sets an environment variable for the scope of a test (unsets it after).
struct EnvVar {
  std::string name;
  EnvVar(std::string n, const std::string &value) : name(std::move(n)) {
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~EnvVar() { ::unsetenv(name.c_str()); }
};

std::string write_conf(const pio::test::TempDir &dir, const std::string &name,
                       const std::string &text) {
  pio::test::write_text(dir.file(name), text);
  return dir.file(name);
}

/// The ConfigError of parsing path, as "message | hint".
std::string error_of(const std::string &path) {
  try {
    parse_config(path);
  } catch (const ConfigError &e) {
    return std::string(e.what()) + " | " + e.hint();
  }
  return "no error";
}

} // namespace

TEST_CASE("${VAR} is expanded in values and recorded with file and line", "[config][env]") {
  pio::test::TempDir dir;
  EnvVar a("PIO_H5_A", dir.path()), b("PIO_H5_B", "16"), empty("PIO_H5_EMPTY", "");
  ::unsetenv("PIO_H5_UNSET");
  const std::string path = write_conf(dir, "env.conf",
                                      "# ${PIO_H5_UNSET} in a comment is left alone\n"
                                      "TestFile ${PIO_H5_A}/tf.${PIO_H5_B}${PIO_H5_B}\n"
                                      "Hint h5_default ${PIO_H5_UNSET:-fallback}\n"
                                      "Hint h5_empty ${PIO_H5_EMPTY:-was-empty}\n"
                                      "Hint h5_literal a$${PIO_H5_B}b$$c$d\n"
                                      "<ap_module>\nModuleName simple_strided\n</ap_module>\n");
  const auto config = parse_config(path);
  CHECK(config.global.test_file == dir.path() + "/tf.1616");
  CHECK(config.global.hints.at("h5_default") == "fallback");
  CHECK(config.global.hints.at("h5_empty") == "was-empty");
  CHECK(config.global.hints.at("h5_literal") == "a${PIO_H5_B}b$c$d");
  // The raw text stays as written; the expansions are listed in order.
  CHECK(config.text.find("TestFile ${PIO_H5_A}/tf.${PIO_H5_B}${PIO_H5_B}") != std::string::npos);
  REQUIRE(config.sources.size() == 1);
  const auto &used = config.sources[0].variables;
  REQUIRE(used.size() == 5);
  CHECK(used[0].name == "PIO_H5_A");
  CHECK(used[0].value == dir.path());
  CHECK(used[0].set);
  CHECK(!used[0].from_default);
  CHECK(used[0].file == path);
  CHECK(used[0].line == 2);
  CHECK(used[1].name == "PIO_H5_B");
  CHECK(used[2].value == "16");
  CHECK(used[3].name == "PIO_H5_UNSET");
  CHECK(!used[3].set);
  CHECK(used[3].from_default);
  CHECK(used[3].value == "fallback");
  CHECK(used[3].line == 3);
  CHECK(used[4].name == "PIO_H5_EMPTY");
  CHECK(used[4].set);
  CHECK(used[4].from_default);
}

TEST_CASE("an Include path may use ${VAR}, and each file records its own", "[config][env]") {
  pio::test::TempDir dir;
  EnvVar inc("PIO_H5_INC", "part");
  write_conf(dir, "part.conf", "Hint h5_from ${PIO_H5_INC}\n");
  const std::string path = write_conf(dir, "main.conf",
                                      "TestFile tf\nInclude ${PIO_H5_INC}.conf\n"
                                      "<ap_module>\nModuleName simple_strided\n</ap_module>\n");
  const auto config = parse_config(path);
  CHECK(config.global.hints.at("h5_from") == "part");
  REQUIRE(config.sources.size() == 2);
  CHECK(config.sources[0].included_from.empty());
  CHECK(config.sources[1].path == dir.path() + "/part.conf");
  CHECK(config.sources[1].included_from == path + ":2");
  CHECK(config.sources[1].raw == "Hint h5_from ${PIO_H5_INC}\n");
  REQUIRE(config.sources[1].variables.size() == 1);
  CHECK(config.sources[1].variables[0].file == dir.path() + "/part.conf");
  CHECK(config.sources[1].variables[0].line == 1);
}

TEST_CASE("a bad ${VAR} is an error naming file:line and the fix", "[config][env]") {
  pio::test::TempDir dir;
  ::unsetenv("PIO_H5_UNSET");
  EnvVar nl("PIO_H5_NL", "two\nlines");
  const std::string block = "<ap_module>\nModuleName simple_strided\n</ap_module>\n";
  const std::string unset =
      write_conf(dir, "unset.conf", "TestFile x\n\nTestFile ${PIO_H5_UNSET}/f\n" + block);
  CHECK(error_of(unset) == unset + ":3: environment variable PIO_H5_UNSET is not set | set it for "
                                   "the run (export PIO_H5_UNSET=...; mpiexec passes it to every "
                                   "rank), give a default with ${PIO_H5_UNSET:-value}, or write "
                                   "$${PIO_H5_UNSET} for the literal text");
  const std::string open = write_conf(dir, "open.conf", "TestFile ${PIO_H5_A/f\n" + block);
  CHECK(error_of(open).rfind(open + ":1: '${' without a closing '}' | write ${NAME}", 0) == 0);
  const std::string bad = write_conf(dir, "bad.conf", "TestFile ${1X}\n" + block);
  CHECK(error_of(bad).rfind(bad + ":1: '${1X}' is not a variable name | ", 0) == 0);
  const std::string empty = write_conf(dir, "empty.conf", "TestFile ${}\n" + block);
  CHECK(error_of(empty).rfind(empty + ":1: '${}' is not a variable name", 0) == 0);
  const std::string lines = write_conf(dir, "nl.conf", "TestFile ${PIO_H5_NL}\n" + block);
  CHECK(error_of(lines).rfind(lines + ":1: the value of ${PIO_H5_NL} contains a line break", 0) ==
        0);
  // A continued line is reported at its first physical line.
  const std::string cont =
      write_conf(dir, "cont.conf", "TestFile a\nHint h5 \\\n ${PIO_H5_UNSET}\n" + block);
  CHECK(error_of(cont).rfind(cont + ":2: environment variable PIO_H5_UNSET is not set", 0) == 0);
}

TEST_CASE("a value that makes a line too long is refused as such", "[config][env]") {
  pio::test::TempDir dir;
  EnvVar big("PIO_H5_BIG", std::string(5000, 'x'));
  const std::string path = write_conf(dir, "big.conf",
                                      "TestFile ${PIO_H5_BIG}\n<ap_module>\nModuleName "
                                      "simple_strided\n</ap_module>\n");
  CHECK(error_of(path).rfind(path + ":1: the line is longer than 4000 bytes after ${VAR} expansion",
                             0) == 0);
}

TEST_CASE("the environment recorded is what affects MPI-IO, and the batch job", "[provenance]") {
  pio::test::TempDir dir;
  pio::test::write_text(dir.file("hints"), "romio_cb_read enable\n");
  const std::string hints = "ROMIO_HINTS=" + dir.file("hints");
  std::vector<std::string> vars = {"PATH=/bin",
                                   "MPICH_ASYNC_PROGRESS=1",
                                   "MPIR_CVAR_CH4_X=2",
                                   "ROMIO_FSTYPE_FORCE=ufs:",
                                   "HWLOC_COMPONENTS=-pci",
                                   "MPICHNOT=1",
                                   "PBS_JOBID=77.server",
                                   "SLURM_JOB_ID=99",
                                   "SLURM_JOB_NODELIST=nid[001-004]",
                                   "SLURM_JOB_NUM_NODES=4",
                                   "SLURM_NTASKS=512",
                                   "SLURM_JOB_PARTITION=batch",
                                   "NOEQUALS",
                                   hints};
  std::vector<char *> env;
  for (auto &v : vars)
    env.push_back(v.data());
  env.push_back(nullptr);
  pio::RunResult run;
  pio::harness::fill_environment(run, env.data());
  CHECK(run.environment == std::map<std::string, std::string>{{"MPICH_ASYNC_PROGRESS", "1"},
                                                              {"MPIR_CVAR_CH4_X", "2"},
                                                              {"ROMIO_FSTYPE_FORCE", "ufs:"},
                                                              {"HWLOC_COMPONENTS", "-pci"},
                                                              {"ROMIO_HINTS", dir.file("hints")}});
  CHECK(run.romio_hints_text == std::optional<std::string>("romio_cb_read enable\n"));
  REQUIRE(run.batch_job);
  CHECK(run.batch_job->scheduler == "slurm"); // Slurm's id wins when both are set
  CHECK(run.batch_job->id == "99");
  CHECK(run.batch_job->nodes == "nid[001-004]"); // the allocation
  CHECK(run.batch_job->node_count == 4);
  CHECK(run.batch_job->tasks == 512);
  CHECK(run.batch_job->partition == "batch");

  // PBS alone; ROMIO_HINTS naming a directory or nothing gives no text.
  std::vector<std::string> pbs = {"PBS_JOBID=77.server", "ROMIO_HINTS=" + dir.path(),
                                  "PBS_NP=x12", "PBS_QUEUE=short"};
  std::vector<char *> env2 = {pbs[0].data(), pbs[1].data(), pbs[2].data(), pbs[3].data(),
                              nullptr};
  pio::harness::fill_environment(run, env2.data());
  REQUIRE(run.batch_job);
  CHECK(run.batch_job->scheduler == "pbs");
  CHECK(run.batch_job->id == "77.server");
  CHECK(run.batch_job->tasks == 0); // not a count: unknown, never a guess
  CHECK(run.batch_job->partition == "short");
  CHECK(!run.romio_hints_text);
  std::vector<char *> none = {nullptr};
  pio::harness::fill_environment(run, none.data());
  CHECK(run.environment.empty());
  CHECK(!run.batch_job);
}

TEST_CASE("timestamps are ISO 8601 UTC with milliseconds", "[provenance]") {
  const std::string a = pio::harness::utc_timestamp(), b = pio::harness::utc_timestamp();
  REQUIRE(a.size() == 24);
  CHECK(a[4] == '-');
  CHECK(a[10] == 'T');
  CHECK(a[19] == '.');
  CHECK(a.back() == 'Z');
  CHECK(a <= b);
}
