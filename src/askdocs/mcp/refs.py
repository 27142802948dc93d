"""How a tool argument names a page: slug, path or citation url. Pure."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

DOCS_PREFIXES = ("/docs/developer/", "/docs/", "docs/")


def split_ref(ref: str) -> tuple[str, str | None]:
    """``"/docs/tutorial/cors#use-corsmiddleware"`` -> ``("tutorial/cors", "use-corsmiddleware")``.

    Accepts a slug, a path relative to the docs root, or a citation url.
    """
    parts = urlsplit(ref.strip())
    key = unquote(parts.path)
    for prefix in DOCS_PREFIXES:
        if key.startswith(prefix):
            key = key[len(prefix) :]
            break
    return key.strip("/"), (unquote(parts.fragment) or None)
