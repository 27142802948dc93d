"""The compiled encoder files: made once per model, precision and runtime, then only opened.

``compiled_model`` returns the path of the optimised ONNX file for the bundled weights,
compiling it in a child process (:mod:`askdocs.embeddings.compile`) the first time. Files
live in ``cache_dir`` (the service uses ``<data_dir>/models``), named after the model (its
stem) and a key of the
model files' sizes and times, the precision, the graph form and the onnxruntime and
askdocs graph versions, so an upgrade of any of them compiles afresh. Without a
``cache_dir`` the file is compiled into a temporary folder that the caller removes.
"""

from __future__ import annotations

import fcntl
import hashlib
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from askdocs.embeddings.variants import Form, Precision
from askdocs.errors import EmbeddingError

GRAPH_VERSION = "1"  # bump when bert_graph or compile changes what they write
COMPILE_TIMEOUT_SECONDS = 600.0
_KEYED_FILES = ("model.safetensors", "config.json", "1_Pooling/config.json")


class CompileUnsupported(EmbeddingError):
    """This runtime cannot compile the requested graph form (e.g. no contrib kernels)."""


def compiled_model(
    model_dir: Path, cache_dir: Path, precision: Precision, form: Form, stem: str = "minilm"
) -> Path:
    """The cached compiled file, compiled now (under a lock) if it is missing. ``stem``
    starts its name: each local model has its own (``local_models.LocalModel.stem``), so
    two models' files never share a name even where their folders' sizes and times agree."""
    path = cache_dir / f"{stem}-{precision}-{form}-{model_key(model_dir)}.onnx"
    if path.is_file():
        return path
    with _locked(cache_dir):
        if not path.is_file():
            _compile(model_dir, path, precision, form)
    return path


def model_key(model_dir: Path) -> str:
    """A short hash of what the compiled file depends on."""
    import onnxruntime

    digest = hashlib.sha256(f"{GRAPH_VERSION}|{onnxruntime.__version__}".encode())
    for name in _KEYED_FILES:
        stat = (model_dir / name).stat()
        digest.update(f"|{name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


@contextmanager
def _locked(cache_dir: Path) -> Iterator[None]:
    """One compiler per cache folder at a time (other processes wait, then reuse)."""
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        handle = (cache_dir / ".compile.lock").open("a")
    except OSError as exc:
        raise EmbeddingError(f"cannot use the model cache folder {cache_dir}: {exc}") from exc
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _compile(model_dir: Path, out: Path, precision: Precision, form: Form) -> None:
    command = [sys.executable, "-m", "askdocs.embeddings.compile"]
    command += [str(model_dir), str(out), precision, form]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_SECONDS
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise EmbeddingError(f"compiling the {precision} encoder failed: {exc}") from exc
    if done.returncode != 0 or not out.is_file():
        reason = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise CompileUnsupported(f"compiling the {precision} {form} encoder failed: {reason[0]}")
