"""The companion model package: no dependencies (so `pip check` is clean), Apache-2.0, and
pinned files that are exactly the ones the local embedder loads."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import struct
import tomllib
import types
from pathlib import Path

import pytest

from askdocs.embeddings.local_model import bundled_model_dir
from tests.conftest import REPO

PACKAGE = REPO / "packages" / "askdocs-model-minilm"
LOADED = {
    "model.safetensors",
    "config.json",
    "sentence_bert_config.json",
    "1_Pooling/config.json",
    "tokenizer.json",
}


def pinned() -> dict[str, str]:
    lines = (PACKAGE / "weights.sha256").read_text(encoding="utf-8").splitlines()
    return {name: digest for digest, name in (line.split() for line in lines if line.strip())}


def test_the_companion_declares_no_dependencies_and_the_model_licence() -> None:
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "askdocs-model-minilm"
    assert project["dependencies"] == []
    assert project["license"] == "Apache-2.0"
    assert "Apache License" in (PACKAGE / "LICENSE").read_text(encoding="utf-8")


def test_the_pinned_files_cover_what_the_loader_reads() -> None:
    assert pinned().keys() >= LOADED | {"README.md"}


def test_the_installed_model_is_the_pinned_one() -> None:
    folder = bundled_model_dir()
    for name, digest in pinned().items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name


def test_setup_installs_the_companion_and_checks_pip() -> None:
    install = (REPO / "scripts" / "install-product").read_text(encoding="utf-8")
    assert "scripts/build-model-package" in install
    assert "pip check" in install
    assert "scripts/install-product" in (REPO / "scripts" / "setup").read_text(encoding="utf-8")


DOCS_PACKAGE = REPO / "packages" / "askdocs-model-minilm-docs"


def test_the_docs_tuned_package_is_built_like_the_bundled_one() -> None:
    project = tomllib.loads((DOCS_PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["name"] == "askdocs-model-minilm-docs"
    assert project["project"]["dependencies"] == []
    assert project["project"]["license"] == "Apache-2.0"
    assert "Apache License" in (DOCS_PACKAGE / "LICENSE").read_text(encoding="utf-8")
    artifacts = project["tool"]["hatch"]["build"]["targets"]["wheel"]["artifacts"]
    assert artifacts == ["src/askdocs_model_minilm_docs/model/**"]
    ignored = (DOCS_PACKAGE / ".gitignore").read_text(encoding="utf-8")
    assert "src/askdocs_model_minilm_docs/model/" in ignored  # weights are never committed


def test_the_build_script_knows_both_models() -> None:
    script = (REPO / "scripts" / "build-model-package").read_text(encoding="utf-8")
    assert "packages/askdocs-model-minilm-docs" in script
    assert "place_weights.py" in script


def _place_weights() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(
        "place_weights", DOCS_PACKAGE / "place_weights.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def run_folder(tmp_path: Path) -> Path:
    """A training run's model folder: the bundled files, and weights with the bundled
    tensors' header but other (here: no) data."""
    folder = tmp_path / "run" / "model"
    source = bundled_model_dir()
    for name in pinned():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        if name != "model.safetensors":
            shutil.copyfile(source / name, folder / name)
    with (source / "model.safetensors").open("rb") as weights:
        (size,) = struct.unpack("<Q", weights.read(8))
        header = weights.read(size)
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", size) + header)
    (folder / "README.md").write_text("# the trainer's own card\n", encoding="utf-8")
    (tmp_path / "card.md").write_text("# minilm-l6-docs\n## Figures\n", encoding="utf-8")
    return folder


def test_place_weights_copies_a_run_with_its_card(run_folder: Path, tmp_path: Path) -> None:
    place = _place_weights()
    target = tmp_path / "package" / "model"
    (target / "stale").mkdir(parents=True)
    sums = place.place(run_folder, tmp_path / "card.md", target)
    assert set(sums) == set(pinned())
    assert not (target / "stale").exists()
    assert (target / "README.md").read_text(encoding="utf-8").startswith("# minilm-l6-docs")
    recorded = (target / "weights.sha256").read_text(encoding="utf-8")
    assert f"{sums['model.safetensors']}  model.safetensors" in recorded
    for name, digest in sums.items():
        assert hashlib.sha256((target / name).read_bytes()).hexdigest() == digest


def test_place_weights_refuses_what_is_not_a_tuned_minilm(
    run_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    place = _place_weights()
    card = tmp_path / "card.md"
    with pytest.raises(place.Refused, match=r"train\.card"):
        place.sources(run_folder, tmp_path / "no-card.md")
    tokenizer = run_folder / "tokenizer.json"
    original = tokenizer.read_bytes()
    tokenizer.write_bytes(original.replace(b"[UNK]", b"[unk]"))
    with pytest.raises(place.Refused, match="not the same model"):
        place.sources(run_folder, card)
    tokenizer.write_bytes(original)
    weights = run_folder / "model.safetensors"
    header = weights.read_bytes()
    shutil.copyfile(bundled_model_dir() / "model.safetensors", weights)
    with pytest.raises(place.Refused, match="bundled model's weights"):
        place.sources(run_folder, card)
    weights.write_bytes(header.replace(b"F32", b"F16", 1))
    with pytest.raises(place.Refused, match="tensors"):
        place.sources(run_folder, card)
    weights.write_bytes(header)
    assert place.sources(run_folder, card)
    pins = tmp_path / "weights.sha256"
    pins.write_text(f"{'0' * 64}  model.safetensors\n", encoding="utf-8")
    monkeypatch.setattr(place, "PINNED", pins)  # a released version pins its run
    with pytest.raises(place.Refused, match="pins"):
        place.sources(run_folder, card)
