"""Localised labels for categories and audiences (en, cs, sk): the authored category module.

A category id is the page's front matter ``category`` or else the first folder of its
path (``tutorial/cors.md`` -> ``tutorial``); pages at the root of their docs folder are in
``general``. Known ids have authored labels and a fixed order; any other id gets a label
made from the id itself and sorts after the known ones.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from askdocs.corpus.groups import GENERAL as _GENERAL

GENERAL: Final = _GENERAL  # the group of pages at the top of their docs folder

# id -> (en, cs, sk), in display order.
_CATEGORIES: Final = MappingProxyType(
    {
        "general": ("General", "Obecné", "Všeobecné"),
        "getting-started": ("Getting started", "Začínáme", "Začíname"),
        "guides": ("Guides", "Návody", "Návody"),
        "guide": ("Guide", "Průvodce", "Sprievodca"),
        "tutorial": ("Tutorial", "Výukový kurz", "Výukový kurz"),
        "tutorials": ("Tutorials", "Výukové kurzy", "Výukové kurzy"),
        "how-to": ("How-to guides", "Postupy", "Postupy"),
        "concepts": ("Concepts", "Koncepty", "Koncepty"),
        "configuration": ("Configuration", "Konfigurace", "Konfigurácia"),
        "administration": ("Administration", "Správa", "Správa"),
        "admin": ("Administration", "Správa", "Správa"),
        "deployment": ("Deployment", "Nasazení", "Nasadenie"),
        "integrations": ("Integrations", "Integrace", "Integrácie"),
        "advanced": ("Advanced", "Pokročilé", "Pokročilé"),
        "reference": ("Reference", "Reference", "Referencia"),
        "troubleshooting": ("Troubleshooting", "Řešení potíží", "Riešenie problémov"),
        "faq": ("FAQ", "Časté dotazy", "Časté otázky"),
    }
)
_AUDIENCES: Final = MappingProxyType(
    {
        "user": ("User guide", "Uživatelská příručka", "Používateľská príručka"),
        "administrator": ("Administrator guide", "Příručka správce", "Príručka správcu"),
    }
)
_LOCALE_INDEX: Final = MappingProxyType({"en": 0, "cs": 1, "sk": 2})
ADMIN_CATEGORIES: Final = frozenset({"admin", "administration"})


def category_label(category: str, locale: str) -> str:
    """The label of a category in ``locale``; unknown ids are humanised."""
    labels = _CATEGORIES.get(category)
    if labels is None:
        return humanise(category)
    return labels[_LOCALE_INDEX.get(locale, 0)]


def category_rank(category: str) -> int:
    """Known categories in authored order; unknown ones after them."""
    for rank, known in enumerate(_CATEGORIES):
        if known == category:
            return rank
    return len(_CATEGORIES)


def audience_label(audience: str, locale: str) -> str:
    return _AUDIENCES[audience][_LOCALE_INDEX.get(locale, 0)]


def humanise(identifier: str) -> str:
    words = identifier.replace("_", " ").replace("-", " ").split()
    text = " ".join(words) or identifier
    return text[:1].upper() + text[1:]
