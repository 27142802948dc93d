"""Turn the askdocs HTTP API's JSON into the MCP tools' outputs (server mode). Pure."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from askdocs.mcp.models import (
    ArticleOutput,
    AskOutput,
    AskSource,
    CatalogOutput,
    CatalogPage,
    Citation,
    SearchHit,
    SearchOutput,
    SectionRef,
)


def _obj(data: object) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise TypeError("expected a JSON object")
    return data


def citation_from_api(hit: Mapping[str, Any]) -> Citation:
    return Citation(
        title=str(hit["title"]),
        heading=str(hit.get("heading") or hit["title"]),
        path=str(hit["path"]),
        url=str(hit["url"]),
        anchor=str(hit.get("anchor") or urlsplit(str(hit["url"])).fragment),
        locale=str(hit["locale"]),
    )


def search_from_api(query: str, data: object) -> SearchOutput:
    body = _obj(data)
    hits = [_obj(item) for item in body["hits"]]
    return SearchOutput(
        query=query,
        site=str(body.get("site") or (hits[0].get("site") if hits else "") or ""),
        hits=[
            SearchHit(
                citation=citation_from_api(hit),
                heading_trail=[str(h) for h in hit.get("heading_trail") or ()],
                text=str(hit.get("text") or ""),
                score=float(hit.get("score") or 0.0),
            )
            for hit in hits
        ],
        match=bool(body.get("match", bool(hits))),
        mode=str(body.get("mode") or "hybrid"),
        note=body.get("degraded_reason") or body.get("reason"),
    )


def article_from_api(section: str | None, data: object) -> ArticleOutput:
    body = _obj(data)
    sections = [_obj(s) for s in body.get("sections") or ()]
    return ArticleOutput(
        slug=str(body["slug"]),
        title=str(body["title"]),
        locale=str(body["locale"]),
        translated=bool(body.get("translated", True)),
        markdown=str(body["markdown"]),
        citation=citation_from_api(body),
        sections=[
            SectionRef(heading=str(s["heading"]), anchor=str(s["anchor"]), level=int(s["level"]))
            for s in sections
        ],
    )


def catalog_from_api(data: object) -> CatalogOutput:
    body = _obj(data)
    return CatalogOutput(
        site=str(body.get("site") or ""),
        locale=str(body.get("locale") or ""),
        pages=[CatalogPage.model_validate(_obj(p)) for p in body["pages"]],
    )


def ask_from_api(text: str, sources_header: str) -> AskOutput:
    """The streamed answer text plus ``X-Ask-Sources`` (URL-encoded JSON list)."""
    try:
        items = json.loads(unquote(sources_header)) if sources_header else []
    except ValueError:
        items = []
    sources = [
        AskSource(
            title=str(i.get("title", "")), heading=str(i.get("heading", "")), url=str(i["url"])
        )
        for i in items
        if isinstance(i, dict) and "url" in i
    ]
    return AskOutput(answer=text, kind="answer" if sources else "no_match", sources=sources)
