"""The BM25 analysis: folding, stop words, stemming, identifiers, vectors."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from askdocs.search import lexical
from askdocs.search.lexical import (
    Bm25Params,
    FieldWeights,
    analyze,
    document_vector,
    fold,
    query_terms,
    query_vector,
    term_id,
)
from askdocs.search.stopwords import STOP_WORDS


@dataclass(frozen=True)
class Doc:
    title: str = "Page"
    heading: str = "Section"
    heading_trail: tuple[str, ...] = ()
    text: str = ""
    context: str = ""
    locale: str = "en"


def score(query: str, doc: Doc, locale: str = "en") -> float:
    """The dot product the store computes (IDF left out: 1 for every term)."""
    q = query_vector(query, locale)
    d = document_vector(doc)
    weights = dict(zip(d.indices, d.values, strict=True))
    return sum(weights.get(i, 0.0) for i in q.indices)


def test_fold_removes_diacritics_case_and_compatibility_forms() -> None:
    assert fold("Příliš ŽLUŤOUČKÝ kůň") == "prilis zlutoucky kun"
    assert fold("ＡＰＩ") == "api"
    assert fold("Straße") == "strasse"


def test_folded_and_unfolded_queries_match_the_same_terms() -> None:
    assert analyze("nastavení middlewaru", "cs") == analyze("nastaveni middlewaru", "cs")


def test_english_stop_words_are_dropped_and_stemming_applies() -> None:
    assert analyze("How do I configure the running servers?") == ["configur", "run", "server"]


def test_czech_and_slovak_stop_words() -> None:
    assert "jak" not in analyze("jak nastavit aplikaci", "cs")
    assert "ako" not in analyze("ako nastavit aplikaciu", "sk")
    assert analyze("aplikacia", "sk") == ["aplikacia"]  # Slovak: no stemmer


def test_snake_case_identifier_kept_whole_and_split() -> None:
    assert analyze("receive_json") == ["receive_json", "receiv", "json"]


def test_dashed_flag_kept_whole_and_split() -> None:
    assert analyze("--shm-size") == ["shm-size", "shm", "size"]


def test_call_syntax_yields_its_words() -> None:
    assert analyze('Depends(scope="function")') == ["depend", "scope", "function"]


def test_camel_case_split_keeps_leading_capitals_together() -> None:
    assert analyze("GZipMiddleware") == ["gzipmiddleware", "gzip", "middlewar"]
    assert analyze("HTTPException") == ["httpexception", "http", "except"]


def test_stop_word_inside_identifier_keeps_identifier() -> None:
    assert analyze("as_form") == ["as_form", "form"]


def test_identifier_query_prefers_the_exact_identifier() -> None:
    exact = Doc(text="Call receive_json to decode the message.")
    loose = Doc(text="Receive the message, then parse the JSON yourself.")
    assert score("receive_json", exact) > score("receive_json", loose) > 0


def test_exact_identifiers_match_their_documents() -> None:
    for query, text in [
        ('Depends(scope="function")', 'Use Depends(scope="function") to end early.'),
        ("shm-size", "Start it with --shm-size=2g."),
        ("receive_json", "await websocket.receive_json()"),
    ]:
        assert score(query, Doc(text=text)) > score(query, Doc(text="unrelated words here"))


def test_heading_terms_weigh_three_times() -> None:
    in_heading = Doc(heading="Healthcheck", text="Add an instruction.")
    in_text = Doc(heading="Other", text="Add a healthcheck instruction.")
    counts = lexical.document_terms(in_heading)
    assert counts["healthcheck"] == 3
    assert score("healthcheck", in_heading) > score("healthcheck", in_text)


def test_field_weights_are_configurable() -> None:
    doc = Doc(title="Docker", heading="Memory", heading_trail=("Guide", "Deploy", "Memory"))
    counts = lexical.document_terms(doc, FieldWeights(heading=1, trail=2, title=0))
    assert counts["memori"] == 1
    assert counts["deploy"] == 2
    assert "docker" not in counts


def test_query_vector_has_unit_weights_and_unique_terms() -> None:
    vector = query_vector("json json JSON receive_json")
    assert len(set(vector.indices)) == len(vector.indices)
    assert set(vector.values) == {1.0}
    assert list(vector.indices) == sorted(vector.indices)


def test_other_locales_also_query_english_terms() -> None:
    terms = query_terms("nastavení CORS middleware", "cs")
    assert "middlewar" in terms  # the English stem, for English pages and product names


def test_bm25_saturation_and_length_normalisation() -> None:
    params = Bm25Params(k1=1.2, b=0.75, avgdl=10)
    cache = term_id("cach")
    short = document_vector(Doc(title="", heading="", text="cache"), params)
    long = document_vector(Doc(title="", heading="", text="cache " + "filler " * 40), params)
    value = {i: dict(zip(v.indices, v.values, strict=True))[i] for v in (short,) for i in (cache,)}
    assert value[cache] > dict(zip(long.indices, long.values, strict=True))[cache]
    assert all(0 < v < params.k1 + 1 for v in long.values)


def test_term_ids_are_stable_unsigned_32_bit() -> None:
    assert term_id("json") == term_id("json")
    assert term_id("json") != term_id("jsonx")
    assert 0 <= term_id("anything") < 2**32


def test_lexical_version_names_parameters() -> None:
    assert lexical.lexical_version() != lexical.lexical_version(Bm25Params(k1=2.0))


@given(st.text(max_size=200))
def test_fold_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


def test_a_word_whose_stem_is_a_stop_word_gives_no_term() -> None:
    assert analyze("NAMU", "cs") == []


@given(st.text(max_size=200), st.sampled_from(["en", "cs", "sk"]))
def test_terms_are_folded_and_never_plain_stop_words(text: str, locale: str) -> None:
    for term in analyze(text, locale):
        assert term == fold(term)
        assert term not in STOP_WORDS[locale] or any(c in term for c in "_-.")


@given(st.text(max_size=300))
def test_document_vectors_are_well_formed(text: str) -> None:
    vector = document_vector(Doc(text=text))
    assert list(vector.indices) == sorted(set(vector.indices))
    assert all(0 < v < 3 for v in vector.values)


def test_name_terms_pick_capitalised_words_past_the_first() -> None:
    assert lexical.name_terms("How do I expose Prometheus metrics?") == ["prometheus"]
    assert lexical.name_terms("does FastAPI support gRPC services?") == ["fastapi", "grpc"]
    assert lexical.name_terms("Expose metrics") == []
    assert lexical.name_terms("use receive_json") == []
    assert lexical.name_terms("use GZipMiddleware") == ["gzipmiddleware"]
