#!/usr/bin/python3
"""Every include of the house runs down (docs/architecture.md). The floors, lowest first:
include/ (what a module or a backend sees), then backends/ and modules/ (each backend and each
module family in its own folder, the families linking the shared libraries modules/patterns and
modules/imb_core, the backends backends/posix_common), then harness/, whose stages include only the stages below them: guard, config,
load, plan, report, run. Nothing includes a file of a higher floor or of a sibling's folder, the
harness includes no public header whose code lives in modules/ or backends/, no two files include
each other, and nothing includes through ../. Usage: stage_includes_test.py
SOURCE_DIR"""
import pathlib
import re
import sys

RANK = {"guard": 1, "config": 2, "load": 3, "plan": 4, "report": 5, "run": 6}
SHARED_MODULE_LIBRARIES = ("patterns", "imb_core")
SHARED_BACKEND_LIBRARIES = ("posix_common",)
TOPS = ("include", "backends", "modules", "harness")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(root, path):
    """(top folder, its first subfolder or stage) of a file of the house."""
    parts = path.relative_to(root).parts
    return parts[0], (parts[1] if len(parts) > 2 else "")


def resolve(root, f, name):
    """The file a quoted include of f names, or None."""
    top, _ = folder_of(root, f)
    candidates = [f.parent / name, root / "include" / name]
    if top == "harness":
        candidates.append(root / "harness" / name)
    # A family finds the shared libraries' headers first (the include paths they export).
    candidates += [root / "modules" / lib / name for lib in SHARED_MODULE_LIBRARIES]
    candidates += sorted((root / "modules").glob("*/" + name))
    candidates += sorted((root / "backends").glob("*/" + name))
    for c in candidates:
        if c.is_file():
            return c.resolve()
    return None


def problem(root, f, target):
    """Why f may not include target ("" when it may)."""
    top, sub = folder_of(root, f)
    ttop, tsub = folder_of(root, target)
    if ttop == "include":
        return ""
    if top == "include":
        return f"includes {target.relative_to(root)}: include/ sees only include/"
    if top == "backends":
        if ttop == "backends" and (tsub == sub or tsub in SHARED_BACKEND_LIBRARIES):
            return ""
        return (f"includes {target.relative_to(root)}: a backend sees include/, its own folder "
                "and the shared libraries " + ", ".join(SHARED_BACKEND_LIBRARIES))
    if top == "modules":
        if ttop == "modules" and (tsub == sub or tsub in SHARED_MODULE_LIBRARIES):
            return ""
        return (f"includes {target.relative_to(root)}: a module family sees include/, its own "
                "folder and the shared libraries " + ", ".join(SHARED_MODULE_LIBRARIES))
    if top == "harness":
        if ttop != "harness":
            return f"includes {target.relative_to(root)}: the harness sees include/ and harness/"
        if sub in RANK and tsub in RANK and RANK[tsub] > RANK[sub]:
            return f"(stage {sub}) includes the higher stage {tsub}/"
        return ""
    return ""


def main(src):
    root = pathlib.Path(src).resolve()
    files = sorted(p.resolve() for top in TOPS for p in (root / top).rglob("*")
                   if p.suffix in (".cpp", ".hpp", ".h"))
    bad = []
    includes = {}
    for f in files:
        text = f.read_text(errors="replace")
        includes[f] = set()
        for name in INCLUDE.findall(text):
            if name.startswith("../") or "/../" in name:
                bad.append(f"FAIL: {f.relative_to(root)} includes through ../ ({name})")
                continue
            target = resolve(root, f, name)
            if target is None:
                bad.append(f"FAIL: {f.relative_to(root)} includes \"{name}\", which is no file "
                           "of the house")
                continue
            includes[f].add(target)
            why = problem(root, f, target)
            if why:
                bad.append(f"FAIL: {f.relative_to(root)} {why}")
    # A public header whose code lives in modules/ or backends/ (the .cpp of the same name that
    # includes it) is a library above the harness: the harness including it runs back up.
    code_of = {}
    for f, targets in includes.items():
        top, _ = folder_of(root, f)
        if f.suffix == ".cpp" and top in ("modules", "backends"):
            for t in targets:
                if folder_of(root, t)[0] == "include" and t.stem == f.stem:
                    code_of[t] = f
    for f, targets in includes.items():
        if folder_of(root, f)[0] == "harness":
            for t in sorted(targets):
                if t in code_of:
                    bad.append(f"FAIL: {f.relative_to(root)} includes {t.relative_to(root)}, "
                               f"whose code lives in {code_of[t].relative_to(root)}: a public "
                               "header the harness uses has its code in include/ or the harness")
    # Two files include each other: f includes X and X (or X's .cpp) includes f's header.
    for f, targets in includes.items():
        own = f.with_suffix(".hpp")
        for t in targets:
            for other in (t, t.with_suffix(".cpp")):
                if other in includes and other.with_suffix("") != f.with_suffix("") and \
                        own in includes[other]:
                    bad.append(f"FAIL: {f.relative_to(root)} and {other.relative_to(root)} "
                               "include each other")
    print("\n".join(sorted(set(bad))) if bad else
          f"house includes: {len(files)} files of {', '.join(TOPS)}; every include runs down, "
          "none both ways")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
