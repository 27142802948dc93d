"""The bundled sentence encoder: find its files, open one session on its compiled graph.

The model folder (the one shipped in a local model's companion package,
:mod:`askdocs.embeddings.local_models`; by default ``askdocs-model-minilm``, built by this
repository from ``packages/askdocs-model-minilm``) holds ``model.safetensors``, ``config.json``,
``sentence_bert_config.json``, ``1_Pooling/config.json`` and ``tokenizer.json``. The
encoder graph is compiled from them once per precision into an optimised ONNX file
(:mod:`askdocs.embeddings.model_files`), which every later start only opens: the weights
are never held twice and the build's memory is freed with the child process that compiled
it. Nothing is downloaded. Sessions are cached per process.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnxruntime as ort
from tokenizers import Tokenizer

from askdocs.blocking import usable_cpus
from askdocs.embeddings import local_models
from askdocs.embeddings.heap import trim_heap
from askdocs.embeddings.local_models import DEFAULT, install_hint
from askdocs.embeddings.model_files import CompileUnsupported, compiled_model
from askdocs.embeddings.shape import BertShape
from askdocs.embeddings.variants import Form, Precision
from askdocs.error_codes import ErrorCode
from askdocs.errors import EmbeddingError

log = logging.getLogger(__name__)

PIP_COMMAND = DEFAULT.pip_command  # the default model's; a folder's own: install_hint


@dataclass(frozen=True)
class ModelConfig:
    """What the model folder's small JSON files say (cheap to read)."""

    shape: BertShape
    max_seq_length: int

    @property
    def dimension(self) -> int:
        return self.shape.hidden


def bundled_model_dir() -> Path:
    """The folder of the default local model's weights, or a clear error."""
    return local_models.model_dir(DEFAULT)


def read_config(model_dir: Path) -> ModelConfig:
    config = _read_json(model_dir / "config.json")
    pooling = _read_json(model_dir / "1_Pooling" / "config.json")
    if config.get("model_type") != "bert" or not pooling.get("pooling_mode_mean_tokens"):
        raise EmbeddingError(
            f"{model_dir} is not a BERT model with mean pooling",
            code=ErrorCode.EMBEDDING_MODEL_INVALID,
        )
    shape = BertShape(
        hidden=int(config["hidden_size"]),
        heads=int(config["num_attention_heads"]),
        layers=int(config["num_hidden_layers"]),
        eps=float(config["layer_norm_eps"]),
    )
    sbert = _read_json(model_dir / "sentence_bert_config.json")
    return ModelConfig(shape=shape, max_seq_length=int(sbert.get("max_seq_length", 512)))


def _read_json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise EmbeddingError(
            f"model file missing: {path}; {install_hint(path)}",
            code=ErrorCode.EMBEDDING_MODEL_MISSING,
        ) from exc
    except (OSError, ValueError) as exc:
        raise EmbeddingError(
            f"model file unreadable: {path}: {exc}", code=ErrorCode.EMBEDDING_MODEL_MISSING
        ) from exc
    if not isinstance(value, dict):
        raise EmbeddingError(
            f"model file is not a JSON object: {path}", code=ErrorCode.EMBEDDING_MODEL_MISSING
        )
    return value


class EncoderRuntime:
    """A tokenizer and an onnxruntime session over the compiled graph (thread-safe)."""

    def __init__(
        self,
        model_dir: Path,
        threads: int,
        *,
        fused: bool | None = None,
        precision: Precision = "fp32",
        cache_dir: Path | None = None,
        stem: str = DEFAULT.stem,
    ) -> None:
        """``fused=None`` tries the contrib-kernel graph first, then the plain one.
        ``cache_dir`` keeps the compiled file for the next start (None: the user's cache
        folder, see ``user_cache_dir``; a temporary one when that is not writable).
        ``stem`` starts the compiled file's name (one per model)."""
        self.config = read_config(model_dir)
        self.tokenizer = shared_tokenizer(model_dir)
        self.pad_id = self.tokenizer.token_to_id("[PAD]") or 0
        self.precision = precision
        opener = _Opener(model_dir, threads, precision, cache_dir, stem)
        self.fused, self.session = opener.open(fused)

    def run(
        self, ids: npt.NDArray[np.int64], mask: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float32]:
        outputs = self.session.run(["embeddings"], {"input_ids": ids, "attention_mask": mask})
        return np.asarray(outputs[0], dtype=np.float32)


_TOKENIZERS: dict[Path, Tokenizer] = {}
_TOKENIZER_LOCK = threading.Lock()  # not _LOCK: load_runtime holds that one while it builds


def shared_tokenizer(model_dir: Path) -> Tokenizer:
    """The process-wide tokenizer of this model folder (about 9 MB; every session and the
    builder's token counts share it, and counting opens no session)."""
    key = model_dir.resolve()
    with _TOKENIZER_LOCK:
        tokenizer = _TOKENIZERS.get(key)
        if tokenizer is None:
            tokenizer = _tokenizer(model_dir, read_config(model_dir).max_seq_length)
            _TOKENIZERS[key] = tokenizer
        return tokenizer


def _tokenizer(model_dir: Path, max_length: int) -> Tokenizer:
    path = model_dir / "tokenizer.json"
    if not path.is_file():
        raise EmbeddingError(
            f"model file missing: {path}; {install_hint(path)}",
            code=ErrorCode.EMBEDDING_MODEL_MISSING,
        )
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_truncation(max_length=max_length)
    tokenizer.no_padding()  # batches are padded per batch, after sorting by length
    return tokenizer


@dataclass(frozen=True)
class _Opener:
    model_dir: Path
    threads: int
    precision: Precision
    cache_dir: Path | None
    stem: str

    def open(self, fused: bool | None) -> tuple[bool, Any]:
        _require(self.model_dir / "model.safetensors")
        if fused is not False:
            try:
                return True, self._session("fused")
            except CompileUnsupported as exc:  # a runtime without the contrib kernels
                if fused:
                    raise
                log.warning("fused encoder graph unavailable (%s); using the plain graph", exc)
        return False, self._session("plain")

    def _session(self, form: Form) -> Any:
        cache = self.cache_dir or user_cache_dir()
        try:
            path = compiled_model(self.model_dir, cache, self.precision, form, self.stem)
        except CompileUnsupported:
            raise
        except EmbeddingError:
            if self.cache_dir is not None:
                raise
            with tempfile.TemporaryDirectory(prefix="askdocs-model-") as scratch:
                path = compiled_model(
                    self.model_dir, Path(scratch), self.precision, form, self.stem
                )
                return _session(path, self.threads)
        return _session(path, self.threads)


def user_cache_dir() -> Path:
    """Where compiled models go when no folder was given: the user's cache folder
    (``$XDG_CACHE_HOME/askdocs/models``, else ``~/.cache/askdocs/models``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "askdocs" / "models"


def _require(path: Path) -> None:
    if not path.is_file():
        raise EmbeddingError(
            f"model file missing: {path}; {install_hint(path)}",
            code=ErrorCode.EMBEDDING_MODEL_MISSING,
        )


def read_weights(model_dir: Path) -> dict[str, npt.NDArray[np.float32]]:
    """The raw float32 weights (only the compiler reads them)."""
    path = model_dir / "model.safetensors"
    _require(path)
    from safetensors.numpy import load_file

    try:
        tensors = load_file(str(path))
    except Exception as exc:  # safetensors raises its own error types
        raise EmbeddingError(
            f"model weights unreadable: {path}: {exc}", code=ErrorCode.EMBEDDING_MODEL_MISSING
        ) from exc
    return {name: np.asarray(t, dtype=np.float32) for name, t in tensors.items()}


def _session(path: Path, threads: int) -> Any:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Threads sleep between batches instead of spinning: the host also serves requests.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own error types
        raise EmbeddingError(f"cannot open the compiled encoder {path}: {exc}") from exc


_CACHE: dict[tuple[Path, int, bool | None, Precision], EncoderRuntime] = {}
_LOCK = threading.Lock()


def load_runtime(
    model_dir: Path,
    threads: int | None,
    *,
    fused: bool | None = None,
    precision: Precision = "fp32",
    cache_dir: Path | None = None,
    stem: str = DEFAULT.stem,
) -> EncoderRuntime:
    """The process-wide runtime for this folder, thread count, graph form and precision
    (built once; ``cache_dir`` and ``stem`` only say where its compiled file may be kept and
    how it is named)."""
    count = threads or usable_cpus()
    key = (model_dir.resolve(), count, fused, precision)
    with _LOCK:
        runtime = _CACHE.get(key)
        if runtime is None:
            runtime = EncoderRuntime(
                model_dir, count, fused=fused, precision=precision, cache_dir=cache_dir, stem=stem
            )
            _CACHE[key] = runtime
        return runtime


def release_runtime(
    model_dir: Path,
    threads: int | None,
    *,
    fused: bool | None = None,
    precision: Precision = "fp32",
) -> bool:
    """Forget the process-wide runtime of this key (it is freed once no caller holds it)
    and hand freed heap pages back to the system. True when one was cached."""
    key = (model_dir.resolve(), threads or usable_cpus(), fused, precision)
    with _LOCK:
        released = _CACHE.pop(key, None) is not None
    if released:
        trim_heap()
    return released
