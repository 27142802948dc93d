"""Everything the test suite reads is inside the repository (tests/data/README.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, TEST_DATA
from tests.support.outside import Finding, module_depth, outside_references

SKIP = {"node_modules", "data", "__pycache__"}
# The checker and its own cases hold escapes on purpose, as data.
CHECKER = {"tests/support/outside.py", "tests/test_self_contained.py"}


def _test_modules() -> list[Path]:
    return sorted(
        path
        for path in (REPO / "tests").rglob("*.py")
        if not SKIP & set(path.relative_to(REPO / "tests").parts)
        and str(path.relative_to(REPO)) not in CHECKER
    )


def test_no_test_module_refers_to_a_path_outside_the_repository() -> None:
    parent = str(REPO.parent)
    found = {
        str(path.relative_to(REPO)): outside_references(
            path.read_text(encoding="utf-8"), module_depth(path, REPO), parent
        )
        for path in _test_modules()
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_module_level_paths_stay_inside_the_repository() -> None:
    """Every path constant of the test modules this run collected (all of them in a full run:
    pytest imports every module before running any) points inside the repository."""
    loaded = [m for name, m in sorted(sys.modules.items()) if name.startswith("tests.")]
    assert loaded
    for module in loaded:
        for name, value in vars(module).items():
            if isinstance(value, Path) and value.is_absolute() and value.exists():
                inside = value.resolve().is_relative_to(REPO.resolve())
                assert inside or _is_system(value), f"{module.__name__}.{name} = {value}"


def _is_system(path: Path) -> bool:
    return path.parts[1] in {"usr", "bin", "etc", "dev", "proc", "sys", "tmp", "lib", "var"}


OWN_DATA = {"dialects", "eval"}  # written for askdocs (tests/data/README.md)


def test_every_third_party_tree_carries_its_licence_and_source() -> None:
    trees = [p for p in TEST_DATA.iterdir() if p.is_dir() and p.name not in OWN_DATA]
    assert {"fastapi-docs", "frigate-docs", "httpx-docs"} <= {tree.name for tree in trees}
    for tree in trees:
        assert (tree / "LICENSE").is_file(), tree
        assert "Repository: https://github.com/" in (tree / "SOURCE.md").read_text(), tree
        assert tree.name in (TEST_DATA / "README.md").read_text(), tree


@pytest.mark.parametrize(
    ("source", "depth", "what"),
    [
        ('SHARED = REPO.parent / "shared"', 1, "the repository root's parent"),
        ("ROOT = Path(__file__).resolve().parent.parent\nX = ROOT.parents[0]", 1, "root's parent"),
        ("X = Path(__file__).resolve().parents[3]", 2, "climbs 3 folders (max 2)"),
        ("X = Path(__file__).parent.parent.parent", 1, "climbs 2 folders (max 1)"),
        ('X = "../shared/corpora/fastapi-docs"', 1, "out-of-tree corpus path"),
        ('X = Path("/srv/checkouts/shared/eval/a.jsonl")', 1, "out-of-tree corpus path"),
        ('X = "/srv/checkouts/other/file.md"', 1, "absolute path outside the repository"),
    ],
)
def test_the_check_finds_each_kind_of_escape(source: str, depth: int, what: str) -> None:
    [finding] = outside_references(source, depth, "/srv/checkouts")
    assert what in finding.what


@pytest.mark.parametrize(
    "source",
    [
        "REPO = Path(__file__).resolve().parent.parent",
        "HERE = Path(__file__).parents[1]",
        'PAYLOADS = ["../../../etc/passwd", "a/../b", "/etc/passwd", "/api/search"]',
        'DOCS = REPO / "tests" / "data" / "fastapi-docs"',
    ],
)
def test_the_check_allows_paths_inside_and_traversal_payloads(source: str) -> None:
    assert outside_references(source, 1, "/srv/checkouts") == list[Finding]()
