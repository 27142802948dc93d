"""The training manifest: sound, at least 40 licensed trees of every dialect, and never a
reserved tree (the development trees, frigate, and the outside-evaluation trees)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from train.manifest import DIALECTS, LICENCES, MIN_TREES, Tree, load, problems, reserved_word

TREE = Tree(
    name="example",
    repo="example-org/example-docs",
    commit="0123456789abcdef0123456789abcdef01234567",
    docs="docs",
    licence="MIT",
    dialect="gfm",
)


def test_the_committed_manifest_is_sound() -> None:
    trees = load()
    assert len(trees) >= MIN_TREES
    assert {tree.dialect for tree in trees} == set(DIALECTS)
    assert all(tree.licence in LICENCES for tree in trees)
    assert any(tree.split == "valid" for tree in trees)


def test_no_committed_tree_is_reserved() -> None:
    assert [tree.repo for tree in load() if reserved_word(tree.repo)] == []


@pytest.mark.parametrize(
    "repo",
    [
        "encode/starlette",
        "Kludex/starlette",
        "someone/starlette-docs-fork",
        "netbox-community/netbox",
        "netbox-community/netbox-docker",
        "vitest-dev/vitest",
        "VITEST-DEV/Vitest",
        "fastapi/fastapi",
        "tiangolo/fastapi",
        "encode/httpx",
        "traefik/traefik",
        "blakeblackshear/frigate",
    ],
)
def test_reserved_repositories_are_refused(repo: str) -> None:
    assert reserved_word(repo) is not None
    assert any("reserved" in p for p in problems([replace(TREE, repo=repo)], min_trees=1))


def test_an_ordinary_repository_passes() -> None:
    assert reserved_word("pydantic/pydantic") is None
    assert problems([TREE], min_trees=1) == [f"no {d} tree" for d in DIALECTS if d != "gfm"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"licence": "GPL-3.0-only"}, "licence"),
        ({"licence": "CC-BY-NC-4.0"}, "licence"),
        ({"commit": "main"}, "commit"),
        ({"dialect": "hugo"}, "dialect"),
        ({"split": "test"}, "split"),
        ({"docs": "../elsewhere"}, "docs folder"),
        ({"repo": "no-owner"}, "owner/name"),
    ],
)
def test_each_field_is_checked(change: dict[str, str], expected: str) -> None:
    found = problems([replace(TREE, **change)], min_trees=1)  # type: ignore[arg-type]
    assert any(expected in p for p in found), found


def test_duplicates_and_too_few_trees_are_problems() -> None:
    found = problems([TREE, replace(TREE, commit="f" * 40)])
    assert "name 'example' listed 2 times" in found
    assert "repo 'example-org/example-docs' listed 2 times" in found
    assert f"2 trees, at least {MIN_TREES} needed" in found
