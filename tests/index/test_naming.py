from __future__ import annotations

import re
import uuid
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from askdocs.index.naming import (
    KEYWORD_ONLY,
    ModelSpec,
    chunk_fingerprint,
    collection_name,
    corpus_hash,
    model_key_of,
    model_slug,
    point_id,
    site_hash,
)
from tests.index.helpers import corpus

NAME = re.compile(r"^docs_[a-z0-9-]+_[0-9a-f]{8}_[0-9a-f]{12}$")


def test_collection_name_has_the_seed_shape() -> None:
    spec = ModelSpec("local:all-MiniLM-L6-v2", 384)
    name = collection_name(spec, "ab" * 32)
    assert name == f"docs_local-all-minilm-l6-v2_{spec.hash8}_{'ab' * 6}"
    assert NAME.match(name)
    assert model_key_of(name) == spec.key


def test_keyword_only_collections_use_the_none_slug() -> None:
    assert collection_name(KEYWORD_ONLY, "0" * 64).startswith("docs_none_")


def test_model_hash_separates_dimensions_and_ids_with_the_same_slug() -> None:
    a, b = ModelSpec("m:x", 384), ModelSpec("m:x", 768)
    c = ModelSpec("m-x", 384)
    assert a.slug == c.slug
    assert len({a.key, b.key, c.key}) == 3


@given(st.text(max_size=80))
def test_slug_is_always_safe(model_id: str) -> None:
    slug = model_slug(model_id)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug)
    assert len(slug) <= 40


def test_foreign_names_have_no_model_key() -> None:
    assert model_key_of("docs_x_1234") is None
    assert model_key_of(".trash-docs_a_00000000_000000000000-1") is None


def test_point_id_is_a_stable_uuid_per_site_and_chunk() -> None:
    first = point_id("docs", "install:en#setup:0")
    assert uuid.UUID(first)
    assert first == point_id("docs", "install:en#setup:0")
    assert first != point_id("other", "install:en#setup:0")


def test_site_hash_ignores_order_and_sees_every_field() -> None:
    chunks = corpus()
    assert site_hash(chunks) == site_hash(list(reversed(chunks)))
    for field, value in [("text", "x"), ("url", "/y"), ("heading_trail", ("a", "b"))]:
        edited = [replace(chunks[0], **{field: value}), *chunks[1:]]
        assert site_hash(edited) != site_hash(chunks), field


def test_fingerprint_covers_locale_and_audience() -> None:
    base = corpus()[0]
    assert chunk_fingerprint(base) != chunk_fingerprint(replace(base, locale="cs"))
    assert chunk_fingerprint(base) != chunk_fingerprint(replace(base, audience="developer"))


def test_corpus_hash_covers_every_site_the_lexical_version_and_the_storage() -> None:
    hashes = {"a": "1", "b": "2"}
    same = corpus_hash(hashes, "v1", "int8")
    assert same == corpus_hash(dict(reversed(hashes.items())), "v1", "int8")
    assert same != corpus_hash(hashes, "v2", "int8")
    assert same != corpus_hash({"a": "1"}, "v1", "int8")
    assert same != corpus_hash({"a": "1", "b": "3"}, "v1", "int8")
    assert same != corpus_hash(hashes, "v1", "none")  # the storage layout too
