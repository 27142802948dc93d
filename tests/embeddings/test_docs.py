"""docs/embeddings.md documents every embedding setting, provider and error code."""

from __future__ import annotations

import re
from pathlib import Path

from askdocs.devtools.error_scan import referenced_codes
from askdocs.embeddings import registry
from askdocs.settings import EmbeddingSettings

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "embeddings.md").read_text(encoding="utf-8")
SOURCES = [REPO / "src" / "askdocs" / "embeddings"]


def test_front_matter_has_a_title() -> None:
    assert re.match(r"---\ntitle: .+\n", DOC)


def test_every_setting_is_documented() -> None:
    for name in EmbeddingSettings.model_fields:
        assert f"`{name}`" in DOC, name


def test_every_provider_is_documented() -> None:
    for name in registry.provider_names():
        assert f"`{name}`" in DOC, name


def test_every_error_code_is_documented() -> None:
    codes = {code.value for code in referenced_codes(SOURCES) if code.startswith("embedding_")}
    assert len(codes) >= 8
    for code in codes:
        assert f"`{code}`" in DOC, code
