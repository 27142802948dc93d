"""Build a BERT sentence encoder as an ONNX graph from its raw weights (pure, no I/O).

The graph takes ``input_ids`` and ``attention_mask`` (int64, shape ``(batch, seq)``) and
returns ``embeddings`` (float32, ``(batch, hidden)``): word + position + token-type
embeddings, LayerNorm, the encoder layers, mean pooling over the mask, L2 normalisation —
exactly what sentence-transformers computes for a BERT model with a mean-pooling head.

Two forms of the same maths:

* ``fused=True`` uses onnxruntime's CPU contrib kernels (``com.microsoft`` Attention,
  SkipLayerNormalization, BiasGelu). Measured about 1.4x faster than the plain form.
* ``fused=False`` uses standard ONNX operators only (opset 18), for runtimes without the
  contrib kernels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import onnx
from onnx import TensorProto, helper, numpy_helper

from askdocs.embeddings.shape import BertShape

Weights = Mapping[str, npt.NDArray[np.float32]]
OPSET = 18
_MASK_BIAS = -10000.0


class _Graph:
    """Collects nodes and initialisers with unique names."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self._count = 0

    def _name(self, prefix: str) -> str:
        self._count += 1
        return f"{prefix}_{self._count}"

    def const(self, value: object, prefix: str = "c") -> str:
        name = self._name(prefix)
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, op_type: str, inputs: list[str], domain: str = "", **attrs: Any) -> str:
        out = self._name(op_type)
        node = helper.make_node(op_type, inputs, [out], domain=domain or None, **attrs)
        self.nodes.append(node)
        return out


def build_bert_graph(weights: Weights, shape: BertShape, *, fused: bool) -> onnx.ModelProto:
    """The whole encoder, pooling and normalisation as one ONNX model."""
    g = _Graph()
    x = _embeddings(g, weights, shape)
    mask_f = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    if fused:
        mask_i = g.op("Cast", ["attention_mask"], to=TensorProto.INT32)
        for i in range(shape.layers):
            x = _fused_layer(g, _layer(weights, i), shape, x, mask_i)
    else:
        bias = g.op("Mul", [g.op("Sub", [g.const(np.float32(1.0)), mask_f]), _f32(g, _MASK_BIAS)])
        bias = g.op("Unsqueeze", [bias, g.const(np.array([1, 2]))])
        for i in range(shape.layers):
            x = _plain_layer(g, _layer(weights, i), shape, x, bias)
    g.nodes.append(helper.make_node("Identity", [_pool_normalise(g, x, mask_f)], ["embeddings"]))
    return _model(g, shape, fused=fused)


def _f32(g: _Graph, value: float) -> str:
    return g.const(np.float32(value))


def _layer(weights: Weights, index: int) -> dict[str, npt.NDArray[np.float32]]:
    prefix = f"encoder.layer.{index}."
    return {k[len(prefix) :]: v for k, v in weights.items() if k.startswith(prefix)}


def _t(matrix: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A torch Linear weight (out, in) as the (in, out) matrix MatMul wants."""
    return np.ascontiguousarray(matrix.T)


def _embeddings(g: _Graph, w: Weights, shape: BertShape) -> str:
    words = g.const(w["embeddings.word_embeddings.weight"], "word_embeddings")
    # token_type_ids are always 0 for single sentences: fold that row into the positions.
    positions = (
        w["embeddings.position_embeddings.weight"] + w["embeddings.token_type_embeddings.weight"][0]
    )
    table = g.const(positions.astype(np.float32), "position_embeddings")
    dims = g.op("Shape", ["input_ids"])
    seq = g.op("Slice", [dims, g.const(np.array([1])), g.const(np.array([2]))])
    pos = g.op("Slice", [table, g.const(np.array([0])), seq, g.const(np.array([0]))])
    summed = g.op("Add", [g.op("Gather", [words, "input_ids"]), pos])
    return _layer_norm(g, summed, w, "embeddings.LayerNorm.", shape.eps)


def _layer_norm(g: _Graph, x: str, w: Weights, prefix: str, eps: float) -> str:
    gamma, beta = g.const(w[prefix + "weight"]), g.const(w[prefix + "bias"])
    return g.op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=eps)


def _linear(g: _Graph, x: str, w: Weights, prefix: str) -> str:
    product = g.op("MatMul", [x, g.const(_t(w[prefix + "weight"]))])
    return g.op("Add", [product, g.const(w[prefix + "bias"])])


def _qkv(w: Weights) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    names = ("query", "key", "value")
    matrix = np.concatenate([_t(w[f"attention.self.{n}.weight"]) for n in names], axis=1)
    bias = np.concatenate([w[f"attention.self.{n}.bias"] for n in names])
    return np.ascontiguousarray(matrix), bias


def _fused_layer(g: _Graph, w: Weights, shape: BertShape, x: str, mask: str) -> str:
    matrix, bias = _qkv(w)
    ctx = g.op(
        "Attention",
        [x, g.const(matrix), g.const(bias), mask],
        domain="com.microsoft",
        num_heads=shape.heads,
    )
    out = g.op("MatMul", [ctx, g.const(_t(w["attention.output.dense.weight"]))])
    x = _skip_norm(g, out, x, w, "attention.output.", shape.eps)
    inner = g.op("MatMul", [x, g.const(_t(w["intermediate.dense.weight"]))])
    inner = g.op("BiasGelu", [inner, g.const(w["intermediate.dense.bias"])], domain="com.microsoft")
    out = g.op("MatMul", [inner, g.const(_t(w["output.dense.weight"]))])
    return _skip_norm(g, out, x, w, "output.", shape.eps)


def _skip_norm(g: _Graph, out: str, skip: str, w: Weights, prefix: str, eps: float) -> str:
    """LayerNorm(out + dense bias + skip) in one contrib kernel."""
    params = [
        w[prefix + "LayerNorm.weight"],
        w[prefix + "LayerNorm.bias"],
        w[prefix + "dense.bias"],
    ]
    inputs = [out, skip, *(g.const(p) for p in params)]
    return g.op("SkipLayerNormalization", inputs, domain="com.microsoft", epsilon=eps)


def _plain_layer(g: _Graph, w: Weights, shape: BertShape, x: str, bias: str) -> str:
    ctx = _plain_attention(g, w, shape, x, bias)
    attn = _linear(g, ctx, w, "attention.output.dense.")
    x = _layer_norm(g, g.op("Add", [attn, x]), w, "attention.output.LayerNorm.", shape.eps)
    inner = _gelu(g, _linear(g, x, w, "intermediate.dense."))
    out = _linear(g, inner, w, "output.dense.")
    return _layer_norm(g, g.op("Add", [out, x]), w, "output.LayerNorm.", shape.eps)


def _plain_attention(g: _Graph, w: Weights, shape: BertShape, x: str, bias: str) -> str:
    matrix, qkv_bias = _qkv(w)
    qkv = g.op("Add", [g.op("MatMul", [x, g.const(matrix)]), g.const(qkv_bias)])
    split = np.array([0, 0, 3, shape.heads, shape.head_size])
    qkv = g.op("Transpose", [g.op("Reshape", [qkv, g.const(split)])], perm=[2, 0, 3, 1, 4])
    q, k, v = (g.op("Gather", [qkv, g.const(np.array(i))], axis=0) for i in range(3))
    q = g.op("Mul", [q, _f32(g, 1.0 / math.sqrt(shape.head_size))])
    scores = g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])])
    probs = g.op("Softmax", [g.op("Add", [scores, bias])], axis=-1)
    ctx = g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    return g.op("Reshape", [ctx, g.const(np.array([0, 0, shape.hidden]))])


def _gelu(g: _Graph, x: str) -> str:
    """The exact (erf) GELU BERT uses: 0.5 * x * (1 + erf(x / sqrt 2))."""
    erf = g.op("Erf", [g.op("Div", [x, _f32(g, math.sqrt(2.0))])])
    return g.op("Mul", [g.op("Mul", [x, _f32(g, 0.5)]), g.op("Add", [erf, _f32(g, 1.0)])])


def _pool_normalise(g: _Graph, x: str, mask: str) -> str:
    """Mean over unmasked tokens, then divide by the L2 norm (sentence-transformers' clamps)."""
    mask3 = g.op("Unsqueeze", [mask, g.const(np.array([2]))])
    axis = g.const(np.array([1]))
    total = g.op("ReduceSum", [g.op("Mul", [x, mask3]), axis], keepdims=0)
    count = g.op("Max", [g.op("ReduceSum", [mask3, axis], keepdims=0), _f32(g, 1e-9)])
    mean = g.op("Div", [total, count])
    norm = g.op("Max", [g.op("ReduceL2", [mean, axis], keepdims=1), _f32(g, 1e-12)])
    return g.op("Div", [mean, norm])


def _model(g: _Graph, shape: BertShape, *, fused: bool) -> onnx.ModelProto:
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
        for name in ("input_ids", "attention_mask")
    ]
    output = helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", shape.hidden])
    graph = helper.make_graph(g.nodes, "bert_sentence_encoder", inputs, [output], g.inits)
    opsets = [helper.make_opsetid("", OPSET)]
    if fused:
        opsets.append(helper.make_opsetid("com.microsoft", 1))
    model = helper.make_model(graph, opset_imports=opsets, producer_name="askdocs")
    model.ir_version = 8
    return model
