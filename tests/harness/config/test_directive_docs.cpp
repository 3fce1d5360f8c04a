// The harness directives table as people read it: --list-modules and
// docs/reference/configuration.md, both generated from the table the parser uses.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "config/directive_docs.hpp"
#include "mpi_test.hpp"
#include "run/run.hpp"

using Catch::Matchers::Contains;

namespace {
const char *const kBegin = "<!-- BEGIN harness-directives";
const char *const kEnd = "<!-- END harness-directives -->";
} // namespace

TEST_CASE("docs/reference/configuration.md contains the generated harness directives table",
          "[config]") {
  std::ifstream in(PIO_SOURCE_DIR "/docs/reference/configuration.md");
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const auto begin = doc.find(kBegin);
  REQUIRE(begin != std::string::npos);
  const auto body = doc.find('\n', begin) + 1;
  const auto end = doc.find(kEnd, body);
  REQUIRE(end != std::string::npos);
  INFO(
      "docs/reference/configuration.md is out of date: replace the lines between the BEGIN and END "
      "harness-directives markers with the output of pio-harness --list-directives");
  CHECK(doc.substr(body, end - body) == pio::harness::harness_directives_markdown());
}

TEST_CASE("the Markdown table has one row per harness directive with its limits", "[config]") {
  const std::string md = pio::harness::harness_directives_markdown();
  CHECK_THAT(md, Contains("| `ModuleReps <n> or auto [<T>%] [<S>]` | block | text... | `1` |  | "
                          "repetitions of every test (1 to 1000000); auto [T%] [S]: repeat until "
                          "the 95 % interval of the median is within +-T % (default 5 %)"));
  CHECK_THAT(md, Contains("| `CacheMode <mode>` | global, block | text | `keep` |  |"));
  CHECK_THAT(md, Contains("| `CsvFile <path>` | global | text |  |  |"));
  CHECK_THAT(md, Contains("| `Hint <key> <value>` | global, block | text... |") &&
                     Contains("hint &lt;key&gt; &lt;value&gt;"));
  size_t rows = 0;
  for (size_t p = md.find("\n| `"); p != std::string::npos; p = md.find("\n| `", p + 1))
    ++rows;
  CHECK(rows == pio::harness::harness_directives().size());
}

TEST_CASE("--list-modules ends with the harness directives, limits included", "[config]") {
  pio::test::TempDir dir; // no modules in it
  pio::harness::RunOptions options;
  options.module_dirs = {dir.path()};
  std::ostringstream out;
  pio::harness::list_modules(options, out);
  const std::string text = out.str();
  CHECK_THAT(text, Contains("harness directives (global: outside blocks; block: inside "
                            "<ap_module>"));
  CHECK(text.find("harness directives") > text.find("module search path: " + dir.path()));
  CHECK_THAT(text, Contains("    ModuleReps         text...     block          repetitions of "
                            "every test (1 to 1000000); auto [T%] [S]:"));
  CHECK_THAT(text, Contains("    StepTimeout        number      global         seconds a rank"));
  CHECK_THAT(text, Contains("    Verify             text        global, block  stamp written") &&
                       Contains("[default: off] {off, on, timed}"));
  CHECK_THAT(text, Contains("    CsvFile            text        global         a CSV file"));
}

TEST_CASE("a module directive's listing line shows type, default, choices and limits", "[config]") {
  const auto line = pio::harness::directive_listing_line(pio::DirectiveSpec{
      "BufferSizes", pio::DirectiveType::Sizes, "64K", "buffer sizes", {}, 512, {}, 16});
  CHECK(line == "    BufferSizes        size...     buffer sizes [default: 64K] [at least 512; at "
                "most 16 values]");
  const auto mode = pio::harness::directive_listing_line(
      pio::DirectiveSpec{"Mode", pio::DirectiveType::Text, "write", "mode", {"write", "read"}});
  CHECK(mode == "    Mode               text        mode [default: write] {write, read}");
}
