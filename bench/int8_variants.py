"""Partial int8 quantisations of the bundled encoder: cosine to float32 and encode CPU.

usage: python bench/int8_variants.py [VARIANT ...] [--scale F] [--cache-root DIR]

Builds the fused float32 graph once, names its 24 weight nodes by layer and role
(``L0_attn`` .. ``L5_ffn_out``: the ``Attention`` node with its Q/K/V projections, the
attention output projection, the feed-forward input and output MatMuls), quantises each
variant with onnxruntime's ``quantize_dynamic`` (per output channel, signed int8 unless the
variant says otherwise) and optimises it as ``askdocs.embeddings.compile`` does. It then
encodes a seeded sample of chunk texts of the three development corpora (160 fastapi, 70 httpx
and 100 traefik chunks; ``--scale`` multiplies these) in batches of 16 sorted by token
length, on one thread, every variant on every batch in rotating order, and
prints per variant: cosine to the float32 vectors (min, 1st percentile, median), encode CPU
seconds and the ratio to float32, and the file size. Without names it runs every variant.

With ``--cache-root DIR`` each variant's file is also written as ``DIR/VARIANT/`` +
the name ``local-int8`` opens, so its retrieval quality is measured without changing the
product: ``bench/quality.py --data-dir '/tmp/q-VARIANT-{set}' -o embedding.provider=local-int8
-o embedding.cache_dir=DIR/VARIANT -o embedding.query_precision=fp32`` (fp32 queries against
the variant's documents; leave the last override out for the variant's own queries).
docs/embeddings.md ("Partial int8 quantisation") has the measured table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from askdocs.embeddings.compile import _optimise, _write_graph
from askdocs.embeddings.local import pad_batch
from askdocs.embeddings.local_model import bundled_model_dir, shared_tokenizer
from askdocs.embeddings.model_files import model_key
from askdocs.ingest import read_site
from askdocs.settings import CorpusSettings
from askdocs.sites import folder_site
from shared_data import require, shared

ROLES = ("attn", "attn_out", "ffn_in", "ffn_out")
LAYERS = range(6)
EVERY = [f"L{layer}_{role}" for layer in LAYERS for role in ROLES]
SAMPLE = {"fastapi-docs": 160, "httpx-docs": 70, "traefik-docs": 100}  # chunks per corpus
MATMUL_ATTENTION = ["MatMul", "Attention"]  # not Gather: the word embeddings stay float32


def nodes(roles: tuple[str, ...] = ROLES, layers: range = LAYERS) -> list[str]:
    return [f"L{layer}_{role}" for layer in layers for role in roles]


def without(*names: str) -> list[str]:
    return [n for n in EVERY if n not in names]


# name -> quantize_dynamic options; "include": the weight nodes quantised (None: all);
# "ops": op_types_to_quantize (None: onnxruntime's default, which includes Gather).
VARIANTS: dict[str, dict[str, Any] | None] = {
    "fp32": None,
    "full": {},  # what local-int8 runs (compile.py): every op, Gather included
    "full-rr": {"reduce_range": True},
    "full-u8u8": {"u8": True},
    "full-pt": {"per_channel": False},
    "full-ng": {"ops": MATMUL_ATTENTION},
    "ffn": {"include": nodes(("ffn_in", "ffn_out"))},
    "ffn-rr": {"include": nodes(("ffn_in", "ffn_out")), "reduce_range": True},
    "ffn-ng": {"include": nodes(("ffn_in", "ffn_out")), "ops": MATMUL_ATTENTION},
    "ffn_in": {"include": nodes(("ffn_in",))},
    "ffn_in-ng": {"include": nodes(("ffn_in",)), "ops": MATMUL_ATTENTION},
    "attn": {"include": nodes(("attn", "attn_out"))},
    "attn+ffn_in": {"include": nodes(("attn", "attn_out", "ffn_in"))},
    "attn+ffn_in-ng": {"include": nodes(("attn", "attn_out", "ffn_in")), "ops": MATMUL_ATTENTION},
    "no-L0": {"include": nodes(layers=range(1, 6))},
    "no-L5": {"include": nodes(layers=range(0, 5))},
    "no-L0L5": {"include": nodes(layers=range(1, 5))},
    "no-ffnout-L0L1": {"include": without("L0_ffn_out", "L1_ffn_out")},
    "no-ffnout-L0-ng": {"include": without("L0_ffn_out"), "ops": MATMUL_ATTENTION},
    "gather-only": {"ops": ["Gather"]},
    **{f"no-ffnout-L{k}": {"include": without(f"L{k}_ffn_out")} for k in LAYERS},
}


def named_graph(scratch: Path) -> Path:
    """The fused float32 graph with its weight nodes named ``L<layer>_<role>``."""
    import onnx

    plain = scratch / "graph.onnx"
    _write_graph(bundled_model_dir(), plain, fused=True)
    model = onnx.load(str(plain))
    weight_nodes = [n for n in model.graph.node if n.op_type in ("Attention", "MatMul")]
    assert len(weight_nodes) == len(EVERY), len(weight_nodes)  # per layer: Attention, 3 MatMul
    for node, name in zip(weight_nodes, EVERY, strict=True):
        node.name = name
    onnx.save(model, str(plain))
    return plain


def build(graph: Path, name: str, spec: dict[str, Any] | None, out: Path) -> None:
    if spec is None:
        _optimise(graph, out)
        return
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    include = spec.get("include")
    quantised = out.with_suffix(".q.onnx")
    quantize_dynamic(
        graph,
        quantised,
        per_channel=spec.get("per_channel", True),
        reduce_range=spec.get("reduce_range", False),
        weight_type=QuantType.QUInt8 if spec.get("u8") else QuantType.QInt8,
        op_types_to_quantize=spec.get("ops"),
        nodes_to_exclude=[n for n in EVERY if include is not None and n not in include],
        extra_options={"DefaultTensorType": TensorProto.FLOAT},
    )
    _optimise(quantised, out)
    quantised.unlink()


def sample_texts(scale: float) -> list[str]:
    rnd = random.Random(20)
    texts: list[str] = []
    for corpus, count in SAMPLE.items():
        docs = shared("corpora", corpus)
        require(docs)
        chunks = [c.embed_text for c in read_site(folder_site(docs), CorpusSettings()).chunks]
        texts += rnd.sample(chunks, min(max(1, round(count * scale)), len(chunks)))
    return texts


def session(path: Path) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", help=f"of: {' '.join(VARIANTS)}")
    parser.add_argument("--scale", type=float, default=1.0, help="of the 160/70/100 chunks")
    parser.add_argument("--cache-root", type=Path)
    args = parser.parse_args()
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants {unknown}; known: {' '.join(VARIANTS)}")
    chosen = ["fp32", *[v for v in args.variants or VARIANTS if v != "fp32"]]
    tokenizer = shared_tokenizer(bundled_model_dir())
    texts = sample_texts(args.scale)
    encodings = tokenizer.encode_batch(texts)
    order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
    batches = [order[i : i + 16] for i in range(0, len(order), 16)]
    pad = tokenizer.token_to_id("[PAD]") or 0
    tokens = sum(len(e.ids) for e in encodings)
    print(f"{len(texts)} chunk texts ({tokens} tokens) of {', '.join(SAMPLE)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="int8-variants-") as tmp:
        scratch = Path(tmp)
        graph = named_graph(scratch)
        files = {name: scratch / f"{name}.onnx" for name in chosen}
        for name, path in files.items():
            build(graph, name, VARIANTS[name], path)
            if args.cache_root is not None and name != "fp32":
                target = args.cache_root / name
                target.mkdir(parents=True, exist_ok=True)
                key = model_key(bundled_model_dir())
                shutil.copyfile(path, target / f"minilm-int8-fused-{key}.onnx")
        sessions = {name: session(path) for name, path in files.items()}
        vectors = {name: np.zeros((len(texts), 384), np.float32) for name in chosen}
        cpu = dict.fromkeys(chosen, 0.0)
        for turn, rows in enumerate(batches):
            ids, mask = pad_batch([encodings[i] for i in rows], pad)
            shift = turn % len(chosen)
            for name in chosen[shift:] + chosen[:shift]:
                started = time.process_time()
                feed = {"input_ids": ids, "attention_mask": mask}
                vectors[name][rows] = sessions[name].run(["embeddings"], feed)[0]
                cpu[name] += time.process_time() - started
        for name in chosen:
            cosine = (vectors[name] * vectors["fp32"]).sum(axis=1)
            row = {
                "variant": name,
                "cos_min": round(float(cosine.min()), 4),
                "cos_p1": round(float(np.percentile(cosine, 1)), 4),
                "cos_median": round(float(np.median(cosine)), 4),
                "encode_cpu_s": round(cpu[name], 2),
                "cpu_ratio": round(cpu[name] / cpu["fp32"], 3),
                "mb": round(files[name].stat().st_size / 1e6, 1),
            }
            print(json.dumps(row), flush=True)
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
