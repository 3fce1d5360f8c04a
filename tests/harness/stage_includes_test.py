#!/usr/bin/python3
"""The harness's stages include only the stages below them (docs/architecture.md): guard, config,
load, plan, report, run, in that order; no two files include each other; no module family
reaches into another's folder. Usage: stage_includes_test.py SOURCE_DIR"""
import pathlib
import re
import sys

RANK = {"guard": 1, "config": 2, "load": 3, "plan": 4, "report": 5, "run": 6}
INCLUDE = re.compile(r'#include "([a-z]+)/([a-z_]+\.hpp)"')


def main(src):
    root = pathlib.Path(src)
    harness = root / "harness"
    files = sorted(p for p in harness.rglob("*") if p.suffix in (".cpp", ".hpp"))
    includes = {p: INCLUDE.findall(p.read_text(errors="replace")) for p in files}
    bad = []
    for f, incs in includes.items():
        stage = f.relative_to(harness).parts[0]
        for inc_stage, _ in incs:
            if stage in RANK and inc_stage in RANK and RANK[inc_stage] > RANK[stage]:
                bad.append(f"FAIL: {f.relative_to(root)} (stage {stage}) includes the higher stage "
                           f"{inc_stage}/")
    # Two files include each other: f includes X.hpp and X.hpp or X.cpp includes f's header.
    for f, incs in includes.items():
        own = f.relative_to(harness).with_suffix(".hpp").as_posix()
        for inc_stage, name in incs:
            target = harness / inc_stage / name
            for other in (target, target.with_suffix(".cpp")):
                if other in includes and other.with_suffix("") != f.with_suffix("") and \
                        any(f"{s}/{n}" == own for s, n in includes[other]):
                    bad.append(f"FAIL: {f.relative_to(root)} and {other.relative_to(root)} include "
                               "each other")
    for p in sorted((root / "modules").rglob("*")):
        if p.is_file() and '#include "../' in p.read_text(errors="replace"):
            bad.append(f"FAIL: {p.relative_to(root)} includes through ../ (a family links the "
                       "shared libraries only)")
    print("\n".join(bad) if bad else "stage includes: every include runs down, none both ways")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
