"""Write the model card of askdocs-model-minilm-docs from the manifest and a training run.

    python -m train.card --data DIR --run DIR --figures FILE \\
        > packages/askdocs-model-minilm-docs/MODEL_CARD.md

``--data``: ``train.mine``'s output (its ``summary.json``); ``--run``: ``train.fit``'s output
(``run.json``); ``--figures``: a Markdown file with the measured figures (the gate table),
included as it is. The card lists every training tree with its repository, commit, docs
folder and licence.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from train.manifest import Tree, load

HEAD = """# minilm-l6-docs

askdocs's docs-tuned sentence encoder: [all-MiniLM-L6-v2](https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2)
(Apache-2.0) fine-tuned as a bi-encoder on (question, section) pairs mined from the public
documentation trees below (askdocs issue #32; the method: askdocs's
`docs/encoder-training.md`). Same architecture, tokenizer and files as the original: 6 layers,
384 dimensions, mean pooling, unit-length vectors, 256 tokens.

- Licence: Apache-2.0 (the original model's). Every training tree's licence allows this use
  and is listed below; no text of them is shipped, only the weights.
- Never trained, mined or tuned on: the development trees (FastAPI, HTTPX, Traefik), Frigate,
  and the trees reserved for outside evaluation (Starlette, NetBox, Vitest).
- In askdocs: `embedding.model = "minilm-l6-docs"`, model id `local:minilm-l6-docs`.
"""


def tree_rows(trees: list[Tree], summary: dict[str, dict[str, object]]) -> list[str]:
    rows = ["| tree | repository | commit | docs folder | licence | dialect | split | pairs |"]
    rows.append("|---|---|---|---|---|---|---|---|")
    for tree in trees:
        pairs = summary.get(tree.name, {}).get("pairs", {})
        count = sum(pairs.values()) if isinstance(pairs, dict) else 0
        rows.append(
            f"| {tree.name} | {tree.repo} | `{tree.commit[:12]}` | `{tree.docs}` | "
            f"{tree.licence} | {tree.dialect} | {tree.split} | {count} |"
        )
    return rows


def card(data: Path, run: Path, figures: Path) -> str:
    summary = json.loads((data / "summary.json").read_text(encoding="utf-8"))
    run_info = json.loads((run / "run.json").read_text(encoding="utf-8"))
    parts = [
        HEAD,
        "## Training run\n",
        "```json\n" + json.dumps(run_info, indent=1) + "\n```\n",
        "## Figures\n",
        figures.read_text(encoding="utf-8").strip() + "\n",
        "## Training trees\n",
        "\n".join(tree_rows(load(), summary)) + "\n",
    ]
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--figures", type=Path, required=True)
    args = parser.parse_args()
    print(card(args.data, args.run, args.figures), end="")


if __name__ == "__main__":
    main()
