"""The sizes of a BERT encoder, read from its ``config.json`` (no onnx: a server that only
opens the compiled file never imports the graph builder, some 25 MB of resident memory)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BertShape:
    """The sizes read from a BERT ``config.json``."""

    hidden: int
    heads: int
    layers: int
    eps: float

    @property
    def head_size(self) -> int:
        return self.hidden // self.heads
