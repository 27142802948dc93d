from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from askdocs.errors import VectorStoreError
from askdocs.index.payload import chunk_from_payload, chunk_payload
from askdocs.types import Chunk

text = st.text(max_size=40)
chunks = st.builds(
    Chunk,
    site=text,
    path=text,
    slug=text,
    title=text,
    heading=text,
    heading_trail=st.tuples(text, text),
    section_id=text,
    anchor=text,
    url=text,
    audience=st.sampled_from(["user", "developer"]),
    locale=st.sampled_from(["en", "cs", "sk"]),
    part=st.integers(0, 50),
    text=st.text(max_size=200),
    kind=st.sampled_from(["guide", "changelog"]),
)


@given(chunks)
def test_payload_round_trips_every_chunk_field(original: Chunk) -> None:
    payload = chunk_payload(original, "run-1")
    assert payload["embed_hash"] == original.embed_hash
    assert payload["chunk_id"] == original.id
    assert payload["run"] == "run-1"
    assert chunk_from_payload(payload) == original


def test_malformed_payload_is_a_store_error() -> None:
    with pytest.raises(VectorStoreError, match="malformed payload"):
        chunk_from_payload({"site": "docs"})
    good = chunk_payload(
        Chunk("s", "p", "p", "t", "h", ("h",), "h", "h", "/u", "user", "en", 0, "x"), "r"
    )
    with pytest.raises(VectorStoreError, match="audience"):
        chunk_from_payload({**good, "audience": "admin"})
