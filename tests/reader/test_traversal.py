"""The traversal battery (FS-01): generated variants against the article and asset routes,
through the real ASGI app and through a real uvicorn process with raw request bytes. Never a
200 with bytes from outside the docs root; the canary beside the root never appears."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.reader.conftest import Tree
from tests.reader.fixtures import CANARY, build_tree, png_bytes
from tests.reader.serve import Served, raw_get, serving, toml_config
from tests.reader.traversal import article_variants, asset_id_variants

pytestmark = pytest.mark.anyio
SECRET_ID = hashlib.sha256(png_bytes(seed=99) + CANARY.encode()).hexdigest() + ".png"
LOGO_ID = hashlib.sha256(png_bytes()).hexdigest() + ".png"
OUTSIDE_MARKERS = (CANARY.encode(), b"root:x:0:0", b"SECRET-DEV-NOTE", b"[fonts]")


def targets(base: Path) -> list[str]:
    """Every request target of the battery (path and query, still percent-encoded)."""
    found = [f"/api/docs/articles/{v}?locale=en" for v in article_variants(base)]
    found += [f"/api/docs/assets/{v}/{LOGO_ID}" for v in article_variants(base)]
    found += [f"/api/docs/assets/index/{v}" for v in asset_id_variants(SECRET_ID)]
    return found


def test_battery_size(tmp_path: Path) -> None:
    base = tmp_path
    article = [t for t in targets(base) if t.startswith("/api/docs/articles/")]
    asset = [t for t in targets(base) if t.startswith("/api/docs/assets/")]
    assert len(article) >= 60
    assert len(asset) >= 60
    assert len(set(targets(base))) == len(targets(base))


def check(status: int, body: bytes, target: str) -> None:
    assert status != 200 or not any(m in body for m in OUTSIDE_MARKERS), target
    assert status in (400, 404), (status, target)
    assert not any(marker in body for marker in OUTSIDE_MARKERS), target


async def test_battery_through_the_asgi_app(tree: Tree, client: httpx.AsyncClient) -> None:
    sanity = await client.get(f"/api/docs/assets/index/{LOGO_ID}")
    assert sanity.status_code == 200  # the battery's valid id is really served
    statuses: dict[int, int] = {}
    for target in targets(tree.base):
        response = await client.get(target, follow_redirects=True)
        check(response.status_code, response.content, target)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
    assert set(statuses) <= {400, 404}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    base = tmp_path_factory.mktemp("served")
    build_tree(base)
    with serving(base / "data", toml_config(base)) as server:
        yield server, base


def test_battery_through_uvicorn_with_raw_bytes(served: tuple[Served, Path]) -> None:
    server, base = served
    status, body = raw_get(server.port, f"/api/docs/assets/index/{LOGO_ID}".encode())
    assert status == 200
    assert body == png_bytes()
    raw = [t.encode("utf-8") for t in targets(base)]
    literal = [t.replace("%2f", "/").replace("%2e", ".").encode() for t in targets(base)[:40]]
    literal.append(b"/api/docs/articles/guide/./install?locale=en")
    for target in raw + literal:
        status, body = raw_get(server.port, target)
        assert status != 200, target
        assert not any(marker in body for marker in OUTSIDE_MARKERS), target


def test_ui_paths_never_serve_files(served: tuple[Served, Path]) -> None:
    server, _ = served
    for target in (
        b"/docs/../../secret.txt",
        b"/static/../../secret.txt",
        b"/static/%2e%2e/x",
        b"/static/index.html",
        b"/static/js/../../../../etc/passwd",
        b"/widget.js/..",
    ):
        status, body = raw_get(server.port, target)
        assert not any(marker in body for marker in OUTSIDE_MARKERS), target
        if target.startswith(b"/static"):
            assert status == 404, target
