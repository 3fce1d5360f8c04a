// The plan of a phase's extents (modules/patterns/unit_plan.hpp): each unit's extents exactly the
// Geometry's, the Geometry asked once per unit and never again while the units are read, and a
// phase above the bound planned in batches of whole units (a unit larger than the bound alone).
// Through the harness, the engine asks the Geometry for no unit's extents inside the unit loop
// (asked_geometry_module.cpp), in every temporal mode, with Verify on.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "mpi_test.hpp"
#include "pio/patterns/strided_geometry.hpp"
#include "unit_plan.hpp" // the engine's own (modules/patterns)

using pio::patterns::Extent;

namespace {

/// Unit u of rank r: u mod 4 extents (none in every fourth unit), each of 8 bytes, counted.
class Counted : public pio::patterns::Geometry {
public:
  mutable int calls = 0;
  std::vector<Extent> extents(int rank, std::int64_t unit) const override {
    ++calls;
    std::vector<Extent> e;
    for (std::int64_t k = 0; k < unit % 4; ++k)
      e.push_back({1000 * unit + 100 * rank + 10 * k, 8});
    return e;
  }
};

/// Unit u of rank r: one run of 16 bytes at 1000 u + 100 r, counted (planned without extents()).
class CountedRun : public pio::patterns::ContiguousUnitGeometry {
public:
  mutable int calls = 0;
  Extent extent(int rank, std::int64_t unit) const override {
    ++calls;
    return {1000 * unit + 100 * rank, 16};
  }
};

template <class G>
bool same(const pio::patterns::UnitPlan &plan, const G &g, int rank, std::int64_t unit) {
  const std::vector<Extent> want = g.extents(rank, unit);
  const std::vector<Extent> got(plan.begin(unit), plan.end(unit));
  if (got.size() != want.size())
    return false;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i].offset != want[i].offset || got[i].length != want[i].length)
      return false;
  return true;
}

} // namespace

TEST_CASE("a phase that fits is planned whole, each unit asked of the Geometry once",
          "[unit_plan]") {
  Counted g;
  pio::patterns::UnitPlan plan;
  plan.fill(g, 1, 0, 10);
  CHECK(g.calls == 10);
  CHECK(plan.end() == 10);
  CHECK_FALSE(plan.holds(-1));
  CHECK_FALSE(plan.holds(10));
  for (std::int64_t u = 0; u < 10; ++u) {
    REQUIRE(plan.holds(u));
    CHECK(plan.end(u) - plan.begin(u) == u % 4);
  }
  const int asked = g.calls;
  for (std::int64_t u = 0; u < 10; ++u) // same() asks the Geometry once per unit itself
    CHECK(same(plan, g, 1, u));
  CHECK(g.calls == asked + 10);
}

TEST_CASE("a phase above the bound is planned in batches of whole units", "[unit_plan]") {
  Counted g;
  pio::patterns::UnitPlan plan;
  // Bound 8 entries (an extent or a unit's start each, one start more than units): units 0-2
  // take 3 extents and 4 starts; unit 3's 3 extents would make 11, so the first batch ends there.
  plan.fill(g, 0, 0, 12, 8);
  CHECK(plan.end() == 3);
  std::int64_t u = 0, batches = 0;
  while (u < 12) {
    if (!plan.holds(u)) {
      plan.fill(g, 0, u, 12, 8);
      ++batches;
    }
    REQUIRE(plan.holds(u));
    CHECK(same(plan, g, 0, u));
    ++u;
  }
  CHECK(plan.end() == 12);
  CHECK(batches >= 3);
  // A unit with more extents than the bound has a batch of its own.
  plan.fill(g, 0, 3, 12, 2);
  CHECK(plan.end() == 4);
  CHECK(same(plan, g, 0, 3));
  // A unit past the phase (none the harness runs) is still planned, alone.
  plan.fill(g, 0, 13, 12);
  CHECK(plan.holds(13));
  CHECK_FALSE(plan.holds(14));
  CHECK(same(plan, g, 0, 13));
}

TEST_CASE("the engine asks the Geometry for no unit's extents in the unit loop", "[unit_plan]") {
  using namespace pio::test;
  struct Flavour {
    std::string directives;
    std::vector<std::string> modes;
  };
  const Flavour flavours[] = {
      {"  Interface posix\n", {"write", "read", "re-read", "re-write", "read-modify-write"}},
      {"  FileView off\n  Collective on\n", {"write", "read"}}, // one call per extent
      {"  Interface io_uring\n  QueueDepth 4\n  TimingScope phase\n", {"write", "read"}}};
  for (const auto &f : flavours)
    for (const auto &mode : f.modes) {
      INFO(f.directives << "Mode " << mode);
      TempDir dir;
      const auto ran =
          run_config(dir, "asked",
                     "TestFile \"" + dir.file("tf") +
                         "\"\nVerify on\n<ap_module>\n  ModuleName test_asked_geometry\n  Mode " +
                         mode + "\n" + f.directives + "</ap_module>\n");
      INFO(ran.err);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        REQUIRE(ran.run.modules.size() == 1);
        REQUIRE(ran.run.modules[0].tests.size() == 1);
        CHECK_FALSE(ran.run.modules[0].tests[0].error.has_value());
        return true;
      }));
    }
}

TEST_CASE("a geometry of one run per unit is planned from its extent, in batches of whole units",
          "[unit_plan]") {
  CountedRun g;
  pio::patterns::UnitPlan plan;
  // Bound 9: a unit takes an extent and a start, the plan one start more: 4 units fit.
  plan.fill(g, 1, 0, 10, 9);
  CHECK(g.calls == 4);
  CHECK(plan.end() == 4);
  std::int64_t u = 0;
  while (u < 10) {
    if (!plan.holds(u))
      plan.fill(g, 1, u, 10, 9);
    REQUIRE(plan.holds(u));
    REQUIRE(plan.end(u) - plan.begin(u) == 1);
    CHECK(plan.begin(u)->offset == 1000 * u + 100);
    CHECK(plan.begin(u)->length == 16);
    CHECK(same(plan, g, 1, u)); // extents(), the final one, gives the same run
    ++u;
  }
  CHECK(plan.end() == 10);
}
