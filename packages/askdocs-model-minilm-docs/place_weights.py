"""Put a training run's model folder into ``src/askdocs_model_minilm_docs/model/``, checked.

    python place_weights.py --from DIR [--card FILE] [--to DIR]    (standard library only)

``DIR`` is ``train.fit``'s ``OUT/model`` (docs/encoder-training.md): the files of the
bundled all-MiniLM-L6-v2 with the tuned ``model.safetensors``. The checks:

* every file the bundled package pins (``../askdocs-model-minilm/weights.sha256``) is
  there, and each one but the weights and the card is byte for byte the bundled one (same
  tokenizer and configuration: askdocs compiles the same graph, at the same cost);
* ``model.safetensors`` has the bundled weights' tensors (names, dtypes and shapes: the
  digest ``LAYOUT``) and is not the bundled weights themselves;
* when this package pins a release (its own ``weights.sha256``), every file matches it.

The model card (``--card``, by default this package's ``MODEL_CARD.md``, written by
``python -m train.card``) becomes the folder's ``README.md``; a folder without a card is
refused, since the card is the record of the training trees and the figures. The folder is
replaced as a whole, and ``weights.sha256`` inside it records the sums of what was placed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = HERE / "src" / "askdocs_model_minilm_docs" / "model"
BUNDLED = HERE.parent / "askdocs-model-minilm" / "weights.sha256"
PINNED = HERE / "weights.sha256"  # a released version's sums (absent until one is pinned)
WEIGHTS = "model.safetensors"
CARD = "README.md"
# sha256 of the bundled model.safetensors' sorted [name, dtype, shape] rows (``layout``)
LAYOUT = "52ed8a785a2d5e4f1382cc027a9784edad0b8e336425e3ebd75ad07c0dc4751a"


class Refused(Exception):
    pass


def read_sums(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {name: digest for digest, name in (line.split() for line in lines if line.strip())}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def layout(path: Path) -> str:
    """A digest of the tensors a safetensors file declares in its JSON header (names,
    dtypes, shapes), or Refused."""
    with path.open("rb") as handle:
        head = handle.read(8)
        (size,) = struct.unpack("<Q", head) if len(head) == 8 else (0,)
        try:
            header = json.loads(handle.read(size)) if 0 < size < 100_000_000 else None
        except ValueError:
            header = None
    if not isinstance(header, dict):
        raise Refused(f"{path} is not a safetensors file")
    rows = sorted([k, v["dtype"], v["shape"]] for k, v in header.items() if k != "__metadata__")
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def sources(folder: Path, card: Path) -> dict[str, Path]:
    """Each file of the package's model folder and where it comes from, checked."""
    bundled = read_sums(BUNDLED)
    files = {name: card if name == CARD else folder / name for name in bundled}
    for name, path in files.items():
        if not path.is_file():
            hint = " (write it with python -m train.card)" if name == CARD else ""
            raise Refused(f"{path} is missing{hint}")
        if name not in (WEIGHTS, CARD) and sha256(path) != bundled[name]:
            raise Refused(f"{path} differs from the bundled model's {name}: not the same model")
    if sha256(files[WEIGHTS]) == bundled[WEIGHTS]:
        raise Refused(f"{files[WEIGHTS]} is the bundled model's weights, not a trained one")
    if layout(files[WEIGHTS]) != LAYOUT:
        raise Refused(f"{files[WEIGHTS]} does not have the bundled model's tensors")
    if PINNED.is_file():
        for name, digest in read_sums(PINNED).items():
            if name not in files or sha256(files[name]) != digest:
                raise Refused(f"{name} is not the file this version pins ({PINNED.name})")
    return files


def place(folder: Path, card: Path, target: Path = TARGET) -> dict[str, str]:
    """Check and copy; returns the placed files' sums."""
    files = sources(folder, card)
    if target.exists():
        shutil.rmtree(target)
    sums = {}
    for name, source in files.items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target / name)
        sums[name] = sha256(target / name)
    lines = [f"{digest}  {name}\n" for name, digest in sums.items()]
    (target / "weights.sha256").write_text("".join(lines), encoding="utf-8")
    return sums


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--from", dest="source", type=Path, required=True)
    parser.add_argument("--card", type=Path, default=HERE / "MODEL_CARD.md")
    parser.add_argument("--to", type=Path, default=TARGET, help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:
        sums = place(args.source, args.card, args.to)
    except Refused as exc:
        sys.exit(f"place_weights: {exc}")
    print(f"place_weights: wrote {len(sums)} checked model files into {args.to}")
    print(f"place_weights: {WEIGHTS} sha256 {sums[WEIGHTS]}")


if __name__ == "__main__":
    main()
