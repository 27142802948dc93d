"""The BM25 encoder's fast path (distinct words looked up once, C-level counting, memoised
term ids) gives exactly the vectors of the analysis written out word by word."""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askdocs.ingest import IngestCache, read_site
from askdocs.search import lexical
from askdocs.search.lexical import Bm25Params, FieldWeights, document_vector, term_id
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from askdocs.types import Chunk
from tests.conftest import TEST_DATA

TREES = sorted(
    [path for path in TEST_DATA.iterdir() if path.name.endswith("-docs")] + [TEST_DATA / "dialects"]
)
COLLIDING = ("w52890", "w55286")  # two terms with the same 32-bit term id


def reference_compat(text: str) -> str:
    """NFKC, then every combining mark dropped character by character (the definition)."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", kept)


def reference_terms(text: str, locale: str) -> list[str]:
    """Each word analysed on its own, no cache."""
    analyzer = lexical._analyzer(locale)
    words = lexical._WORD.findall(reference_compat(text))
    return [term for word in words for term in lexical._word_terms(word, analyzer)]


def reference_vector(
    chunk: Chunk, params: Bm25Params, weights: FieldWeights
) -> lexical.SparseVector:
    counts: Counter[str] = Counter()
    trail = " ".join(chunk.heading_trail[:-1])
    body = f"{chunk.context}\n\n{chunk.text}" if chunk.context else chunk.text
    fields = [
        (chunk.heading, weights.heading),
        (trail, weights.trail),
        (chunk.title, weights.title),
        (body, weights.text),
    ]
    for text, weight in fields:
        for term in reference_terms(text, chunk.locale) if weight and text else []:
            counts[term] += weight
    length = float(sum(counts.values()))
    values: dict[int, float] = {}
    for term, tf in counts.items():
        key = int.from_bytes(hashlib.blake2b(term.encode(), digest_size=4).digest(), "big")
        norm = 1.0 - params.b + params.b * length / params.avgdl
        values[key] = values.get(key, 0.0) + tf * (params.k1 + 1.0) / (tf + params.k1 * norm)
    ids = sorted(values)
    return lexical.SparseVector(tuple(ids), tuple(values[i] for i in ids))


def chunks_of(tree: Path) -> tuple[Chunk, ...]:
    return read_site(folder_site(tree), CorpusSettings(), IngestCache()).chunks


@pytest.mark.parametrize("tree", TREES, ids=lambda path: path.name)
def test_real_trees_get_exactly_the_reference_vectors(tree: Path) -> None:
    chunks = chunks_of(tree)
    assert len(chunks) > 5
    default, other = Bm25Params(), FieldWeights()
    for chunk in chunks:
        assert document_vector(chunk) == reference_vector(chunk, default, other), chunk.id
    weights = FieldWeights(heading=1, trail=2, title=0, text=3)
    params = Bm25Params(k1=0.9, b=0.4, avgdl=80.0)
    for chunk in chunks[:50]:
        assert document_vector(chunk, params, weights) == reference_vector(chunk, params, weights)


def test_non_ascii_text_folds_as_the_definition_says() -> None:
    text = "Příliš ŽLUŤOUČKÝ kůň — ＡＰＩ café naïve Straße ﬁle ½ “quoted” 日本語 ĳssel"
    assert lexical._compat(text) == reference_compat(text)
    assert lexical.fold(text) == reference_compat(text).casefold()
    for locale in ("en", "cs", "sk", "de"):
        assert lexical.analyze(text, locale) == reference_terms(text, locale)


@given(st.text(st.characters(codec="utf-8"), max_size=200), st.sampled_from(["en", "cs", "sk"]))
def test_any_text_analyses_as_word_by_word(text: str, locale: str) -> None:
    assert lexical.analyze(text, locale) == reference_terms(text, locale)
    assert lexical.fold(text) == reference_compat(text).casefold()


def test_terms_sharing_an_id_add_up() -> None:
    first, second = COLLIDING
    assert term_id(first) == term_id(second)
    chunk = Chunk(
        site="s", path="p.md", slug="p", title="", heading="", heading_trail=(),
        section_id="", anchor="", url="/p", audience="user", locale="en", part=0,
        text=f"{first} {second} {second} middleware",
    )  # fmt: skip
    vector = document_vector(chunk)
    assert len(vector.indices) == 2  # "middlewar" and the shared id
    assert vector == reference_vector(chunk, Bm25Params(), FieldWeights())


def test_a_full_memo_starts_over_and_stays_right(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical, "_WORD_CACHE_SIZE", 8)
    monkeypatch.setattr(lexical, "_word_memos", {})
    monkeypatch.setattr(lexical, "_term_ids", lexical._Memo(8))
    text = " ".join(f"word{n} Word{n}Part item_{n}" for n in range(20))
    assert lexical.analyze(text) == reference_terms(text, "en")
    memo = lexical._word_memos["en"]
    before = memo.values
    assert len(before) == 60  # this text's own words, though more than the bound
    assert lexical.analyze("alpha beta") == reference_terms("alpha beta", "en")
    assert set(memo.values) == {"alpha", "beta"}
    assert len(before) == 60  # a new dict: a thread still reading the old one keeps it
    expected = sorted({term_id(term) for term in reference_terms(text, "en")})
    assert lexical.query_vector(text).indices == tuple(expected)
    assert len(lexical._term_ids.values) <= 80
