"""Turn the askdocs HTTP API's JSON into the MCP tools' outputs (server mode). Pure."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from askdocs.error_codes import ErrorCode
from askdocs.errors import NotFound
from askdocs.mcp.htmlmd import html_parts, section_parts, tidy
from askdocs.mcp.models import (
    ArticleOutput,
    AskOutput,
    AskSource,
    CatalogOutput,
    CatalogPage,
    Citation,
    Freshness,
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
                freshness=Freshness(**_obj(hit.get("freshness") or {})),
            )
            for hit in hits
        ],
        match=bool(body.get("match", bool(hits))),
        mode=str(body.get("mode") or "hybrid"),
        note=body.get("degraded_reason") or body.get("reason"),
    )


def article_from_api(section: str | None, data: object) -> ArticleOutput:
    """A reader API ``Article`` (sanitised HTML) as Markdown: the page, or one section."""
    body = _obj(data)
    title, url = str(body["title"]), str(body["url"])
    toc = [
        SectionRef(heading=str(t["text"]), anchor=str(t["id"]), level=int(t["level"]))
        for t in (_obj(item) for item in body.get("toc") or ())
    ]
    parts = html_parts(str(body["html"]))
    chosen = section_parts(parts, section) if section else parts
    if chosen is None:
        names = ", ".join(entry.anchor for entry in toc)
        raise NotFound(
            f"page {body['slug']!r} has no section {section!r}; its sections are: {names}",
            code=ErrorCode.SECTION_NOT_FOUND,
        )
    first = chosen[0] if section else None
    text = "\n\n".join(part.markdown for part in chosen)
    anchor = (first.anchor or "") if first else ""
    return ArticleOutput(
        slug=str(body["slug"]),
        title=title,
        locale=str(body["locale"]),
        translated=bool(body.get("translated", True)),
        markdown=tidy(text if section else f"# {title}\n\n{text}"),
        citation=Citation(
            title=title,
            heading=first.heading if first else title,
            path=None,
            url=f"{url}#{anchor}" if anchor else url,
            anchor=anchor,
            locale=str(body["locale"]),
        ),
        sections=toc,
        freshness=Freshness(**_obj(body.get("freshness") or {})),
    )


def catalog_from_api(data: object) -> CatalogOutput:
    """A reader API ``Catalog``: its categories' articles, flattened in reading order."""
    body = _obj(data)
    articles = [
        _obj(article) for category in body["categories"] for article in _obj(category)["articles"]
    ]
    return CatalogOutput(
        site=str(body["site"]),
        locale=str(body["locale"]),
        pages=[
            CatalogPage(
                slug=str(a["slug"]),
                path=None,
                title=str(a["title"]),
                description=a.get("description"),
                url=str(a["url"]),
            )
            for a in articles
        ],
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
