"""askdocs's docs-tuned MiniLM-L6 (Apache-2.0, see LICENSE): all-MiniLM-L6-v2 fine-tuned on
(question, section) pairs mined from public documentation trees (the model card,
``model/README.md``, lists them).

The folder has the files of the bundled all-MiniLM-L6-v2 (``askdocs-model-minilm``) with the
tuned ``model.safetensors``: the same architecture, so askdocs compiles it into the same
graph and it costs the same per query and per section.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"
MODEL_DIR = Path(__file__).resolve().parent / "model"


def get_model_path() -> Path:
    """The folder holding the model files."""
    return MODEL_DIR
