"""Footnote ids the way each dialect's build makes them (pure).

* MkDocs (Python-Markdown ``footnotes``): by the footnote's label, ``fn:LABEL`` on the note
  and ``fnref:LABEL`` on its first reference (``fnref2:LABEL`` on the second...), so
  ``[^1]`` is ``#fn:1`` and ``[^note]`` is ``#fn:note``;
* every other dialect (markdown-it-footnote, as VitePress): by the note's number in order
  of first reference, ``fn1`` and ``fnref1`` (``fnref1:1`` on the second reference).

An inline footnote (``^[text]``) has no label and is numbered in every dialect.
"""

from __future__ import annotations


def note_id(dialect: str, number: int, label: str | None) -> str:
    """The id of the note ``number`` (1-based) labelled ``label``."""
    if dialect == "mkdocs" and label:
        return f"fn:{label}"
    return f"fn{number}"


def ref_id(dialect: str, number: int, label: str | None, repeat: int = 0) -> str:
    """The id of the ``repeat``-th (0-based) reference to the note ``number``."""
    if dialect == "mkdocs" and label:
        return f"fnref:{label}" if repeat == 0 else f"fnref{repeat + 1}:{label}"
    return f"fnref{number}" if repeat == 0 else f"fnref{number}:{repeat}"


def labelled_ids(dialect: str, labels: list[str]) -> list[str]:
    """The ids a page's labelled notes give links, known before inline parsing (only where
    they follow the label): each note and its first reference."""
    if dialect != "mkdocs":
        return []
    return [
        ident
        for label in labels
        for ident in (note_id(dialect, 0, label), ref_id(dialect, 0, label))
    ]
