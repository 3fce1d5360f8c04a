"""Application profiles for pio-score (pio-bench thesis §5.5.2, "Framework for interpreting
results"): weights per access pattern (module), temporal mode and buffer size.

A profile is a text file; '#' starts a comment. `Name TEXT` names it; every other line is a rule
`PATTERN MODE SIZE WEIGHT`: PATTERN is a module name (e.g. simple_strided) or *, MODE a temporal
mode (read, write, read-modify-write, re-read, re-write) or *, SIZE a buffer size (64K), an
inclusive range (64K..16M) or *, WEIGHT a number >= 0. A test falls under the FIRST
rule that matches it (so put specific rules before general ones), and a rule's weight is shared
equally by the tests under it; a test no rule matches has weight 0 and is listed as unweighted.

Two optional lines make one score of the per-unit scores (IO500's rule, io500.profile):
`Units GiB/s kIOPS` states the per-unit scores in GiB/s (MiB/s / 1024) and kIOPS (ops/s /
1000), and `Combine geomean` makes the score the geometric mean of the per-unit scores
(sqrt(bandwidth x metadata) for two)."""
import math
import re

SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
# `Units` words: the unit a per-unit score is stated in, from the unit it is measured in.
UNIT_SCALES = {"GiB/s": ("MiB/s", 1.0 / 1024), "MiB/s": ("MiB/s", 1.0),
               "kIOPS": ("ops/s", 1.0 / 1000), "ops/s": ("ops/s", 1.0)}
COMBINES = ("none", "geomean")


class ProfileError(Exception):
    """A profile file that cannot be used, with file:line."""


def size(textvalue):
    """Parses '64K', '16M', '4096' (binary suffixes, as in the harness's directives)."""
    m = re.fullmatch(r"(\d+)([KMGT]?)(i?B)?", textvalue.strip(), re.IGNORECASE)
    if not m:
        raise ValueError(f"not a size: {textvalue!r}")
    return int(m.group(1)) * SUFFIX[m.group(2).upper()]


class Rule:
    """One weight rule of a profile."""

    def __init__(self, pattern, mode, sizes, weight, where):
        self.pattern, self.mode, self.sizes, self.weight, self.where = \
            pattern, mode, sizes, weight, where
        lo, _, hi = sizes.partition("..")
        self.lo = None if sizes == "*" else size(lo)
        self.hi = None if sizes == "*" else size(hi) if hi else self.lo
        self.matched = 0

    def matches(self, module, mode, nbytes):
        """True if a test of `module` in `mode` with buffer size `nbytes` falls under the rule."""
        if self.pattern not in ("*", module):
            return False
        if self.mode not in ("*", mode):
            return False
        if self.lo is None:
            return True
        return nbytes is not None and self.lo <= nbytes <= self.hi

    def text(self):
        """The rule as written."""
        return f"{self.pattern} {self.mode} {self.sizes} {self.weight:g}"


class Profile:
    """A parsed profile: its name, its text and its rules in order."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, encoding="utf-8") as f:
                self.text = f.read()
        except OSError as e:
            raise ProfileError(str(e)) from e
        self.name = path
        self.rules = []
        self.units = {}  # measured unit -> (stated unit, factor)
        self.combine = "none"
        for n, line in enumerate(self.text.splitlines(), 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            where = f"{path}:{n}"
            if words[0] == "Name":
                self.name = " ".join(words[1:]).strip('"')
                continue
            if words[0] == "Units":
                for w in words[1:]:
                    if w not in UNIT_SCALES:
                        raise ProfileError(f"{where}: unknown unit {w!r} (use one of "
                                           f"{', '.join(UNIT_SCALES)})")
                    measured, factor = UNIT_SCALES[w]
                    self.units[measured] = (w, factor)
                continue
            if words[0] == "Combine":
                if len(words) != 2 or words[1] not in COMBINES:
                    raise ProfileError(f"{where}: expected 'Combine none' or 'Combine geomean', "
                                       f"got {line!r}")
                self.combine = words[1]
                continue
            if len(words) != 4:
                raise ProfileError(f"{where}: expected 'PATTERN MODE SIZE WEIGHT', got {line!r}")
            try:
                weight = float(words[3])
                if weight < 0:
                    raise ValueError("negative weight")
                self.rules.append(Rule(words[0], words[1], words[2], weight, where))
            except ValueError as e:
                raise ProfileError(f"{where}: {e}") from e
        if not self.rules:
            raise ProfileError(f"{path}: no weight rules")

    def stated(self, unit, value):
        """(unit, value) of a per-unit score as the profile states it (Units)."""
        name, factor = self.units.get(unit, (unit, 1.0))
        return name, value * factor

    def combined(self, scores):
        """The one score of {unit: score} by Combine (None for `none`): the geometric mean."""
        if self.combine != "geomean" or not scores:
            return None
        values = list(scores.values())
        if min(values) <= 0:
            return 0.0
        return math.exp(sum(math.log(v) for v in values) / len(values))

    def weight(self, module, mode, nbytes):
        """(weight, rule) of the first matching rule, or (0, None)."""
        for r in self.rules:
            if r.matches(module, mode, nbytes):
                r.matched += 1
                return r.weight, r
        return 0.0, None
