// Byte-exact layout of simple strided (thesis §3.4.1, Fig. 3.5) in every temporal mode
// (§3.4.2), checked on the file image against an independent computation of who owns each
// byte; and Verify catching misplaced data.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "mpi_test.hpp"
#include "pattern_checks.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

struct Layout {
  std::int64_t header, strip, stride, units, strips_per_unit;
};

/// Owner of file byte o by the definition: the stripe is `stride` long, rank r's strip sits at
/// r * strip inside it; bytes before the header or past the ranks' strips belong to nobody.
int owner(const Layout &l, std::int64_t o, int nprocs) {
  if (o < l.header)
    return -1;
  const std::int64_t within = (o - l.header) % l.stride;
  const std::int64_t r = within / l.strip;
  return r < nprocs ? static_cast<int>(r) : -1;
}

/// The expected file image: the length the layout ends at, the ranks' strips, a zero header,
/// and zero gaps when holes_zero. (Written through a file view, ROMIO's data sieving and
/// two-phase buffers may fill never-written holes inside the accessed extent: those bytes belong
/// to no rank and are unspecified.)
pio::test::Image layout_image(const Layout &l, int nprocs, bool holes_zero) {
  const std::int64_t expect_len =
      l.header + l.units * l.strips_per_unit * l.stride - (l.stride - nprocs * l.strip);
  return {expect_len, [=](std::int64_t o) {
            const int r = owner(l, o, nprocs);
            return r < 0 && o >= l.header && !holes_zero ? pio::test::kUnspecified : r;
          }};
}

/// Checks the file ss.dat in dir byte for byte against the layout's image after `mode`.
bool image_matches(const pio::test::TempDir &dir, const Layout &l, int nprocs,
                   const std::string &mode, bool holes_zero) {
  const std::string problem =
      pio::test::compare_file(dir.file("ss.dat"), layout_image(l, nprocs, holes_zero), mode);
  CHECK(problem == "");
  return problem.empty();
}

std::string config(const pio::test::TempDir &dir, const std::string &mode, bool view,
                   bool collective, const Layout &l) {
  return "TestFile " + dir.file("ss.dat") + "\nKeepFiles on\nVerify on\nFileView " +
         (view ? "on" : "off") + "\nCollective " + (collective ? "on" : "off") +
         "\n<ap_module>\nModuleName \"Simple Strided (" + mode + ")\"\nBufferSizes " +
         std::to_string(l.strip * l.strips_per_unit) + "\nStripSize " + std::to_string(l.strip) +
         "\nStride " + std::to_string(l.stride) + "\nWorkUnits " + std::to_string(l.units) +
         "\nHeaderOffset " + std::to_string(l.header) + "\n</ap_module>\n";
}

} // namespace

// 4 ranks: rank r's strip sits at r x strip in a stripe of P strips (and a gap).
TEST_CASE("simple strided writes the byte-exact layout of Fig. 3.5", "[simple_strided][4ranks]") {
  const int n = pio::test::size();
  const Layout layouts[] = {
      {0, 1024, 1024 * n, 3, 1},       // one strip per unit, no gaps
      {100, 512, 512 * n + 256, 2, 3}, // header, several strips per unit, a gap per stripe
  };
  for (const auto &l : layouts)
    for (bool view : {true, false})
      for (bool collective : {false, true}) {
        DYNAMIC_SECTION("header " << l.header << " strip " << l.strip << " view " << view
                                  << " collective " << collective) {
          pio::test::TempDir dir;
          const auto ran =
              pio::test::run_config(dir, "ss", config(dir, "write", view, collective, l));
          REQUIRE(all_ranks(ran.exit_code == 0));
          REQUIRE(on_root([&] {
            const auto &t = ran.results.at("modules").at(0).at("tests").at(0);
            CHECK(t.at("reps").at(0).at("bytes") == l.units * l.strip * l.strips_per_unit * n);
            return image_matches(dir, l, n, "write", !view);
          }));
        }
      }
}

TEST_CASE("simple strided runs and verifies in every temporal mode", "[simple_strided]") {
  const int n = pio::test::size();
  const Layout l{64, 256, 256 * n + 64, 2, 2};
  for (const auto &mode : pio::test::temporal_modes())
    for (bool collective : {false, true}) {
      DYNAMIC_SECTION(mode << " collective " << collective) {
        pio::test::TempDir dir;
        const auto ran =
            pio::test::run_config(dir, "modes", config(dir, mode, true, collective, l));
        REQUIRE(all_ranks(ran.exit_code == 0));
        REQUIRE(on_root([&] {
          const auto &t = ran.results.at("modules").at(0).at("tests").at(0);
          CHECK(t.at("params").at("mode") == mode);
          // read-modify-write reads and writes every byte.
          const int bytes_factor = mode == "read-modify-write" ? 2 : 1;
          CHECK(t.at("reps").at(0).at("bytes") ==
                bytes_factor * l.units * l.strip * l.strips_per_unit * n);
          // Read-type modes write the data by explicit offsets first, so holes stay zero.
          const bool holes_zero = mode != "write" && mode != "re-write";
          return image_matches(dir, l, n, mode, holes_zero);
        }));
      }
    }
}

TEST_CASE("Verify reports the first misplaced byte", "[verify]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "badview",
      "TestFile " + dir.file("bv.dat") +
          "\nVerify on\n<ap_module>\nModuleName test_bad_view\n</ap_module>\n");
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    const std::string err =
        ran.results.at("modules").at(0).at("tests").at(0).at("error").at("message");
    // Rank 0's unit 0 covers bytes 0..63 but was written at 1..64: byte 0 is wrong.
    CHECK(err.find("verification failed") != std::string::npos);
    CHECK(err.find("rank 0, file offset 0") != std::string::npos);
    return err.find("rank 0, file offset 0") != std::string::npos;
  }));
}

TEST_CASE("bad simple strided directives are clear errors before any I/O", "[simple_strided]") {
  pio::test::TempDir dir;
  const auto ran =
      pio::test::run_config(dir, "bad",
                            "TestFile " + dir.file("bad.dat") +
                                "\n<ap_module>\nModuleName simple_strided\nBufferSizes "
                                "1000\nStripSize 300\n</ap_module>\n");
  // A config error the module finds (pio::DirectiveError): exit 2 at the StripSize line, from
  // the pre-flight check, so no results are written.
  REQUIRE(all_ranks(ran.exit_code == 2 && ran.results.is_null()));
  REQUIRE(on_root([&] {
    const std::string &err = ran.err;
    CHECK(err.find("bad.conf:5: StripSize: ") != std::string::npos);
    CHECK(err.find("not a multiple of StripSize") != std::string::npos);
    return err.find("bad.conf:5: StripSize: ") != std::string::npos &&
           err.find("not a multiple of StripSize") != std::string::npos;
  }));
  REQUIRE(all_ranks(!pio::test::exists(dir.file("bad.dat"))));
}

TEST_CASE("simple strided sizes below their declared limits are config errors",
          "[simple_strided]") {
  // The module declares StripSize and Stride at least 1 byte and WorkUnits at least 1 (the
  // engine's); the harness rejects smaller values at the directive's line.
  pio::test::expect_limit_error("simple_strided", "  StripSize 0\n", "StripSize");
  pio::test::expect_limit_error("simple_strided", "  Stride 0\n", "Stride");
  pio::test::expect_limit_error("simple_strided", "  WorkUnits 0\n", "WorkUnits");
}
