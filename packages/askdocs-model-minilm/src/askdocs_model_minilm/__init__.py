"""The all-MiniLM-L6-v2 weights askdocs's local embedder loads (Apache-2.0, see LICENSE).

askdocs runs them with onnxruntime (no PyTorch); this package holds only the files that
loader reads (``model.safetensors``, ``config.json``, ``sentence_bert_config.json``,
``1_Pooling/config.json``, ``tokenizer.json``), the model card ``README.md``, and the small
files sentence-transformers needs to open the same folder.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"
MODEL_DIR = Path(__file__).resolve().parent / "model"


def get_model_path() -> Path:
    """The folder holding the model files."""
    return MODEL_DIR
