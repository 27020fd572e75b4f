#!/usr/bin/env python3
"""Checks the user-facing documents (CI's lint step):

- README.md is at most 200 lines, and gives the test command CI runs (scripts/test.sh);
- LICENSE, CHANGELOG.md, CONTRIBUTING.md and docs/benchmarks.md exist;
- every relative Markdown link of README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md names a
  file of the repository, and its #anchor a heading of that file (GitHub's heading ids);
- no document but docs/architecture.md names an issue number, ENGINEERING.md or API.md: a reader
  can open neither (the API reference is docs/api.md).

Prints one line per problem and exits 1 when there is one; reads files only.

    python3 scripts/lint-docs.py
"""
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README_MAX_LINES = 200
REQUIRED = ["README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "docs/benchmarks.md"]
TEST_COMMAND = "scripts/test.sh"
# Words a reader cannot follow: an issue of a tracker they may not see, files never in the
# repository. architecture.md is left to its own review.
UNREADABLE = [(re.compile(r"\b[Ii]ssues? \d+"), "an issue number"),
              (re.compile(r"ENGINEERING\.md"), "ENGINEERING.md, not in this repository"),
              (re.compile(r"(?<![\w/])API\.md"), "API.md: the file is docs/api.md")]
WORDING_EXEMPT = {"docs/architecture.md"}


def heading_id(text):
    """GitHub's id for a heading: lower case, code marks and punctuation dropped, spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text.strip().replace("`", "")).lower()
    return "".join("-" if ch == " " else ch for ch in text
                   if ch in " -_" or unicodedata.category(ch)[0] in "LN")


def heading_ids(path):
    ids, seen, fence = set(), {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
                continue
            m = None if fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = heading_id(m.group(1))
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else f"{base}-{n}")
    return ids


def documents():
    names = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
    names += sorted("docs/" + n for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md"))
    return [n for n in names if os.path.exists(os.path.join(ROOT, n))]


def main():
    problems = []
    for name in REQUIRED:
        if not os.path.exists(os.path.join(ROOT, name)):
            problems.append(f"{name}: missing")
    readme = os.path.join(ROOT, "README.md")
    if os.path.exists(readme):
        lines = open(readme, encoding="utf-8").read().splitlines()
        if len(lines) > README_MAX_LINES:
            problems.append(f"README.md: {len(lines)} lines, more than {README_MAX_LINES}")
        if not any(line.strip().startswith(TEST_COMMAND + " ") or line.strip() == TEST_COMMAND for line in lines):
            problems.append(f"README.md: no line gives the test command {TEST_COMMAND}")

    links = 0
    for name in documents():
        path = os.path.join(ROOT, name)
        text = open(path, encoding="utf-8").read()
        prose = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.S | re.M)
        for m in re.finditer(r"\]\(([^)\s]+)\)", prose):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            links += 1
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(resolved):
                problems.append(f"{name}: link {target}: no such file")
            elif anchor and resolved.endswith(".md") and anchor not in heading_ids(resolved):
                problems.append(f"{name}: link {target}: no heading with id '{anchor}'")
        if name in WORDING_EXEMPT:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for pattern, what in UNREADABLE:
                if pattern.search(line):
                    problems.append(f"{name}:{number}: names {what}")

    for problem in problems:
        print(problem)
    print(f"lint-docs: {len(documents())} documents, {links} links, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
