"""The manifest of public docs trees the encoder is trained from (``train/trees.toml``).

Pure: ``parse`` reads the TOML text, ``problems`` lists what is wrong with it. A tree is
refused when its repository is one the project may never train, mine or tune on: the
three development trees (FastAPI, HTTPX, Traefik), Frigate (the project's own question
set), and the three trees reserved for outside evaluation (Starlette, NetBox, Vitest), in
any version, fork or mirror, so any repository whose ``owner/name`` names one of them.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MANIFEST = Path(__file__).resolve().parent / "trees.toml"
DIALECTS = ("mkdocs", "docusaurus", "vitepress", "myst", "gfm")
SPLITS = ("train", "valid")
MIN_TREES = 40
# The words that make a repository untouchable (matched inside owner/name, any case):
# development trees, frigate, and the trees reserved for outside evaluation.
RESERVED = ("fastapi", "httpx", "traefik", "frigate", "starlette", "netbox", "vitest")
# Licences that allow reading the docs to train a model (SPDX expressions as written).
LICENCES = frozenset(
    {
        "MIT",
        "MIT-0",
        "ISC",
        "BSD-2-Clause",
        "BSD-3-Clause",
        "Apache-2.0",
        "MPL-2.0",
        "MIT OR Apache-2.0",
        "CC-BY-4.0",
        "CC0-1.0",
    }
)
_COMMIT = re.compile(r"[0-9a-f]{40}")
_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass(frozen=True)
class Tree:
    """One docs tree: where it comes from, its licence, and what of it is read."""

    name: str
    repo: str  # "owner/name" on GitHub
    commit: str
    docs: str  # the docs folder inside the repository
    licence: str
    dialect: str
    split: str = "train"
    exclude: tuple[str, ...] = ()


def parse(text: str) -> list[Tree]:
    """The trees of a manifest, in file order (``ValueError`` on a missing field)."""
    rows = tomllib.loads(text).get("tree", [])
    trees = []
    for row in rows:
        try:
            trees.append(_tree(row))
        except KeyError as exc:
            raise ValueError(f"tree {row.get('name', '?')!r} lacks {exc}") from exc
    return trees


def _tree(row: dict[str, object]) -> Tree:
    exclude = row.get("exclude", [])
    if not isinstance(exclude, list):
        raise ValueError(f"tree {row['name']!r}: exclude must be a list")
    return Tree(
        name=str(row["name"]),
        repo=str(row["repo"]),
        commit=str(row["commit"]),
        docs=str(row["docs"]),
        licence=str(row["licence"]),
        dialect=str(row["dialect"]),
        split=str(row.get("split", "train")),
        exclude=tuple(str(item) for item in exclude),
    )


def load(path: Path = MANIFEST) -> list[Tree]:
    """The manifest's trees; ``ValueError`` naming every problem when it is not sound."""
    trees = parse(path.read_text(encoding="utf-8"))
    found = problems(trees)
    if found:
        raise ValueError(f"{path}: " + "; ".join(found))
    return trees


def reserved_word(repo: str) -> str | None:
    """The reserved word ``repo`` names (it must never be read), or None."""
    lowered = repo.lower()
    return next((word for word in RESERVED if word in lowered), None)


def problems(trees: Sequence[Tree], *, min_trees: int = MIN_TREES) -> list[str]:
    """Everything wrong with a manifest (empty when it may be used)."""
    found = [problem for tree in trees for problem in tree_problems(tree)]
    for field in ("name", "repo"):
        counts = Counter(getattr(tree, field).lower() for tree in trees)
        found += [f"{field} {value!r} listed {n} times" for value, n in counts.items() if n > 1]
    if len(trees) < min_trees:
        found.append(f"{len(trees)} trees, at least {min_trees} needed")
    dialects = {tree.dialect for tree in trees}
    found += [f"no {dialect} tree" for dialect in DIALECTS if trees and dialect not in dialects]
    return found


def tree_problems(tree: Tree) -> list[str]:
    """What is wrong with one entry."""
    found = []
    word = reserved_word(tree.repo)
    if word is not None:
        found.append(f"{tree.name}: {tree.repo} is reserved ({word}): never train on it")
    if not _REPO.fullmatch(tree.repo):
        found.append(f"{tree.name}: repo {tree.repo!r} is not owner/name")
    if not _NAME.fullmatch(tree.name):
        found.append(f"{tree.name!r}: names are lowercase letters, digits and dashes")
    if not _COMMIT.fullmatch(tree.commit):
        found.append(f"{tree.name}: commit {tree.commit!r} is not a full sha1")
    if tree.licence not in LICENCES:
        found.append(f"{tree.name}: licence {tree.licence!r} is not one that allows this use")
    if tree.dialect not in DIALECTS:
        found.append(f"{tree.name}: unknown dialect {tree.dialect!r}")
    if tree.split not in SPLITS:
        found.append(f"{tree.name}: split {tree.split!r} is not train or valid")
    if tree.docs.startswith("/") or ".." in tree.docs.split("/"):
        found.append(f"{tree.name}: docs folder {tree.docs!r} must stay inside the repository")
    return found
