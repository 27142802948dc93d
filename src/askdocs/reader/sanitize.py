"""The last step of rendering: placeholders become links and images, then nh3 cleans all.

Pure. ``finish`` turns the placeholders of ``reader.markup`` into ``<a>``, ``<img>`` or
plain labels; ``sanitize_html`` is the boundary that always runs last, with an allowlist
of tags and attributes (never ``svg`` or ``math``, never event handlers or ``style``),
safe URL schemes, ``img src`` limited to this server's asset route and ``rel`` on links.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from html import escape
from importlib.metadata import version

import nh3

from askdocs.reader.links import ResolvedLink
from askdocs.reader.markup import Markup

SANITIZER_VERSION = f"nh3-{version('nh3')}-2"
ASSET_PREFIX = "/api/docs/assets/"
_PLACEHOLDER = re.compile(r'<askdocs-(link|link-end|img) n="(\d+)">')
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
_TAGS = frozenset(
    {
        *("a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "dl", "dt", "em"),
        *_HEADINGS,
        *("hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "span", "strong"),
        *("sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul"),
        *("aside", "details", "summary", "section", "div"),  # dialect blocks (dialect_html)
    }
)
_ADMONITION = r"admonition [a-z][a-z0-9-]{0,31}"
_ATTRIBUTES: dict[str, set[str]] = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "loading"},
    "span": {"id", "class"},
    "code": {"class"},
    "th": {"class"},
    "td": {"class"},
    "ol": {"start"},
    "aside": {"class"},
    "details": {"class", "open"},
    "summary": {"class"},
    "section": {"class"},
    "div": {"class"},
    "p": {"class"},
    **{heading: {"id"} for heading in _HEADINGS},
}
_CLASSES: dict[str, re.Pattern[str]] = {
    "span": re.compile(
        r"doc-title-anchor|doc-link-unresolved|doc-image-refused|admonition-icon"
        r"|badge badge-(?:info|tip|warning|danger|note|important|caution)"
    ),
    "code": re.compile(r"language-[A-Za-z0-9_+#.-]{1,32}"),
    "th": re.compile(r"align-(?:left|right|center)"),
    "td": re.compile(r"align-(?:left|right|center)"),
    "aside": re.compile(_ADMONITION),
    "details": re.compile(rf"{_ADMONITION}|details"),
    "summary": re.compile(r"admonition-title"),
    "section": re.compile(r"tab-panel"),
    "div": re.compile(r"tabset|doc-block"),
    "p": re.compile(r"admonition-title|tab-label|block-title|doc-reference"),
}
_HREF = re.compile(r"(?:/docs/[^\s]*|#[^\s]*|https?://[^\s]+|mailto:[^\s]+)")
_ID = re.compile(r"[^\s\"'<>&]{1,200}")


def finish(
    markup: Markup,
    links: Mapping[int, ResolvedLink | None],
    images: Mapping[int, str | None],
) -> str:
    """Replace each placeholder: a resolved link or an unresolved label; an asset image
    (``images[n]`` is its URL) or its alt text."""
    alts = {ref.n: ref for ref in markup.images}
    titles = {ref.n: ref.title for ref in markup.links}

    def replace(match: re.Match[str]) -> str:
        kind, number = match.group(1), int(match.group(2))
        if kind == "img":
            ref = alts[number]
            return _image(images.get(number), ref.alt, ref.title, ref.alt_html)
        target = links.get(number)
        if kind == "link-end":
            return "</a>" if target else "</span>"
        return _link_open(target, titles.get(number))

    return _PLACEHOLDER.sub(replace, markup.html)


def _link_open(target: ResolvedLink | None, title: str | None) -> str:
    if target is None:
        return '<span class="doc-link-unresolved">'
    title_attr = f' title="{escape(title)}"' if title else ""
    return f'<a href="{escape(target.href)}"{title_attr}>'


def _image(url: str | None, alt: str, title: str | None, alt_html: str = "") -> str:
    if url is None:
        return f'<span class="doc-image-refused">{alt_html or escape(alt)}</span>'
    title_attr = f' title="{escape(title)}"' if title else ""
    return f'<img src="{escape(url)}" alt="{escape(alt)}"{title_attr} loading="lazy">'


def sanitize_html(html: str) -> str:
    """The allowlist boundary every rendered article passes through, last."""
    return _cleaner().clean(html)


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=set(_TAGS),
        clean_content_tags={"script", "style"},
        attributes=_ATTRIBUTES,
        attribute_filter=_filter_attribute,
        strip_comments=True,
        link_rel="noopener noreferrer",
        url_schemes={"http", "https", "mailto"},
    )


def _filter_attribute(tag: str, attribute: str, value: str) -> str | None:
    if attribute == "href":
        return value if _HREF.fullmatch(value) else None
    if attribute == "src":
        return value if tag == "img" and _is_asset_url(value) else None
    if attribute == "class":
        pattern = _CLASSES.get(tag)
        return value if pattern is not None and pattern.fullmatch(value) else None
    if attribute == "id":
        return value if _ID.fullmatch(value) else None
    if attribute == "loading":
        return "lazy"
    if attribute == "open":
        return "" if tag == "details" else None
    if attribute == "start":
        return value if value.isdigit() and len(value) <= 9 else None
    return value


def _is_asset_url(value: str) -> bool:
    rest = value.removeprefix(ASSET_PREFIX)
    return rest != value and ".." not in rest and "//" not in rest and "\\" not in rest
