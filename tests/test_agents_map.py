"""AGENTS.md's map of ``src/askdocs/`` stays true: every folder is in it, and every folder
or module it names exists."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "src" / "askdocs"
MAP_ROW = re.compile(r"^\| (.+?) \|", re.MULTILINE)
NAME = re.compile(r"`([A-Za-z0-9_.]+/?)`")


def mapped_names() -> set[str]:
    text = (REPO / "AGENTS.md").read_text(encoding="utf-8")
    section = text.split("## Where things live", 1)[1].split("\n## ", 1)[0]
    return {name for cell in MAP_ROW.findall(section) for name in NAME.findall(cell)}


def package_folders() -> set[str]:
    return {
        f"{path.name}/"
        for path in PACKAGE.iterdir()
        if path.is_dir() and not path.name.startswith(("_", ".")) and path.name != "__pycache__"
    }


def test_every_folder_of_the_package_is_in_the_map() -> None:
    assert sorted(package_folders() - mapped_names()) == []


def test_the_map_names_only_folders_and_modules_that_exist() -> None:
    missing = [name for name in mapped_names() if not (PACKAGE / name.rstrip("/")).exists()]
    assert missing == []
