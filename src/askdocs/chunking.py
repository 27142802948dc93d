"""Sections -> chunks: the pure chunker (seed 000 "Chunking", seed 001 "Indexing" step 2).

A page's sections (cut at headings of level <= ``split_level`` by the corpus parser) become
chunks:

* a section longer than ``max_chars`` splits at paragraph breaks: blank lines outside fenced
  or indented code, so a code block is never cut (code as the page's own parse found it,
  ``Section.code_lines``: a page is parsed once; a section without them is parsed here);
* a run of paragraph blocks is packed greedily up to ``max_chars``; a single block longer
  than the limit stays whole;
* a piece shorter than ``min_chars`` absorbs the next piece while the sum stays within
  ``max_chars`` (an absorbed section keeps its heading as a Markdown line in the text);
  ``min_chars=0`` turns merging off;
* blank pieces (a heading directly followed by another) produce no chunk;
* with merging off, the first direct sub-section of a short introducing section (at most
  ``INTRO_MAX_CHARS``) carries that introduction as ``Chunk.context`` (``with_intros``):
  it is embedded and searched with the sub-section, while ``Chunk.text`` stays exactly the
  sub-section's own text.

``Chunk.text`` is the section's Markdown without its own heading line: the heading travels
in ``Chunk.heading`` (the enclosing headings in ``Chunk.heading_trail``), and the embedded
text starts with the heading path: ``"{title} › {H2} › {H3}\\n\\n{text}"``
(``types.embed_text``; seed 000 says ``"{title} — {section}"``, and docs/seed-deviations.md
measures both).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from askdocs.corpus.groups import page_group
from askdocs.corpus.markdown import block_tokens
from askdocs.corpus.urls import format_url
from askdocs.types import Chunk, Page, Section

# Bump whenever the chunk text, ids or URLs a given input produces could change.
# 5: code lines come from the page's parse, not a parse of the rewritten section text (the
# same chunks on every real tree tried; two code blocks that a dropped HTML line separated
# are no longer one).
# 6: chunks carry their page's group (corpus.groups); "waiting-hint" is a reserved id.
CHUNKER_VERSION = "askdocs-chunker-6"
# A section whose own text is at most this long and that is directly followed by its first
# sub-section only introduces it: that sub-section carries the introduction as context.
INTRO_MAX_CHARS = 400


@dataclass(frozen=True)
class _Piece:
    section: Section
    part: int
    text: str
    context: str = ""


def chunk_page(
    page: Page, *, url_template: str, max_chars: int, min_chars: int
) -> tuple[Chunk, ...]:
    """Every chunk of one page variant, in document order."""
    contexts = with_intros(page.sections) if min_chars == 0 else [""] * len(page.sections)
    pieces = [
        _Piece(section, part, text, context if part == 0 else "")
        for section, context in zip(page.sections, contexts, strict=True)
        for part, text in enumerate(split_section_text(section.text, max_chars, section.code_lines))
        if text.strip()
    ]
    groups = merge_pieces(pieces, max_chars=max_chars, min_chars=min_chars)
    return tuple(_chunk(page, piece, text, url_template) for piece, text in groups)


def with_intros(sections: Sequence[Section]) -> list[str]:
    """Each section's lent context: the first sub-section of a short introducing section
    (at most ``INTRO_MAX_CHARS``, e.g. "## Override the default handlers" with one sentence
    before its first "###") gets that introduction, so the sub-section is found by the words
    of the introduction too; every other section gets "". The introducing section keeps its
    own chunk. Only used when merging is off (``min_chars=0``): merging already joins a
    short section with the next one."""
    contexts = [""] * len(sections)
    for i in range(1, len(sections)):
        parent, child = sections[i - 1], sections[i]
        intro = parent.text.strip()
        if (
            intro
            and len(intro) <= INTRO_MAX_CHARS
            and child.text.strip()
            and _is_child(parent, child)
        ):
            contexts[i] = intro
    return contexts


def _is_child(parent: Section, child: Section) -> bool:
    return len(child.trail) == len(parent.trail) + 1 and child.trail[:-1] == parent.trail


def split_section_text(
    text: str, max_chars: int, code_lines: Collection[int] | None = None
) -> list[str]:
    """Split one section's text into parts of at most ``max_chars`` at paragraph breaks."""
    if len(text) <= max_chars:
        return [text]
    return pack_blocks(split_blocks(text, code_lines), max_chars)


def split_blocks(text: str, code_lines: Collection[int] | None = None) -> list[str]:
    """Paragraph blocks: ``text`` cut at blank lines that are not inside a code block.
    ``code_lines`` are its code lines as the page's parse found them (``Section``); without
    them ``text`` is parsed here to find them."""
    lines = text.split("\n")
    protected = _code_lines(text) if code_lines is None else code_lines
    blocks: list[str] = []
    current: list[str] = []
    for index, line in enumerate(lines):
        if line.strip() or index in protected:
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def _code_lines(text: str) -> set[int]:
    lines: set[int] = set()
    for token in block_tokens(text):
        if token.type in ("fence", "code_block") and token.map is not None:
            lines.update(range(token.map[0], token.map[1]))
    return lines


def pack_blocks(blocks: Sequence[str], max_chars: int) -> list[str]:
    """Greedy packing of consecutive blocks, joined by a blank line, up to ``max_chars``."""
    parts: list[str] = []
    current = ""
    for block in blocks:
        if not current:
            current = block
        elif len(current) + 2 + len(block) <= max_chars:
            current = f"{current}\n\n{block}"
        else:
            parts.append(current)
            current = block
    if current:
        parts.append(current)
    return parts


def merge_pieces(
    pieces: Sequence[_Piece], *, max_chars: int, min_chars: int
) -> list[tuple[_Piece, str]]:
    """A piece under ``min_chars`` takes the following ones in while they fit ``max_chars``."""
    groups: list[tuple[_Piece, str]] = []
    for piece in pieces:
        if groups and len(groups[-1][1]) < min_chars:
            head, text = groups[-1]
            addition = _absorbed_text(piece)
            if len(text) + 2 + len(addition) <= max_chars:
                groups[-1] = (head, f"{text}\n\n{addition}")
                continue
        groups.append((piece, piece.text))
    return groups


def _absorbed_text(piece: _Piece) -> str:
    heading = piece.section.heading
    if heading is None or piece.part > 0:
        return piece.text
    return f"{'#' * heading.level} {heading.text}\n\n{piece.text}"


def _chunk(page: Page, piece: _Piece, text: str, url_template: str) -> Chunk:
    heading = piece.section.heading
    section_id = heading.section_id if heading else ""
    return Chunk(
        site=page.site,
        path=page.path,
        slug=page.slug,
        title=page.title,
        heading=heading.text if heading else page.title,
        heading_trail=piece.section.trail,
        section_id=section_id,
        anchor=section_id,
        url=format_url(
            url_template, slug=page.slug, path=page.path, anchor=section_id, locale=page.locale
        ),
        audience=page.audience,
        locale=page.locale,
        part=piece.part,
        text=text,
        context=piece.context,
        group=page_group(page.meta, page.slug),
    )
