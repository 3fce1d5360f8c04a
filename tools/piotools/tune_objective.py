"""What pio-tune maximises: the blocks' figure of merit (results.merit: bandwidth in MiB/s,
operations per second, or the time per operation of a communication test, taken as its
inverse so that higher is always better), per test the median over its repetitions, per block
the geometric mean over its tests, and over the blocks either their geometric mean (the
default: every block weighs the same, whatever its unit) or one named block."""
import math

from . import results, stats


class ObjectiveError(Exception):
    """A run the objective cannot be computed for (a failed test, no repetitions)."""


def performance(test):
    """(unit, values): a test's figure of merit per repetition, higher is better (a time per
    operation inverted)."""
    m = results.merit(test)
    vals = [float(v) for v in m.values]
    if any(not (v > 0 and math.isfinite(v)) for v in vals):
        raise ObjectiveError(f"{test.name}: a repetition's {m.field} is not positive")
    return (m.unit if m.higher_is_better else f"1/{m.unit}",
            vals if m.higher_is_better else [1.0 / v for v in vals])


def test_key(t):
    """How a test is named across trials: 'block / test [params]'."""
    return f"{t.block_label} / {t.label} [{results.params_text(t.params)}]"


class Objective:
    """`rule` is "geomean" or "block=LABEL"."""

    def __init__(self, rule="geomean"):
        self.rule = rule
        self.block = rule[6:] if rule.startswith("block=") else None
        if rule != "geomean" and not self.block:
            raise ValueError(f"objective {rule!r}: write geomean or block=LABEL")

    def describe(self):
        merit = ("the median over repetitions of each test's figure of merit (MiB/s, ops/s, or "
                 "1/time per operation), geometric mean over the block's tests")
        if self.block:
            return f"block {self.block}: {merit}"
        return f"geometric mean over the blocks of {merit}"

    def tests(self, doc, complete=True):
        """The tests the objective reads; with `complete`, every one must have succeeded."""
        out = []
        for t in results.tests(doc):
            if self.block and t.block_label != self.block:
                continue
            if t.error:
                if complete:
                    raise ObjectiveError(f"{t.name} failed: {t.error}")
                continue
            if t.reps:
                out.append(t)
        if complete and not out:
            raise ObjectiveError(f"{doc.get('_path', 'the run')}: no completed test" +
                                 (f" in block {self.block}" if self.block else ""))
        return out

    def test_values(self, doc, complete=True):
        """{test key: median performance} of a run."""
        return {test_key(t): float(stats.np.median(performance(t)[1]))
                for t in self.tests(doc, complete)}

    def combine(self, per_test):
        """The objective of {test key: value} (a geometric mean per block, then over blocks)."""
        blocks = {}
        for key, v in per_test.items():
            blocks.setdefault(key.split(" / ")[0], []).append(v)
        return stats.geometric_mean([stats.geometric_mean(v) for v in blocks.values()])

    def value(self, doc):
        """The objective of a complete run."""
        return self.combine(self.test_values(doc))

    def per_repetition(self, doc):
        """The objective of each repetition (repetition i of every test combined), the samples
        the confirmation compares; a run whose tests ran different numbers of repetitions
        gives its one objective value."""
        tests = self.tests(doc)
        reps = [performance(t)[1] for t in tests]
        n = min(len(r) for r in reps)
        if any(len(r) != n for r in reps):
            return [self.value(doc)]
        return [self.combine({test_key(t): r[i] for t, r in zip(tests, reps)})
                for i in range(n)]

    def unit(self, doc):
        """The objective's unit: the tests' one unit, or 'geometric mean' when they differ."""
        units = {performance(t)[0] for t in self.tests(doc)}
        return units.pop() if len(units) == 1 else "geometric mean of mixed units"

    def steps(self, doc):
        """How far a run has come: its completed tests, each counted once per round (Rounds)."""
        return sum(len({r.get("round", 1) for r in t.reps})
                   for t in self.tests(doc, complete=False))

    def relative(self, doc, reference):
        """(steps done, geometric mean of this run's completed tests over `reference`'s values
        of the same tests) for pruning a run in progress; (0, None) when nothing is comparable
        yet."""
        mine = self.test_values(doc, complete=False)
        ratios = [mine[k] / reference[k] for k in mine if reference.get(k)]
        if not ratios:
            return 0, None
        return self.steps(doc), stats.geometric_mean(ratios)
