"""A clone of the repository is all a user has: no document, help text, docstring, data file or test points
outside it (to sibling folders, to documents that are not shipped, or to web pages)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ["analyzer", "cli", "kernels", "tests", "docs", "data"]
THIS = Path(__file__).resolve()           # its own examples below are the only exception
FILES = [ROOT / "README.md", ROOT / "pyproject.toml"] + sorted(
    p for folder in FOLDERS for p in (ROOT / folder).rglob("*")
    if p.suffix in {".py", ".md", ".csv", ".toml"} and p != THIS and "__pycache__" not in p.parts)
# Documents that exist only outside the repository, by name; a relative path climbing out; a web address.
OUTSIDE = re.compile(r"\.\./|(?<![\w/])(?:shared/|" + "|".join(
    n + r"\.md" for n in ["RULES", "NOTATION", "RECORDS", "BIDDING_BASELINES", "STYLE"]) + r")|https?://")


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_no_pointer_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    hits = [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group()}" for m in OUTSIDE.finditer(text)]
    assert not hits, hits


def test_the_pattern_catches_what_it_should():
    for text in ["see ../shared/rules/RULES.md", "NOTATION.md", "the RECORDS.md format", "https://example.org",
                 "BIDDING_BASELINES.md", "STYLE.md", "shared/seeds"]:
        assert OUTSIDE.search(text), text
    for text in ["docs/rules.md", "docs/notation.md", "shared with the kernels", "a shared memory", "data/README.md"]:
        assert not OUTSIDE.search(text), text


def test_every_doc_the_repository_names_exists():
    names = set()
    for path in FILES:
        names |= set(re.findall(r"\b((?:docs|data)/[\w.-]+\.(?:md|csv))\b", path.read_text(encoding="utf-8")))
    missing = sorted(n for n in names if not (ROOT / n).is_file())
    assert not missing, missing
