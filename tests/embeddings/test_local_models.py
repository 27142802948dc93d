"""The local models: the default all-MiniLM-L6-v2 and askdocs's docs-tuned minilm-l6-docs
are chosen by ``embedding.model``, each has its own model id (so its own collections: a
collection built with one is never searched with the other) and its own compiled files.
The default stays exactly what it was, so an existing install does not re-index."""

from __future__ import annotations

import sys
import types
from dataclasses import replace
from pathlib import Path

import pytest

from askdocs.embeddings import local_model
from askdocs.embeddings.local import LocalEmbedder, from_settings
from askdocs.embeddings.local_model import bundled_model_dir
from askdocs.embeddings.local_models import (
    DEFAULT,
    MINILM,
    MINILM_DOCS,
    MODELS,
    find_model,
    install_hint,
    model_dir,
)
from askdocs.embeddings.model_files import compiled_model, model_key
from askdocs.embeddings.registry import create_embedder
from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError, EmbeddingError
from askdocs.index import IndexStore, build_index, model_spec
from askdocs.index.edge import EdgeBackend
from askdocs.index.naming import ModelSpec
from askdocs.search.lexical import document_vector
from askdocs.search.threshold import CALIBRATED
from askdocs.settings import EmbeddingSettings
from tests.index.helpers import HashingEmbedder, corpus


@pytest.fixture
def docs_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed askdocs_model_minilm_docs whose folder is a copy of the bundled config
    (enough for the dimension; nothing here embeds)."""
    folder = tmp_path / "askdocs_model_minilm_docs" / "model"
    (folder / "1_Pooling").mkdir(parents=True)
    source = bundled_model_dir()
    for name in ("config.json", "sentence_bert_config.json", "1_Pooling/config.json"):
        (folder / name).write_bytes((source / name).read_bytes())
    package = types.ModuleType("askdocs_model_minilm_docs")
    package.get_model_path = lambda: folder  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "askdocs_model_minilm_docs", package)
    return folder


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (None, DEFAULT),
        ("", DEFAULT),
        ("all-MiniLM-L6-v2", MINILM),
        ("all-minilm-l6-v2", MINILM),
        ("sentence-transformers/ALL-MINILM-L6-V2", MINILM),
        ("minilm-l6-docs", MINILM_DOCS),
        ("MiniLM-L6-Docs", MINILM_DOCS),
    ],
)
def test_embedding_model_names_a_local_model(name: str | None, expected: object) -> None:
    assert find_model(name) is expected


def test_the_default_is_the_bundled_model() -> None:
    assert DEFAULT is MINILM
    assert (MINILM.name, MINILM.stem) == ("all-MiniLM-L6-v2", "minilm")
    assert MINILM.packages[0] == "askdocs_model_minilm"


def test_an_unknown_model_is_a_configuration_error_listing_the_known_ones() -> None:
    with pytest.raises(ConfigError) as caught:
        from_settings(EmbeddingSettings(model="bge-large-en"))
    assert caught.value.code == ErrorCode.EMBEDDING_MODEL_UNKNOWN
    assert "'bge-large-en'" in caught.value.message
    assert "all-MiniLM-L6-v2, minilm-l6-docs" in caught.value.message
    with pytest.raises(ConfigError):
        create_embedder(EmbeddingSettings(provider="local-int8", model="minilm-l12"))


def test_names_stems_and_packages_are_distinct() -> None:
    for field in ("name", "stem", "distribution"):
        values = [getattr(model, field) for model in MODELS]
        assert len(set(values)) == len(values), field
    packages = [p for model in MODELS for p in model.packages]
    assert len(set(packages)) == len(packages)


def test_the_default_keeps_its_model_id_and_collection_names() -> None:
    """Pinned: a change here re-embeds every existing install's docs."""
    for provider, model_id, key in (
        ("local", "local:all-MiniLM-L6-v2", "local-all-minilm-l6-v2_eeb6ceed"),
        ("local-int8", "local:all-MiniLM-L6-v2-int8", "local-all-minilm-l6-v2-int8_137e8306"),
    ):
        for name in (None, "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"):
            embedder = create_embedder(EmbeddingSettings(provider=provider, model=name))
            assert embedder is not None
            assert model_spec(embedder) == ModelSpec(model_id, 384)
            assert model_spec(embedder).key == key


@pytest.mark.parametrize(("provider", "suffix"), [("local", ""), ("local-int8", "-int8")])
def test_each_model_has_its_own_model_id_and_collections(
    provider: str, suffix: str, docs_package: Path
) -> None:
    specs = {}
    for model in MODELS:
        embedder = create_embedder(EmbeddingSettings(provider=provider, model=model.name))
        assert embedder is not None
        assert embedder.model_id == f"local:{model.name}{suffix}"
        specs[model.name] = model_spec(embedder)
    assert len({spec.key for spec in specs.values()}) == len(MODELS)
    docs = create_embedder(EmbeddingSettings(provider=provider, model="minilm-l6-docs"))
    assert isinstance(docs, LocalEmbedder)
    assert docs.model_dir == docs_package  # the installed package's folder


def test_a_collection_built_with_one_model_is_never_searched_with_the_other(
    tmp_path: Path, docs_package: Path
) -> None:
    """The store finds a model's collection by its model id: the bundled model's index is
    not the docs-tuned model's (switching builds a new one), and the other way round."""
    bundled = model_spec(from_settings(EmbeddingSettings()))
    tuned = model_spec(from_settings(EmbeddingSettings(model="minilm-l6-docs")))
    store = IndexStore(EdgeBackend(tmp_path / "index"))
    try:
        built = HashingEmbedder(dimension=384, model_id=bundled.model_id)
        build_index(store, built, "docs", corpus(), sparse=document_vector)
        assert store.current(bundled) is not None
        assert store.current(tuned) is None
        switched = HashingEmbedder(dimension=384, model_id=tuned.model_id)
        result = build_index(store, switched, "docs", corpus(), sparse=document_vector)
        assert result.embedded == result.points  # nothing reused from the other model
        current = store.current(tuned)
        assert current is not None
        assert current.name == result.collection
        assert store.current(bundled) is None
    finally:
        store.close()


def test_every_local_model_has_a_threshold() -> None:
    for model in MODELS:
        assert f"local:{model.name}" in CALIBRATED
        assert f"local:{model.name}-int8" in CALIBRATED


def test_compiled_files_are_named_after_the_model(tmp_path: Path) -> None:
    folder = bundled_model_dir()
    names = set()
    for model in MODELS:
        path = tmp_path / f"{model.stem}-fp32-fused-{model_key(folder)}.onnx"
        path.write_bytes(b"")  # present: compiled_model only names it
        assert compiled_model(folder, tmp_path, "fp32", "fused", model.stem) == path
        names.add(path.name)
    assert len(names) == len(MODELS)
    assert f"minilm-fp32-fused-{model_key(folder)}.onnx" in names  # the default's, as before


class _Named(Exception):
    pass


@pytest.mark.parametrize(("name", "stem"), [(None, "minilm"), ("minilm-l6-docs", "minilm-docs")])
def test_the_embedder_compiles_under_its_model_stem(
    name: str | None, stem: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "model"  # the bundled files under a folder no runtime was opened on
    for path in bundled_model_dir().rglob("*"):
        if path.is_file():
            link = folder / path.relative_to(bundled_model_dir())
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(path)
    asked: list[str] = []

    def compiled(model_dir: Path, cache_dir: Path, precision: str, form: str, s: str) -> Path:
        asked.append(s)
        raise _Named

    monkeypatch.setattr(local_model, "compiled_model", compiled)
    settings = EmbeddingSettings(model=name, cache_dir=tmp_path / "cache", threads=1)
    embedder = from_settings(settings)
    embedder._model_dir = folder
    with pytest.raises(_Named):
        embedder._runtime()
    with pytest.raises(_Named):
        embedder._query_runtime()
    assert asked == [stem, stem]


def test_a_missing_model_package_names_its_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for package in MINILM_DOCS.packages:
        monkeypatch.setitem(sys.modules, package, None)
    embedder = from_settings(EmbeddingSettings(model="minilm-l6-docs"))  # lazy, like the default
    with pytest.raises(EmbeddingError) as caught:
        _ = embedder.dimension
    assert caught.value.code == ErrorCode.EMBEDDING_MODEL_MISSING
    assert "minilm-l6-docs is not installed" in caught.value.message
    assert "pip install askdocs-model-minilm-docs" in caught.value.message
    assert "scripts/build-model-package minilm-docs" in caught.value.message
    absent = replace(MINILM_DOCS, packages=("askdocs_no_such_model_package",))
    with pytest.raises(EmbeddingError):
        model_dir(absent)


def test_a_damaged_folder_names_its_own_package(docs_package: Path) -> None:
    (docs_package / "config.json").unlink()
    with pytest.raises(EmbeddingError) as caught:
        _ = from_settings(EmbeddingSettings(model="minilm-l6-docs")).dimension
    assert caught.value.code == ErrorCode.EMBEDDING_MODEL_MISSING
    assert caught.value.message.endswith("pip install askdocs-model-minilm-docs")
    assert install_hint(bundled_model_dir() / "tokenizer.json").endswith("askdocs-model-minilm")
    assert install_hint(docs_package / "1_Pooling" / "config.json") == MINILM_DOCS.pip_command
