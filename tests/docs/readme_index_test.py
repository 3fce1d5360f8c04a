#!/usr/bin/python3
"""README is the index of the docs: every Markdown file under docs/ (guides, reference,
measurements, architecture) is linked from README.md, and every relative link in README.md
names a file or directory that exists. Prints each failure with what to do; exit 1 on any.
Usage: readme_index_test.py SOURCE_DIR"""
import pathlib
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")


def readme_links(text):
    """The relative targets of README's Markdown links, without their #anchors."""
    out = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        out.append(target.split("#", 1)[0])
    return out


def main(src):
    root = pathlib.Path(src)
    text = (root / "README.md").read_text(encoding="utf-8")
    links = readme_links(text)
    bad = []
    for target in links:
        if not (root / target).exists():
            bad.append(f"FAIL: README.md links {target}, which does not exist (fix the link or "
                       "restore the file)")
    linked = {str(pathlib.PurePosixPath(t)) for t in links}
    docs = sorted(p.relative_to(root).as_posix() for p in (root / "docs").rglob("*.md"))
    for doc in docs:
        if doc not in linked:
            bad.append(f"FAIL: {doc} is not linked from README.md (add it under Guides, "
                       "Reference or Measurements in README's Documentation)")
    print("\n".join(bad) if bad else f"README.md links all {len(docs)} docs under docs/, and "
          f"its {len(links)} links exist")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
