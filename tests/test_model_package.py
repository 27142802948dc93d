"""The companion model package: no dependencies (so `pip check` is clean), Apache-2.0, and
pinned files that are exactly the ones the local embedder loads."""

from __future__ import annotations

import hashlib
import tomllib

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
