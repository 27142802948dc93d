"""The lexical (BM25) side of hybrid search: text -> terms -> sparse vectors. Pure.

Analysis, the same for documents and queries:

1. Unicode NFKC, then diacritic folding (NFD, combining marks dropped) and case folding,
   so "Příliš" == "prilis" and fullwidth "ＡＰＩ" == "api".
2. Whole-word tokens. A word joined by ``_``, ``-`` or ``.`` (``receive_json``,
   ``shm-size``, ``fastapi.Depends``) or written in camelCase (``GZipMiddleware``) is kept
   verbatim as one term *and* split into its parts, so exact identifiers match exactly and
   their parts still match prose.
3. Per-locale stop words are dropped from plain words and parts (never from identifiers).
4. Snowball stemming where a stemmer exists (English; Czech for cs). Slovak has none.

Terms become sparse-vector indices through a stable 32-bit hash (blake2b, 4 bytes), so the
same term has the same id in every process and every collection.

Document vectors hold the BM25 term-frequency part,
``tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))``; the vector store multiplies in the
IDF (Qdrant's ``Modifier.IDF``), so the dot product with a query vector of ones is BM25.
Heading words count ``heading_weight`` times (seed 003: threefold heading weighting).
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Generic, Protocol, TypeVar

import Stemmer

from askdocs.search.stopwords import stop_words
from askdocs.types import SparseVector

__all__ = [
    "DEFAULT_AVGDL",
    "Bm25Params",
    "FieldWeights",
    "SparseVector",
    "analyze",
    "average_length",
    "document_terms",
    "document_vector",
    "fold",
    "query_terms",
    "query_vector",
    "term_id",
]

DEFAULT_AVGDL = 120.0  # weighted terms per chunk; close to the measured docs average
STEMMERS: dict[str, str] = {"en": "english", "cs": "czech"}

# A word, possibly joined to more words by "_", "-" or "." (identifiers, flags, dotted names).
_WORD = re.compile(r"[^\W_]+(?:[_.\-]+[^\W_]+)*")
_JOINERS = re.compile(r"[_.\-]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+\d*|[A-Z]+\d*|\d+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


class _HasFields(Protocol):
    """What a document vector reads from a chunk (``askdocs.types.Chunk`` has it all)."""

    @property
    def title(self) -> str: ...
    @property
    def heading(self) -> str: ...
    @property
    def heading_trail(self) -> tuple[str, ...]: ...
    @property
    def text(self) -> str: ...
    @property
    def context(self) -> str: ...
    @property
    def locale(self) -> str: ...


@dataclass(frozen=True)
class Bm25Params:
    k1: float = 1.2
    b: float = 0.75
    avgdl: float = DEFAULT_AVGDL


@dataclass(frozen=True)
class FieldWeights:
    """How many times a term counts per occurrence in each field of a chunk."""

    heading: int = 3
    trail: int = 1  # the headings above the chunk's own heading
    title: int = 1
    text: int = 1


def fold(text: str) -> str:
    """NFKC, diacritics removed, case folded: the form every term is compared in."""
    return _compat(text).casefold()


def _compat(text: str) -> str:
    """NFKC and diacritics removed, case kept (camelCase splitting needs the case)."""
    if text.isascii():  # ASCII is invariant under every normal form: the common case
        return text
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    return unicodedata.normalize("NFC", _without_marks(decomposed))


def _without_marks(decomposed: str) -> str:
    """``decomposed`` without its combining marks. Only the non-ASCII runs are looked at
    character by character: a page with one em dash is otherwise all ASCII."""
    if decomposed.isascii():
        return decomposed
    return _NON_ASCII.sub(_drop_marks, decomposed)


def _drop_marks(run: re.Match[str]) -> str:
    return "".join(ch for ch in run.group() if not unicodedata.combining(ch))


class _Analyzer:
    """Stop words and a stemmer for one locale. Stemmers are not thread-safe: one per thread."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.stop = stop_words(locale)
        algorithm = STEMMERS.get(locale)
        self._stemmer = Stemmer.Stemmer(algorithm) if algorithm else None

    def stem(self, word: str) -> str:
        return self._stemmer.stemWord(word) if self._stemmer is not None else word

    def word(self, word: str) -> str | None:
        """A plain word's term, or None when it (or its stem) is a stop word or too short to
        mean much: Czech ``namu`` stems to the stop word ``nam``."""
        if word in self.stop or (len(word) < 2 and not word.isdigit()):
            return None
        term = self.stem(word)
        return None if term in self.stop else term


_local = threading.local()


def _analyzer(locale: str) -> _Analyzer:
    cache: dict[str, _Analyzer] | None = getattr(_local, "analyzers", None)
    if cache is None:
        cache = {}
        _local.analyzers = cache
    key = locale if locale in STEMMERS or locale in ("sk",) else "en"
    if key not in cache:
        cache[key] = _Analyzer(key)
    return cache[key]


def _camel(piece: str) -> list[str]:
    """camelCase parts; a lone capital joins the next part ("GZip" stays "GZip")."""
    parts: list[str] = []
    pending = ""
    for part in _CAMEL.findall(piece):
        if len(part) == 1 and part.isupper():
            pending += part
            continue
        parts.append(pending + part)
        pending = ""
    if pending:
        parts.append(pending)
    return parts if sum(len(part) > 1 for part in parts) > 1 else [piece]


def _parts(raw: str) -> list[str]:
    """The parts of an identifier: split at joiners, then at camelCase boundaries."""
    if raw.isascii() and (raw.isdigit() or (raw.isalpha() and (raw.islower() or raw.istitle()))):
        return [raw.casefold()]  # a plain word or number: one part (most words of a corpus)
    parts: list[str] = []
    for piece in _JOINERS.split(raw):
        parts.extend(_camel(piece))
    return [part.casefold() for part in parts if part]


def _word_terms(raw: str, analyzer: _Analyzer) -> Iterator[str]:
    parts = _parts(raw)
    whole = raw.casefold()
    if len(parts) <= 1:
        term = analyzer.word(whole)
        if term:
            yield term
        return
    yield whole  # the identifier itself, verbatim
    for part in parts:
        term = analyzer.word(part)
        if term:
            yield term


_WORD_CACHE_SIZE = 200_000  # distinct words (or terms) remembered; then a memo starts over
K = TypeVar("K")
V = TypeVar("V")


class _Memo(Generic[K, V]):
    """A bounded memo shared by threads: a fill that would pass ``size`` entries starts
    over with a new dict, so a thread still reading the old one is not disturbed."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: dict[K, V] = {}

    def holding(self, keys: Iterable[K], compute: Callable[[K], V]) -> dict[K, V]:
        """The memo's dict, with a value for every one of ``keys``."""
        values = self.values
        new = set(keys).difference(values)
        if new:
            if len(values) + len(new) > self.size:
                values, new = {}, set(keys)
            for key in new:
                values[key] = compute(key)
            self.values = values
        return values


_word_memos: dict[str, _Memo[str, tuple[str, ...]]] = {}  # per locale: word -> its terms
_term_ids: _Memo[str, int] = _Memo(_WORD_CACHE_SIZE)


def _terms(words: list[str], analyzer: _Analyzer) -> Iterator[str]:
    """The terms of ``words`` in order. A corpus repeats its words, so each distinct word
    is analysed once (``_word_terms``) and looked up in C after that."""
    memo = _word_memos.get(analyzer.locale)
    if memo is None:
        memo = _word_memos.setdefault(analyzer.locale, _Memo(_WORD_CACHE_SIZE))
    known = memo.holding(words, lambda raw: tuple(_word_terms(raw, analyzer)))
    return chain.from_iterable(map(known.__getitem__, words))


def analyze(text: str, locale: str = "en") -> list[str]:
    """The terms of ``text`` in order, duplicates kept (documents count them)."""
    return list(_terms(_WORD.findall(_compat(text)), _analyzer(locale)))


def _term_ids_of(terms: list[str]) -> list[int]:
    """``term_id`` of each of ``terms``, memoised."""
    return list(map(_term_ids.holding(terms, _hash_id).__getitem__, terms))


def term_id(term: str) -> int:
    """A stable unsigned 32-bit id for a term."""
    return _term_ids_of([term])[0]


def _hash_id(term: str) -> int:
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest(), "big")


def document_terms(chunk: _HasFields, weights: FieldWeights | None = None) -> Counter[str]:
    """Weighted term frequencies of a chunk's fields."""
    w = weights or FieldWeights()
    locale = chunk.locale
    counts: Counter[str] = Counter()
    trail = chunk.heading_trail[:-1] if chunk.heading_trail else ()
    fields = ((chunk.heading, w.heading), (" ".join(trail), w.trail), (chunk.title, w.title))
    body = f"{chunk.context}\n\n{chunk.text}" if chunk.context else chunk.text
    for text, weight in (*fields, (body, w.text)):
        if weight and text:
            terms = analyze(text, locale)
            for _ in range(weight):  # weights are small counts: Counter.update runs in C
                counts.update(terms)
    return counts


def _to_sparse(values: dict[int, float]) -> SparseVector:
    ids = sorted(values)
    return SparseVector(indices=tuple(ids), values=tuple(map(values.__getitem__, ids)))


def document_vector(
    chunk: _HasFields,
    params: Bm25Params | None = None,
    weights: FieldWeights | None = None,
) -> SparseVector:
    """The BM25 term-frequency vector of a chunk (IDF applied by the store): each term's
    ``tf * (k1 + 1) / (tf + k1 * norm)``, ``norm = 1 - b + b * dl / avgdl``; terms that
    share an id add up."""
    p = params or Bm25Params()
    counts = document_terms(chunk, weights)
    norm = 1.0 - p.b + p.b * float(sum(counts.values())) / p.avgdl
    scale, floor = p.k1 + 1.0, p.k1 * norm
    ids = _term_ids_of(list(counts))
    saturated = [tf * scale / (tf + floor) for tf in map(float, counts.values())]
    if len(set(ids)) == len(ids):
        return _to_sparse(dict(zip(ids, saturated, strict=True)))
    values: dict[int, float] = {}
    for key, value in zip(ids, saturated, strict=True):
        values[key] = values.get(key, 0.0) + value
    return _to_sparse(values)


def query_terms(text: str, locale: str = "en") -> list[str]:
    """The unique terms of a query. Other locales also get the English analysis, so
    product names and English technical words match the canonical English pages."""
    terms = analyze(text, locale)
    if locale != "en":
        terms += analyze(text, "en")
    return list(dict.fromkeys(terms))


def query_vector(text: str, locale: str = "en") -> SparseVector:
    """A query's sparse vector: weight 1 per unique term."""
    ids = {term_id(term) for term in query_terms(text, locale)}
    return _to_sparse(dict.fromkeys(ids, 1.0))


def average_length(chunks: Iterable[_HasFields], weights: FieldWeights | None = None) -> float:
    """The mean weighted term count of ``chunks`` (``avgdl``), at least 1."""
    lengths = [sum(document_terms(chunk, weights).values()) for chunk in chunks]
    return max(1.0, sum(lengths) / len(lengths)) if lengths else DEFAULT_AVGDL


LEXICAL_VERSION = "askdocs-bm25-1"  # bump when the analysis above changes its terms


def lexical_version(params: Bm25Params | None = None, weights: FieldWeights | None = None) -> str:
    """Names the analysis and its parameters; the index rebuilds sparse vectors on change."""
    p, w = params or Bm25Params(), weights or FieldWeights()
    fields = f"h{w.heading}t{w.trail}T{w.title}x{w.text}"
    return f"{LEXICAL_VERSION}:k1={p.k1}:b={p.b}:avgdl={p.avgdl}:{fields}"


def sparse_encoder(
    params: Bm25Params | None = None, weights: FieldWeights | None = None
) -> Callable[[_HasFields], SparseVector]:
    """``document_vector`` with fixed parameters, as the index builder wants it."""

    def encode(chunk: _HasFields) -> SparseVector:
        return document_vector(chunk, params, weights)

    return encode


def name_terms(text: str, locale: str = "en") -> list[str]:
    """Terms of the words that look like names: any capital letter past the first letter
    of the text (``Prometheus``, ``gRPC``, ``FastAPI``) or an identifier. The match decision
    checks that the docs mention each one at least once."""
    analyzer = _analyzer(locale)
    names: list[str] = []
    for index, match in enumerate(_WORD.finditer(_compat(text))):
        raw = match.group()
        if _looks_like_name(raw, first=index == 0):
            names.extend(list(_word_terms(raw, analyzer))[:1])
    return list(dict.fromkeys(names))


def _looks_like_name(raw: str, *, first: bool) -> bool:
    capitals = sum(ch.isupper() for ch in raw)
    if capitals == 0:
        return False
    return not (first and capitals == 1 and raw[0].isupper())
