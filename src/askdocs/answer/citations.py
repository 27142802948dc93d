"""The citation check (pure): an answer's ``[n]`` markers must point at a source that was in
the model's context, and the sentence they mark must share support with that source.

The rule, applied outside fenced code: a sentence's content words (lower-cased words of
three or more letters, or numbers, minus common function words) are compared with the cited
source's. A marker holds when they share at least ``MIN_SHARED`` words (fewer if the
sentence has fewer) and at least ``MIN_SHARE`` of the sentence's words. A marker placed
just after a sentence's end (``… venv. [1]``) is judged with that sentence. Markers that
fail, or that name no source, are dropped, and the answer ends with ``DROPPED_NOTE``.
``bench/citations.py`` measures the rule on the documentation's own sentences.

``CitationFilter`` applies the rule to a stream without delaying it: only a possible
marker is held back, until the next character shows what it is.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field

FULL = re.compile(r" ?\[(\d{1,2})\](.?)", re.DOTALL)  # a marker and the character after it
PARTIAL = re.compile(r" ?\[\d{0,2}\]?")  # what may still become a marker
STEM = 5  # words compare by their first five letters: "configure" meets "configuring"
WORD = re.compile(r"[^\W_]{3,}|\d+")
SENTENCE_END = re.compile(r"[.!?]\s+|\n+")
FENCE = re.compile(r"^\s*(```|~~~)")
MIN_SHARED = 2
MIN_SHARE = 0.4
DROPPED_NOTE = "\n\n[Some citations were removed: the cited pages do not support them.]"
_FUNCTION_WORDS = """the and for are but not you your with this that from have has had was were
    will would can could should into onto than then them they their there these those what
    when where which who whom why how all any each its it's our out use used using also only
    just more most other some such very may might must one two via per about after before
    over under again here yes she him her his ours been being does did doing done"""
STOPWORDS = frozenset(_FUNCTION_WORDS.split())


def words(text: str) -> frozenset[str]:
    """The content words of ``text`` (the unit the rule compares)."""
    return frozenset(w[:STEM] for w in WORD.findall(text.lower()) if w not in STOPWORDS)


def supported(sentence: frozenset[str], source: frozenset[str]) -> bool:
    if not sentence:
        return False
    shared = len(sentence & source)
    return shared >= min(MIN_SHARED, len(sentence)) and shared / len(sentence) >= MIN_SHARE


@dataclass
class CitationFilter:
    """Feed the answer's text in pieces; get it back with unsupported markers dropped. Text
    streams through at once; only a possible marker (``[``, ``[1``, ``[12]``) is held until
    the character after it shows what it is."""

    sources: Mapping[int, frozenset[str]]  # source number -> its content words
    dropped: list[int] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    _held: str = ""
    _sentence: str = ""  # the current sentence so far (outside code)
    _previous: frozenset[str] = frozenset()  # the last finished sentence's words
    _line: str = ""
    _in_fence: bool = False

    @classmethod
    def over(cls, texts: Mapping[int, str]) -> CitationFilter:
        return cls({n: words(text) for n, text in texts.items()})

    @property
    def flagged(self) -> bool:
        return bool(self.dropped)

    def feed(self, text: str) -> str:
        self._held += text
        out: list[str] = []
        while self._held:
            start = self._held.find("[")
            if start > 0 and self._held[start - 1] == " ":
                start -= 1  # a dropped marker takes its space with it
            if self._in_fence:  # code passes through, one line at a time
                end = self._held.find("\n") + 1 or len(self._held)
                out.append(self._plain(self._held[:end]))
                self._held = self._held[end:]
            elif start < 0:  # a trailing space waits: a marker may follow it
                cut = len(self._held) - 1 if self._held.endswith(" ") else len(self._held)
                out.append(self._plain(self._held[:cut]))
                self._held = self._held[cut:]
                break
            elif start > 0:
                out.append(self._plain(self._held[:start]))
                self._held = self._held[start:]
            elif PARTIAL.fullmatch(self._held):
                break  # wait for the next piece
            else:
                out.append(self._bracket())
        return "".join(out)

    def close(self) -> str:
        out = self.feed("\n") if self._held else ""
        out = out[:-1] if out.endswith("\n") else out
        return out + (DROPPED_NOTE if self.dropped else "")

    def _bracket(self) -> str:
        found = FULL.match(self._held)
        if found is None or found.group(2) == "(":
            head = self._held[: self._held.index("[") + 1]
            self._held = self._held[len(head) :]
            return self._plain(head)
        space = " " if self._held.startswith(" ") else ""
        self._held = self._held[found.end(1) + 1 :]
        kept = self._judge(int(found.group(1)))
        return f"{space}{kept}" if kept else ""

    def _judge(self, n: int) -> str:
        source = self.sources.get(n)
        own = words(self._sentence) or self._previous  # "… venv. [1]": the sentence before
        if source is not None and supported(own, source):
            self.kept.append(n)
            return f"[{n}]"
        self.dropped.append(n)
        return ""

    def _plain(self, text: str) -> str:
        for part in re.split(r"(?<=\n)", text):
            self._line += part
            if part.endswith("\n"):
                if FENCE.match(self._line):
                    self._in_fence = not self._in_fence
                self._line = ""
            if not self._in_fence:
                self._sentence += part
        self._end_sentences()
        return text

    def _end_sentences(self) -> None:
        ends = list(SENTENCE_END.finditer(self._sentence))
        if not ends:
            return
        done, self._sentence = self._sentence[: ends[-1].start()], self._sentence[ends[-1].end() :]
        last = re.split(r"[.!?]\s+|\n+", done.strip())[-1]
        if words(last):
            self._previous = words(last)


async def checked_stream(body: AsyncIterator[str], checker: CitationFilter) -> AsyncIterator[str]:
    """``body`` with the citation check applied as it streams."""
    async for piece in body:
        out = checker.feed(piece)
        if out:
            yield out
    rest = checker.close()
    if rest:
        yield rest
