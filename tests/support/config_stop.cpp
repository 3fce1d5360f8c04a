#include "config_stop.hpp"

#include <catch2/catch.hpp>

#include "mpi_test.hpp"

namespace pio::test {

namespace {

void replace_all(std::string &text, const std::string &marker, const std::string &value) {
  for (size_t at; (at = text.find(marker)) != std::string::npos;)
    text.replace(at, marker.size(), value);
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

void expect_config_stop(const std::string &config, const std::string &where,
                        const std::string &also) {
  TempDir dir;
  TempDir shm("/dev/shm");
  std::string text = config;
  replace_all(text, "@DIR@", dir.path());
  replace_all(text, "@SHM@", shm.path());
  const auto ran = run_config(dir, "bad", text, false);
  INFO(text << "\nexpected exit 2 at " << where << " with " << also << "\nstderr: " << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(all_ranks(rank() != 0 || (ran.err.rfind("pio-harness: error: config: ", 0) == 0 &&
                                    contains(ran.err, "/" + where) && contains(ran.err, also))));
  REQUIRE(all_ranks(ran.results.is_null() && !exists(dir.file("bad.json")) &&
                    !exists(dir.file("t")) && !exists(dir.file("t.0")) &&
                    !exists(shm.file("t.0"))));
}

} // namespace pio::test
