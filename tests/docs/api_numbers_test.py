#!/usr/bin/python3
"""README, the docs and the code state one module API number (issue 39: they gave three): the
code's kApiVersion (include/pio/version.hpp), the tool version 0.<API>.<patch> the CMake package
has, README's "module API N" and its release line "pio-bench 0.N.x", docs/guides/writing-a-module.md's "now N", its manifest example, its
versions table and migration table, docs/guides/writing-a-backend.md, and the results example of
docs/reference/results.md. Usage: api_numbers_test.py SOURCE_DIR"""
import pathlib
import re
import sys


def main(src):
    root = pathlib.Path(src)
    text = {p: (root / p).read_text() if (root / p).is_file() else "" for p in (
        "include/pio/version.hpp", "README.md", "docs/guides/writing-a-module.md",
        "docs/guides/writing-a-backend.md", "docs/reference/results.md")}
    version_hpp = text["include/pio/version.hpp"]
    api = int(re.search(r"kApiVersion = (\d+);", version_hpp).group(1))
    tool = re.search(r'kToolVersion = "([0-9.]+)";', version_hpp).group(1)
    bad = []

    def expect(what, found):
        if not found:
            bad.append(f"FAIL: {what}: not found")
        for f in found:
            if str(f) != str(api):
                bad.append(f"FAIL: {what} says {f}, the code's kApiVersion is {api}")

    if not re.fullmatch(rf"0\.{api}\.\d+", tool):
        bad.append(f"FAIL: kToolVersion {tool} is not 0.{api}.<patch> (the module API is the "
                   "release line)")
    expect("README.md 'module API N'", re.findall(r"module API\s+(\d+)", text["README.md"]))
    expect("README.md's release line 'pio-bench 0.N.x'",
           re.findall(r"pio-bench 0\.(\d+)\.x", text["README.md"]))
    guide = text["docs/guides/writing-a-module.md"]
    expect("docs/guides/writing-a-module.md 'kApiVersion`, now N'",
           re.findall(r"kApiVersion`, now (\d+)", guide))
    expect("docs/guides/writing-a-module.md's manifest example 'api_version N'",
           re.findall(r"^api_version (\d+)$", guide, re.M))
    expect(f"docs/guides/writing-a-module.md's versions table row for 0.{api}",
           re.findall(rf"^\| 0\.{api} \| (\d+) ", guide, re.M))
    expect("docs/guides/writing-a-module.md's migration table, its last row",
           re.findall(r"^\| (\d+) \| [^|]*\|$", guide, re.M)[-1:])
    expect("docs/guides/writing-a-backend.md 'module API N'",
           re.findall(r"module API\s+(\d+)", text["docs/guides/writing-a-backend.md"]))
    results = text["docs/reference/results.md"]
    expect("docs/reference/results.md's example 'module_api_version'",
           re.findall(r'"module_api_version": (\d+)', results))
    for v in re.findall(r'"tool_version": "([0-9.]+)"', results):
        if v != tool:
            bad.append(f"FAIL: docs/reference/results.md's example has tool_version {v}, "
                       f"the code {tool}")
    print("\n".join(bad) if bad else f"api numbers: module API {api} (pio-bench {tool}) "
          "everywhere it is stated")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
