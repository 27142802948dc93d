"""Fine-tune the bundled MiniLM on the mined pairs: a bi-encoder with in-batch and hard
negatives (``python -m train.fit --data DIR --out DIR``; docs/encoder-training.md).

Loss: for a batch of B queries, the B positives and B hard negatives (one BM25 negative per
pair, drawn from its stored five) are the candidates; cross-entropy over the scaled cosines
(scale 20) with each query's own positive as the answer (multiple negatives ranking). A
candidate from the same section as a query's positive (another pair's passage) is masked
for that query. A batch holds one tree's pairs (in-batch negatives then come from the same
docs) with distinct positive sections; the batch order is shuffled.

Everything random follows ``--seed``: the batch plan, the negatives drawn (seeded per step),
dropout (torch's generator, saved in the checkpoint). A checkpoint (``OUT/checkpoint.pt``:
weights, optimiser, schedule, step, generator state) is written every
``--checkpoint-every`` steps, atomically; a run started again with the same arguments
resumes from it. At the end the model folder is exported to ``OUT/model``
(``train.encoder.export``) and ``OUT/run.json`` records the arguments, the step count, wall
and CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import torch

from train.data import Example, load_examples
from train.encoder import Encoder, export
from train.negatives import draw

SCALE = 20.0


@dataclass(frozen=True)
class Options:
    batch: int = 32
    lr: float = 2e-5
    warmup: float = 0.1
    weight_decay: float = 0.01
    max_length: int = 128
    query_length: int = 64
    negatives: int = 1
    steps: int = 0  # 0: one pass over the pairs
    seed: int = 13
    heading_pairs: int = 4000  # at most this many "heading" pairs (a seeded sample)
    freeze_embeddings: int = 1  # 1: the word-embedding table is not trained


def select(examples: Sequence[Example], heading_pairs: int, seed: int) -> list[Example]:
    """Every pair but the "heading" ones, of which a seeded sample of ``heading_pairs``:
    their query is the passage's own heading, so they teach little beyond it."""
    headings = [e for e in examples if e.kind == "heading"]
    kept = set(map(id, random.Random(seed).sample(headings, min(heading_pairs, len(headings)))))
    return [e for e in examples if e.kind != "heading" or id(e) in kept]


def plan(examples: Sequence[Example], batch: int, seed: int) -> list[list[int]]:
    """Batches of example indices: one tree each, distinct positive sections, shuffled."""
    rng = random.Random(seed)
    by_tree: dict[str, list[int]] = defaultdict(list)
    for n, example in enumerate(examples):
        by_tree[example.tree].append(n)
    batches = []
    for tree in sorted(by_tree):
        rows = by_tree[tree]
        rng.shuffle(rows)
        batches += _cut(rows, examples, batch)
    rng.shuffle(batches)
    return batches


def _cut(rows: list[int], examples: Sequence[Example], size: int) -> list[list[int]]:
    """Greedy batches of ``size`` with distinct positive sections; a short last batch of
    fewer than half the size is dropped."""
    batches: list[list[int]] = []
    pending = list(rows)
    while pending:
        taken: list[int] = []
        seen: set[str] = set()
        rest = []
        for row in pending:
            section = examples[row].positive_section
            if len(taken) < size and section not in seen:
                taken.append(row)
                seen.add(section)
            else:
                rest.append(row)
        if len(taken) * 2 < size:
            break
        batches.append(taken)
        pending = rest
    return batches


def step_loss(
    encoder: Encoder, examples: Sequence[Example], rng: random.Random, o: Options
) -> torch.Tensor:
    queries = [e.query for e in examples]
    passages = [e.positive for e in examples]
    sections = [e.positive_section for e in examples]
    for example in examples:
        for negative in draw(example.negatives, rng, o.negatives):
            passages.append(negative.text)
            sections.append(negative.section)
    q = encoder.encode(queries, o.query_length)
    p = encoder.encode(passages, o.max_length)
    scores = SCALE * q @ p.T
    for i, example in enumerate(examples):
        for j, section in enumerate(sections):
            if j != i and section == example.positive_section:
                scores[i, j] = float("-inf")
    labels = torch.arange(len(examples))
    return torch.nn.functional.cross_entropy(scores, labels)


def param_groups(encoder: Encoder, weight_decay: float) -> list[dict[str, object]]:
    """Weight decay on the weight matrices, none on biases and LayerNorm."""
    decay, rest = [], []
    for name, parameter in encoder.named_parameters():
        if not parameter.requires_grad:
            continue
        (rest if name.endswith("bias") or "LayerNorm" in name else decay).append(parameter)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": rest, "weight_decay": 0.0}]


def schedule(total: int, warmup: float) -> Callable[[int], float]:
    """Linear warm-up over ``warmup`` of the steps, then linear decay to zero."""
    ramp = max(1, int(total * warmup))

    def factor(step: int) -> float:
        if step < ramp:
            return (step + 1) / ramp
        return max(0.0, (total - step) / max(1, total - ramp))

    return factor


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def train(
    base: Path,
    data: Path,
    out: Path,
    o: Options,
    checkpoint_every: int,
    stop_after: int | None = None,
) -> Path | None:
    """Train (or resume) the run in ``out``; the exported model folder, or None when
    ``stop_after`` steps were done in this call and the run is not finished."""
    random.seed(o.seed)
    torch.manual_seed(o.seed)
    examples = select(load_examples(data, split="train"), o.heading_pairs, o.seed)
    batches = plan(examples, o.batch, o.seed)
    total = o.steps or len(batches)
    encoder = Encoder(base)
    encoder.train()
    if o.freeze_embeddings:
        encoder.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    optimiser = torch.optim.AdamW(param_groups(encoder, o.weight_decay), lr=o.lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimiser, schedule(total, o.warmup))
    out.mkdir(parents=True, exist_ok=True)
    state = out / "checkpoint.pt"
    start, spent = 0, {"wall": 0.0, "cpu": 0.0}
    if state.exists():
        saved = torch.load(state, weights_only=False)
        encoder.load_state_dict(saved["model"])
        optimiser.load_state_dict(saved["optimiser"])
        scheduler.load_state_dict(saved["scheduler"])
        torch.set_rng_state(saved["rng"])
        start, spent = saved["step"], saved["spent"]
        print(f"resuming at step {start} of {total}", file=sys.stderr)
    wall0, cpu0 = time.monotonic(), cpu_seconds()
    log = _log(out / "log.jsonl", start)
    stop = total if stop_after is None else min(total, start + stop_after)
    for step in range(start, stop):
        rows = batches[step % len(batches)]
        rng = random.Random(f"{o.seed}:{step}")
        loss = step_loss(encoder, [examples[r] for r in rows], rng, o)
        loss.backward()
        torch.nn.utils.clip_grad_norm_([p for p in encoder.parameters() if p.requires_grad], 1.0)
        optimiser.step()
        scheduler.step()
        optimiser.zero_grad(set_to_none=True)
        done = step + 1
        wall = spent["wall"] + time.monotonic() - wall0
        cpu = spent["cpu"] + cpu_seconds() - cpu0
        value = loss.item()
        record = {
            "step": done,
            "loss": round(value, 4),
            "wall": round(wall, 1),
            "cpu": round(cpu, 1),
        }
        log.write(json.dumps(record) + "\n")
        log.flush()
        if done % checkpoint_every == 0 or done == stop:
            _save(state, encoder, optimiser, scheduler, done, {"wall": wall, "cpu": cpu})
            print(
                f"step {done}/{total} loss {value:.4f} wall {wall:.0f}s cpu {cpu:.0f}s",
                file=sys.stderr,
            )
    log.close()
    if stop < total:
        return None
    saved = torch.load(state, weights_only=False)
    return _finish(encoder, out, o, total, saved["spent"], len(examples))


def _log(path: Path, start: int) -> TextIO:
    """The run's log open for appending, without the steps a resumed run does again."""
    kept = []
    if path.exists():
        lines = path.read_text(encoding="utf-8").splitlines()
        kept = [line for line in lines if line and json.loads(line)["step"] <= start]
    path.write_text("".join(f"{line}\n" for line in kept), encoding="utf-8")
    return path.open("a", encoding="utf-8")


def _save(
    path: Path,
    encoder: Encoder,
    optimiser: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LambdaLR,
    step: int,
    spent: dict[str, float],
) -> None:
    temporary = path.with_suffix(".tmp")
    torch.save(
        {
            "model": encoder.state_dict(),
            "optimiser": optimiser.state_dict(),
            "scheduler": scheduler.state_dict(),
            "rng": torch.get_rng_state(),
            "step": step,
            "spent": spent,
        },
        temporary,
    )
    os.replace(temporary, path)


def _finish(
    encoder: Encoder, out: Path, o: Options, steps: int, spent: dict[str, float], pairs: int
) -> Path:
    run = {
        "options": o.__dict__,
        "steps": steps,
        "pairs": pairs,
        **spent,
        "threads": torch.get_num_threads(),
    }
    (out / "run.json").write_text(json.dumps(run, indent=1) + "\n")
    card = (
        f"# askdocs docs-tuned MiniLM (training run)\n\n```json\n{json.dumps(run, indent=1)}\n```\n"
    )
    return export(encoder, out / "model", card)


def export_checkpoint(base: Path, out: Path) -> Path:
    """The model of ``OUT/checkpoint.pt`` as a model folder ``OUT/model-<step>`` (to score a
    run while it goes on)."""
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    encoder = Encoder(base)
    encoder.load_state_dict(saved["model"])
    card = f"# askdocs docs-tuned MiniLM, checkpoint at step {saved['step']}\n"
    return export(encoder, out / f"model-{saved['step']}", card)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the bundled model folder")
    parser.add_argument("--data", type=Path, required=True, help="train.mine's output")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--checkpoint-every", type=int, default=25)
    parser.add_argument("--export-only", action="store_true", help="export the checkpoint")
    parser.add_argument("--stop-after", type=int, help="do this many steps now, resume later")
    defaults = Options()
    for field, value in defaults.__dict__.items():
        parser.add_argument(f"--{field.replace('_', '-')}", type=type(value), default=value)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.export_only:
        print(export_checkpoint(args.base, args.out))
        return
    options = Options(**{f: getattr(args, f) for f in defaults.__dict__})
    path = train(args.base, args.data, args.out, options, args.checkpoint_every, args.stop_after)
    print(path or f"stopped; run again to resume ({args.out / 'checkpoint.pt'})")


if __name__ == "__main__":
    main()
