"""The compiled forms of the bundled encoder: its weights' precision and its graph form."""

from __future__ import annotations

from typing import Literal

Precision = Literal["fp32", "int8"]  # float32 weights, or int8 with a scale per channel
Form = Literal["fused", "plain"]  # onnxruntime contrib kernels, or standard operators only
