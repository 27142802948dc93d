"""Seed 003's ``group`` filter: a search limited to the pages of one group (the reader's
category: front matter ``category``, else the slug's first folder, else ``general``),
applied by the engine's filter before the limit, over HTTP and in the engine."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from askdocs.corpus.groups import page_group
from askdocs.index.payload import chunk_from_payload, chunk_payload
from askdocs.index.types import QueryFilter
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from tests.search.conftest import SITE

QUESTION = "how do I give the container more shared memory"


@pytest.mark.parametrize(
    ("meta", "slug", "group"),
    [
        ({}, "deployment/docker", "deployment"),
        ({}, "cors", "general"),
        ({"category": "Security"}, "cors", "security"),
        ({"category": "not an id!"}, "guide/install", "guide"),
    ],
)
def test_a_page_group_is_its_category_else_its_first_folder(
    meta: dict[str, object], slug: str, group: str
) -> None:
    assert page_group(meta, slug) == group


def test_chunks_carry_their_group_into_the_payload_and_back(indexed: AskDocs) -> None:
    chunks = {chunk.slug: chunk for chunk in indexed.snapshot(SITE).chunks}
    docker, cors = chunks["deployment/docker"], chunks["cors"]
    assert (docker.group, cors.group) == ("deployment", "general")
    payload = chunk_payload(docker, "run-1")
    assert chunk_from_payload(payload) == docker
    assert QueryFilter(group="deployment").admits(payload)
    assert not QueryFilter(group="general").admits(payload)


def test_the_engine_searches_only_the_group(indexed: AskDocs) -> None:
    everywhere = indexed.search(QUESTION, site=SITE, limit=10)
    assert {hit.slug for hit in everywhere.hits} > {"deployment/docker"}
    deployment = indexed.search(QUESTION, site=SITE, limit=10, group="deployment")
    assert deployment.hits
    assert {hit.slug for hit in deployment.hits} == {"deployment/docker"}
    general = indexed.search(QUESTION, site=SITE, limit=10, group="general")
    assert "deployment/docker" not in {hit.slug for hit in general.hits}
    assert indexed.search(QUESTION, site=SITE, group="nowhere").hits == ()


@pytest.fixture
async def http(indexed: AskDocs) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(indexed.settings, indexed))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        yield client


@pytest.mark.anyio
async def test_the_search_route_takes_a_group(http: httpx.AsyncClient) -> None:
    params = {"q": QUESTION, "site": SITE}
    found = await http.get("/api/search", params={**params, "group": "Deployment"})
    assert found.status_code == 200
    assert {hit["slug"] for hit in found.json()["hits"]} == {"deployment/docker"}
    for bad in ("../etc", "a" * 64, "-x", "a b"):
        refused = await http.get("/api/search", params={**params, "group": bad})
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "invalid_request"
