"""Images: only local PNG/JPEG/GIF/WebP with alt text whose bytes match their extension,
at most 10 MiB, served as exact bytes with nosniff and a content-hash ETag; 304 only after
membership is re-resolved."""

from __future__ import annotations

import hashlib

import httpx
import pytest
from fastapi import FastAPI

from askdocs.auth.jwt import mint
from askdocs.users import UserService
from tests.reader.conftest import Tree
from tests.reader.fixtures import CANARY, GIF, JPEG, SVG, WEBP, png_bytes
from tests.reader.htmlcheck import elements

pytestmark = pytest.mark.anyio


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


async def index_html(client: httpx.AsyncClient) -> str:
    response = await client.get("/api/docs/articles/index", params={"locale": "en"})
    assert response.status_code == 200
    return str(response.json()["html"])


def image_sources(html: str) -> dict[str, str]:
    return {e.attrs["alt"]: e.attrs["src"] for e in elements(html) if e.tag == "img"}


async def test_only_allowed_images_become_assets(client: httpx.AsyncClient) -> None:
    html = await index_html(client)
    sources = image_sources(html)
    assert sorted(sources) == ["A photo", "A webp", "An animation", "The Fixture logo"]
    assert sources["The Fixture logo"] == f"/api/docs/assets/index/{sha(png_bytes())}.png"
    assert sources["A photo"] == f"/api/docs/assets/index/{sha(JPEG)}.jpg"
    for refused in ("Fake PNG", "Vector", "Remote", "Too big", "Outside", "Linked"):
        assert f'<span class="doc-image-refused">{refused}</span>' in html
    assert '<span class="doc-image-refused"></span>' in html  # the image without alt text
    assert "tracker.example" not in html
    assert "secret" not in html


@pytest.mark.parametrize(
    ("alt", "data", "content_type"),
    [
        ("The Fixture logo", png_bytes(), "image/png"),
        ("A photo", JPEG, "image/jpeg"),
        ("An animation", GIF, "image/gif"),
        ("A webp", WEBP, "image/webp"),
    ],
)
async def test_asset_bytes_and_headers(
    client: httpx.AsyncClient, alt: str, data: bytes, content_type: str
) -> None:
    src = image_sources(await index_html(client))[alt]
    response = await client.get(src)
    assert response.status_code == 200
    assert response.content == data
    assert response.headers["content-type"] == content_type
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["etag"] == f'"{sha(data)}"'
    assert response.headers["cache-control"] == "private, no-cache"
    assert response.headers["content-security-policy"] == "default-src 'none'; sandbox"


@pytest.mark.parametrize(
    "name_and_bytes",
    [
        ("fake", JPEG, "png"),  # a .png holding JPEG bytes
        ("svg", SVG, "png"),
        ("svg-as-jpg", SVG, "jpg"),
        ("big", png_bytes() + b"\x00" * (11 * 1024 * 1024), "png"),
        ("outside", png_bytes(seed=99) + CANARY.encode(), "png"),
    ],
)
async def test_refused_images_have_no_asset(
    client: httpx.AsyncClient, name_and_bytes: tuple[str, bytes, str]
) -> None:
    _, data, ext = name_and_bytes
    await index_html(client)
    response = await client.get(f"/api/docs/assets/index/{sha(data)}.{ext}")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "asset-not-found"
    assert CANARY not in response.text


async def test_asset_of_another_article_or_unknown_slug_is_404(client: httpx.AsyncClient) -> None:
    logo = f"{sha(png_bytes())}.png"
    for slug in ("guide/install", "nope", "api"):
        response = await client.get(f"/api/docs/assets/{slug}/{logo}")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "asset-not-found"


async def test_etag_revalidation_gives_304(client: httpx.AsyncClient) -> None:
    src = image_sources(await index_html(client))["The Fixture logo"]
    etag = f'"{sha(png_bytes())}"'
    for header in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        response = await client.get(src, headers={"If-None-Match": header})
        assert response.status_code == 304
        assert response.content == b""
        assert response.headers["etag"] == etag
    fresh = await client.get(src, headers={"If-None-Match": '"something-else"'})
    assert fresh.status_code == 200
    assert fresh.content == png_bytes()


async def test_bearer_callers_keep_etag_revalidation(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Seed 003: "private, no-cache permits byte reuse only after revalidation"; the security
    headers' no-store for authenticated requests must not replace it (a signed-in reader's
    browser would download every image again)."""
    stored = app.state.askdocs.stored()
    user = UserService(stored.db).create_user("reader@x.io")
    bearer = {"Authorization": f"Bearer {mint(app.state.askdocs.settings, user.id)}"}
    src = image_sources(await index_html(client))["The Fixture logo"]
    first = await client.get(src, headers=bearer)
    assert first.status_code == 200
    assert first.headers["cache-control"] == "private, no-cache"
    etag = first.headers["etag"]
    again = await client.get(src, headers={**bearer, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.headers["cache-control"] == "private, no-cache"
    assert again.headers["etag"] == etag


async def test_removed_image_is_404_not_304(tree: Tree, client: httpx.AsyncClient) -> None:
    src = image_sources(await index_html(client))["The Fixture logo"]
    (tree.docs / "img" / "logo.png").unlink()
    response = await client.get(src, headers={"If-None-Match": f'"{sha(png_bytes())}"'})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "asset-not-found"
    assert '<span class="doc-image-refused">The Fixture logo</span>' in await index_html(client)


async def test_unreferenced_image_is_404(tree: Tree, client: httpx.AsyncClient) -> None:
    src = image_sources(await index_html(client))["A photo"]
    page = tree.docs / "index.md"
    page.write_text(page.read_text().replace("![A photo](img/photo.jpg", "[A photo](img/photo.jpg"))
    response = await client.get(src, headers={"If-None-Match": f'"{sha(JPEG)}"'})
    assert response.status_code == 404


async def test_replacing_an_image_changes_revision_and_url(
    tree: Tree, client: httpx.AsyncClient
) -> None:
    before = (await client.get("/api/docs/catalog", params={"locale": "en"})).json()["revision"]
    old = image_sources(await index_html(client))["The Fixture logo"]
    (tree.docs / "img" / "logo.png").write_bytes(png_bytes(seed=7))
    after = (await client.get("/api/docs/catalog", params={"locale": "en"})).json()["revision"]
    new = image_sources(await index_html(client))["The Fixture logo"]
    assert before != after
    assert new == f"/api/docs/assets/index/{sha(png_bytes(seed=7))}.png" != old
    assert (await client.get(old)).status_code == 404
    assert (
        await client.get(old, headers={"If-None-Match": f'"{sha(png_bytes())}"'})
    ).status_code == 404
    assert (await client.get(new)).content == png_bytes(seed=7)


async def test_image_swapped_for_a_symlink_is_refused(
    tree: Tree, client: httpx.AsyncClient
) -> None:
    src = image_sources(await index_html(client))["The Fixture logo"]
    logo = tree.docs / "img" / "logo.png"
    logo.unlink()
    logo.symlink_to(tree.base / "secret.png")
    response = await client.get(src)
    assert response.status_code == 404
    assert CANARY.encode() not in response.content
