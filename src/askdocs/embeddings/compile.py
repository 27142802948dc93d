"""Compile the bundled encoder into one ONNX file: build, quantise (int8), optimise.

Run as a child process (``python -m askdocs.embeddings.compile MODEL_DIR OUT PRECISION
FORM``) so that the weights, the graph being built and the quantiser's copies are freed
with the process: the server that loads the result never holds them.

* ``PRECISION`` ``fp32`` keeps the weights; ``int8`` quantises every MatMul and the
  attention projections dynamically, with one scale per output channel
  (onnxruntime's ``quantize_dynamic``, signed int8 weights).
* ``FORM`` ``fused`` builds the contrib-kernel graph, ``plain`` standard operators only
  (see :mod:`askdocs.embeddings.bert_graph`).

The file is written next to ``OUT`` and renamed into place, so a reader never sees half a
file. Exit status 0: written; 1: the runtime cannot compile this form (message on stderr).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from askdocs.embeddings.variants import Form, Precision


def compile_model(model_dir: Path, out: Path, precision: Precision, form: Form) -> None:
    """Write the optimised encoder for ``precision`` and ``form`` to ``out`` atomically."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".compile-", dir=out.parent) as scratch:
        graph = Path(scratch) / "graph.onnx"
        _write_graph(model_dir, graph, fused=form == "fused")
        if precision == "int8":
            graph = _quantise(graph, Path(scratch) / "int8.onnx")
        optimised = Path(scratch) / "optimised.onnx"
        _optimise(graph, optimised)
        os.replace(optimised, out)


def _write_graph(model_dir: Path, path: Path, *, fused: bool) -> None:
    from askdocs.embeddings.bert_graph import build_bert_graph
    from askdocs.embeddings.local_model import read_config, read_weights

    model = build_bert_graph(read_weights(model_dir), read_config(model_dir).shape, fused=fused)
    path.write_bytes(model.SerializeToString())


def _quantise(graph: Path, out: Path) -> Path:
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        graph,
        out,
        per_channel=True,
        weight_type=QuantType.QInt8,
        # shape inference cannot see through the contrib ops; their outputs are float
        extra_options={"DefaultTensorType": TensorProto.FLOAT},
    )
    return out


def _optimise(graph: Path, out: Path) -> None:
    """Let onnxruntime fuse what it can once, and save the result (portable level)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(out)
    options.log_severity_level = 3
    ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])


def main(argv: list[str]) -> int:
    model_dir, out, precision, form = argv
    if precision not in ("fp32", "int8") or form not in ("fused", "plain"):
        print(f"usage: compile MODEL_DIR OUT fp32|int8 fused|plain (got {argv})", file=sys.stderr)
        return 2
    try:
        compile_model(Path(model_dir), Path(out), precision, form)  # type: ignore[arg-type]
    except Exception as exc:  # reported to the parent, which decides what to try next
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
