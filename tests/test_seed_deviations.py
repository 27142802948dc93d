"""docs/seed-deviations.md, the ledger of every deliberate difference from the seeds: each
entry names at least one existing setting, route or test, and every name it gives exists;
the configuration mapping names real settings; the ledger is reachable from docs/index.md;
no measurement is left as a placeholder."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi import routing
from fastapi.routing import APIRoute
from pydantic import BaseModel

from askdocs.server.app import create_app
from askdocs.settings import Settings, load_settings

REPO = Path(__file__).resolve().parent.parent
LEDGER = REPO / "docs" / "seed-deviations.md"
SEEDS = ("## Seed 000", "## Seed 001", "## Seed 002", "## Seed 003")
MAPPING = "## Configuration names"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
_TICKED = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Row:
    section: str
    cells: tuple[str, ...]


def sections() -> dict[str, str]:
    text = LEDGER.read_text(encoding="utf-8")
    parts = re.split(r"^(## .+)$", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def rows(heading_prefix: str) -> list[Row]:
    found = []
    for heading, body in sections().items():
        if not heading.startswith(heading_prefix):
            continue
        for line in body.splitlines():
            if not line.startswith("|") or set(line) <= set("|- "):
                continue
            cells = tuple(cell.strip() for cell in line.strip().strip("|").split(" | "))
            if cells[0] not in ("the seed says", "seed name"):
                found.append(Row(heading, cells))
    return found


def deviation_rows() -> list[Row]:
    return [row for prefix in SEEDS for row in rows(prefix)]


def setting_exists(dotted: str, model: type[BaseModel] = Settings) -> bool:
    head, _, rest = dotted.partition(".")
    field = model.model_fields.get(head)
    if field is None:
        return False
    if not rest:
        return True
    inner = field.annotation
    return isinstance(inner, type) and issubclass(inner, BaseModel) and setting_exists(rest, inner)


def named_test_exists(ref: str) -> bool:
    path, _, name = ref.partition("::")
    file = REPO / path
    if not file.is_file():
        return False
    return not name or re.search(rf"^(async )?def {re.escape(name)}\(", file.read_text(), re.M)


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    app = create_app(load_settings(data_dir=tmp_path_factory.mktemp("data")))
    found = set()
    for context in routing.iter_route_contexts(app.routes):  # included routers, flattened
        route = context.original_route
        if isinstance(route, APIRoute):
            path = context.path_format or route.path_format
            found |= {f"{method} {path}" for method in route.methods or ()}
    return found


def resolves(ref: str, routes: set[str]) -> bool:
    if ref.startswith("tests/"):
        return bool(named_test_exists(ref))
    if ref.split(" ", 1)[0] in METHODS:
        return ref in routes
    return setting_exists(ref)


def refs_of(row: Row) -> list[str]:
    return _TICKED.findall(row.cells[-1])


def test_every_seed_has_its_section_and_entries() -> None:
    for prefix in SEEDS:
        assert len(rows(prefix)) >= 3, prefix
    assert all(len(row.cells) == 4 for row in deviation_rows())


@pytest.mark.parametrize("row", deviation_rows(), ids=lambda row: row.cells[0][:40])
def test_every_entry_names_an_existing_setting_route_or_test(row: Row, routes: set[str]) -> None:
    refs = refs_of(row)
    assert refs, f"{row.section}: {row.cells[0]!r} names nothing to check it"
    missing = [ref for ref in refs if not resolves(ref, routes)]
    assert not missing, f"{row.section}: {row.cells[0]!r} names {missing}"


def test_every_mapped_setting_exists() -> None:
    mapped = rows(MAPPING)
    assert len(mapped) >= 30
    for row in mapped:
        [setting] = _TICKED.findall(row.cells[1])
        assert setting_exists(setting), f"{row.cells[0]} -> {setting}"


def test_the_checker_refuses_what_does_not_exist(routes: set[str]) -> None:
    assert not resolves("search.no_such_setting", routes)
    assert not resolves("GET /api/nowhere", routes)
    assert not resolves("tests/test_seed_deviations.py::test_that_is_not_there", routes)
    assert resolves("GET /api/search", routes)
    assert resolves("search.max_per_page", routes)


def test_the_ledger_is_reachable_and_complete() -> None:
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    assert "seed-deviations.md" in index
    text = LEDGER.read_text(encoding="utf-8")
    assert not re.search(r"\b[A-Z]+_FIGURES\b", text), "a measurement is still a placeholder"
