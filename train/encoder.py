"""The bundled MiniLM as a trainable PyTorch bi-encoder, and its export (training only).

The encoder is the model folder's BERT (``transformers.BertModel`` over the same
``model.safetensors``) with mean pooling over the attention mask and L2 normalisation:
what askdocs's ONNX graph (``askdocs.embeddings.bert_graph``) computes. Texts are
tokenised with the folder's ``tokenizer.json`` exactly as askdocs does (no padding,
truncation at ``max_length``; batches padded to their longest text).

``export`` writes a model folder of the bundled model's shape: the same files, the tuned
``model.safetensors`` under the original tensor names (float32), so askdocs compiles it
into the same ONNX graph and queries and indexing cost what they cost before.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import save_file
from tokenizers import Tokenizer
from transformers import BertModel

WEIGHTS = "model.safetensors"
INDEX_MAX_TOKENS = 256  # what askdocs embeds (sentence_bert_config.json's max_seq_length)


class Encoder(torch.nn.Module):
    """Texts -> unit vectors (mean pooling over the mask, then L2 normalisation)."""

    def __init__(self, model_dir: Path) -> None:
        super().__init__()
        self.model_dir = model_dir
        self.bert = BertModel.from_pretrained(str(model_dir), add_pooling_layer=True)
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.pad_id = self.tokenizer.token_to_id("[PAD]") or 0

    def batch(self, texts: Sequence[str], max_length: int) -> tuple[torch.Tensor, torch.Tensor]:
        """``input_ids`` and ``attention_mask``, padded to the longest text."""
        self.tokenizer.enable_truncation(max_length=max_length)
        encodings = self.tokenizer.encode_batch(list(texts))
        width = max(len(e.ids) for e in encodings)
        ids = torch.full((len(texts), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(texts), width), dtype=torch.long)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = torch.tensor(encoding.ids)
            mask[row, : len(encoding.ids)] = 1
        return ids, mask

    def forward(self, ids: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        hidden = self.bert(input_ids=ids, attention_mask=mask).last_hidden_state
        weights = mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, dim=-1)

    def encode(self, texts: Sequence[str], max_length: int) -> torch.Tensor:
        return self(*self.batch(texts, max_length))

    @torch.no_grad()
    def embed(
        self, texts: Sequence[str], max_length: int = INDEX_MAX_TOKENS, batch: int = 32
    ) -> torch.Tensor:
        """Vectors without gradients, in input order (texts sorted by length per batch)."""
        was = self.training
        self.eval()
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = torch.empty((len(texts), self.bert.config.hidden_size))
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            out[rows] = self.encode([texts[i] for i in rows], max_length)
        self.train(was)
        return out


def tuned(value: torch.Tensor | None, original: torch.Tensor) -> torch.Tensor:
    """The trained tensor in the original's dtype and shape (buffers the model does not
    keep, such as ``position_ids``, stay as they were)."""
    if value is None:
        return original
    if value.shape != original.shape:
        raise ValueError(f"shape {tuple(value.shape)} != {tuple(original.shape)}")
    return value.detach().to(original.dtype).contiguous()


def export(encoder: Encoder, out: Path, card: str) -> Path:
    """A model folder like the bundled one with the tuned weights; returns it."""
    out.mkdir(parents=True, exist_ok=True)
    base = encoder.model_dir
    for path in base.rglob("*"):
        if path.is_file() and path.name not in (WEIGHTS, "README.md"):
            target = out / path.relative_to(base)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    state = encoder.bert.state_dict()
    with safe_open(str(base / WEIGHTS), framework="pt") as original:
        metadata = original.metadata()
        names = list(original.keys())
        tensors = {name: tuned(state.get(name), original.get_tensor(name)) for name in names}
    save_file(tensors, str(out / WEIGHTS), metadata=metadata)
    (out / "README.md").write_text(card, encoding="utf-8")
    return out
