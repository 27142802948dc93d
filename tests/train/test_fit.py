"""The training loop's pure parts (batch plan, pair selection, schedule), a run that is
stopped and resumed ending exactly where an uninterrupted one ends, and the export: a model
folder askdocs compiles into the same graph as the bundled model."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors import safe_open

from askdocs.embeddings.local import LocalEmbedder
from askdocs.embeddings.local_model import bundled_model_dir
from train.data import Example, Passage, load_examples
from train.encoder import Encoder, export
from train.fit import Options, plan, schedule, select, train

EXAMPLE = Example("a", "link", "q", "p", "a#s#0", ())


def examples() -> list[Example]:
    out = []
    for tree, count in (("a", 10), ("b", 7)):
        for n in range(count):
            section = f"{tree}#page#{n % 5}"  # every section twice (a heading and a link pair)
            out.append(replace(EXAMPLE, tree=tree, query=f"q{n}", positive_section=section))
    return out


def test_a_batch_holds_one_tree_and_distinct_sections() -> None:
    batches = plan(examples(), 4, seed=1)
    rows = examples()
    for batch in batches:
        assert len({rows[r].tree for r in batch}) == 1
        assert len({rows[r].positive_section for r in batch}) == len(batch)
        assert len(batch) >= 2  # a last batch under half the size is dropped
    assert plan(examples(), 4, seed=1) == batches
    assert plan(examples(), 4, seed=2) != batches


def test_heading_pairs_are_sampled_and_the_rest_kept() -> None:
    rows = [replace(EXAMPLE, kind="heading", query=f"h{n}") for n in range(10)]
    rows += [replace(EXAMPLE, kind="link", query=f"l{n}") for n in range(3)]
    kept = select(rows, 4, seed=3)
    assert sum(e.kind == "heading" for e in kept) == 4
    assert sum(e.kind == "link" for e in kept) == 3
    assert kept == select(rows, 4, seed=3)


def test_the_schedule_warms_up_then_decays_to_zero() -> None:
    factor = schedule(100, 0.1)
    assert factor(0) == pytest.approx(0.1)
    assert factor(9) == pytest.approx(1.0)
    assert factor(55) == pytest.approx(0.5)
    assert factor(100) == 0.0


def write_data(folder: Path) -> Path:
    """Two tiny trees in train.mine's format."""
    (folder / "chunks").mkdir(parents=True)
    pairs = []
    for tree in ("alpha", "beta"):
        chunks = [
            {
                "id": f"p{n}:en#s{n}:0",
                "section": f"p{n}#s{n}",
                "text": f"{tree} page {n} about topic {n}",
            }
            for n in range(6)
        ]
        lines = "".join(json.dumps(c) + "\n" for c in chunks)
        (folder / "chunks" / f"{tree}.jsonl").write_text(lines, encoding="utf-8")
        for n in range(6):
            negatives = [chunks[(n + 1) % 6]["id"], chunks[(n + 2) % 6]["id"]]
            pairs.append(
                {
                    "tree": tree,
                    "split": "train",
                    "kind": "link",
                    "query": f"how does {tree} do {n}",
                    "positive": chunks[n]["id"],
                    "source": "",
                    "negatives": negatives,
                    "bm25_rank": 0,
                }
            )
    text = "".join(json.dumps(p) + "\n" for p in pairs)
    (folder / "pairs.jsonl").write_text(text, encoding="utf-8")
    return folder


def test_examples_carry_their_passages(tmp_path: Path) -> None:
    loaded = load_examples(write_data(tmp_path / "data"))
    assert len(loaded) == 12
    first = loaded[0]
    assert (first.positive, first.positive_section) == ("alpha page 0 about topic 0", "alpha#p0#s0")
    assert first.negatives[0] == Passage("alpha page 1 about topic 1", "alpha#p1#s1")


@pytest.mark.slow
def test_a_resumed_run_ends_where_an_uninterrupted_one_ends(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    data = write_data(tmp_path / "data")
    options = Options(batch=4, steps=3, max_length=16, query_length=8, heading_pairs=0, seed=5)
    whole = train(bundled_model_dir(), data, tmp_path / "whole", options, checkpoint_every=10)
    assert train(bundled_model_dir(), data, tmp_path / "sliced", options, 10, stop_after=2) is None
    sliced = train(bundled_model_dir(), data, tmp_path / "sliced", options, 10)
    assert whole is not None
    assert sliced is not None
    with (
        safe_open(str(whole / "model.safetensors"), "pt") as a,
        safe_open(str(sliced / "model.safetensors"), "pt") as b,
    ):
        assert all(torch.equal(a.get_tensor(k), b.get_tensor(k)) for k in a.keys())  # noqa: SIM118
    steps = [json.loads(line)["step"] for line in (tmp_path / "sliced" / "log.jsonl").open()]
    assert steps == [1, 2, 3]
    run = json.loads((tmp_path / "whole" / "run.json").read_text())
    assert run["steps"] == 3
    assert run["cpu"] > 0


@pytest.mark.slow
def test_an_exported_model_runs_in_askdocs_as_the_bundled_one(tmp_path: Path) -> None:
    out = export(Encoder(bundled_model_dir()), tmp_path / "model", "# card\n")
    assert (out / "README.md").read_text() == "# card\n"
    texts = ["How do I allow CORS?", "Path parameters " * 100, "a"]
    cache = tmp_path / "cache"
    exported = LocalEmbedder(threads=1, model_dir=out, cache_dir=cache).embed_documents(texts)
    bundled = LocalEmbedder(threads=1, cache_dir=cache).embed_documents(texts)
    assert np.abs(exported - bundled).max() < 1e-6
    torch_vectors = Encoder(out).embed(texts).numpy()
    assert np.min(np.sum(torch_vectors * exported, axis=1)) > 0.99999
