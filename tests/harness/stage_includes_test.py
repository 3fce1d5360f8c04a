#!/usr/bin/python3
"""Every include of the house runs down (docs/architecture.md). The floors, lowest first:
include/ (what a module or a backend sees), then backends/ and modules/ (each backend and each
module family in its own folder, the families linking the shared libraries modules/patterns and
modules/imb_core, the backends backends/posix_common), then harness/, whose stages include only
the stages below them: guard, config, load, plan, report, run. Nothing includes a file of a higher
floor or of a sibling's folder, the harness includes no public header whose code lives in
modules/ or backends/, no files include each other (a pair, or a circle of any length, counting
a header and its .cpp as one), and nothing includes through ../.

Before it checks the house it checks itself: on small trees it makes, each with one bad include,
it must find that include (so the check cannot pass by finding nothing).
Usage: stage_includes_test.py SOURCE_DIR"""
import pathlib
import re
import sys
import tempfile

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
    # Last, a path from a top folder's root, so that an include of another floor by its path
    # ("run/runner.hpp" from a module) is named for the floor it reaches.
    candidates += [root / top / name for top in ("harness", "modules", "backends")]
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


def circles(root, includes):
    """Circles of includes between units (a header and its .cpp are one unit), each as the list
    of its units' paths; a pair that includes each other is a circle of two."""
    graph = {}
    for f, targets in includes.items():
        unit = f.with_suffix("")
        graph.setdefault(unit, set()).update(t.with_suffix("") for t in targets
                                              if t.with_suffix("") != unit)
    # Tarjan's strongly connected components, iteratively (no recursion limit to meet).
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(str(u.relative_to(root)) for u in component))
    return found


def problems(src):
    """(the files read, every FAIL line) for the tree at src."""
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
    for circle in circles(root, includes):
        what = "include each other" if len(circle) == 2 else "include each other in a circle"
        bad.append(f"FAIL: {', '.join(circle)} {what} (a header and its .cpp counted as one)")
    return files, sorted(set(bad))


# Small trees the check must refuse: (what is wrong, {path: text}, a word its FAIL line holds).
BAD_TREES = [
    ("a stage includes a higher stage",
     {"harness/plan/a.hpp": '#include "run/b.hpp"\n', "harness/run/b.hpp": ""},
     "higher stage run/"),
    ("include/ includes a module",
     {"include/pio/a.hpp": '#include "fam/b.hpp"\n', "modules/fam/b.hpp": ""},
     "include/ sees only include/"),
    ("include/ includes the harness",
     {"include/pio/a.hpp": '#include "run/b.hpp"\n', "harness/run/b.hpp": ""},
     "harness/run/b.hpp"),
    ("a module includes the harness",
     {"modules/fam/a.cpp": '#include "run/b.hpp"\n', "harness/run/b.hpp": ""},
     "a module family sees"),
    ("a module includes another family",
     {"modules/fam/a.cpp": '#include "b.hpp"\n', "modules/other/b.hpp": ""},
     "a module family sees"),
    ("a backend includes a module",
     {"backends/posix/a.cpp": '#include "b.hpp"\n', "modules/fam/b.hpp": ""},
     "a backend sees"),
    ("the harness includes a module",
     {"harness/run/a.cpp": '#include "b.hpp"\n', "modules/fam/b.hpp": ""},
     "the harness sees"),
    ("two files include each other",
     {"harness/run/a.hpp": "", "harness/run/a.cpp": '#include "run/b.hpp"\n',
      "harness/run/b.hpp": "", "harness/run/b.cpp": '#include "run/a.hpp"\n'},
     "include each other"),
    ("three files in a circle",
     {"modules/fam/a.hpp": '#include "b.hpp"\n', "modules/fam/b.hpp": '#include "c.hpp"\n',
      "modules/fam/c.hpp": '#include "a.hpp"\n'},
     "in a circle"),
    ("an include through ../",
     {"harness/run/a.cpp": '#include "../plan/b.hpp"\n', "harness/plan/b.hpp": ""},
     "through ../"),
]


def self_check():
    """The FAIL lines the check missed on BAD_TREES (none when it finds each bad include), and
    whether it passes a tree with good includes only."""
    missed = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (what, tree, word) in enumerate(BAD_TREES):
            root = pathlib.Path(tmp) / str(k)
            for path, text in tree.items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text)
            _, bad = problems(root)
            if not any(word in line for line in bad):
                missed.append(f"FAIL: the check missed {what} ({word!r} in none of {bad})")
        good = pathlib.Path(tmp) / "good"
        for path, text in {"include/pio/a.hpp": "", "modules/fam/m.cpp": '#include "pio/a.hpp"\n',
                           "harness/plan/p.hpp": "", "harness/run/r.cpp":
                           '#include "plan/p.hpp"\n#include "pio/a.hpp"\n'}.items():
            (good / path).parent.mkdir(parents=True, exist_ok=True)
            (good / path).write_text(text)
        _, bad = problems(good)
        missed += [f"FAIL: the check refused a good tree: {line}" for line in bad]
    return missed


def main(src):
    missed = self_check()
    if missed:
        print("\n".join(missed))
        return 1
    files, bad = problems(src)
    print("\n".join(bad) if bad else
          f"house includes: {len(files)} files of {', '.join(TOPS)}; every include runs down, "
          f"no files include each other (the check found each of {len(BAD_TREES)} bad includes "
          "in trees of its own)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
