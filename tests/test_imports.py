"""The package's import graph has no cycle (``python -m askdocs.devtools.imports``)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

from askdocs.devtools.imports import Graph, cycles, graph, packages


def test_the_package_has_no_import_cycle() -> None:
    edges = graph()
    assert "askdocs.app" in edges
    assert "askdocs.service" in edges["askdocs.app"]
    assert cycles(edges) == []


def test_no_two_packages_import_each_other() -> None:
    folded = packages(graph())
    assert "askdocs.chunking" in folded["askdocs.ingest"]
    assert "askdocs.corpus" in folded["askdocs.chunking"]
    assert cycles(folded) == []


def test_a_package_cycle_is_found_through_submodules() -> None:
    edges: Graph = {"askdocs.a.x": {"askdocs.b.y"}, "askdocs.b.y": {"askdocs.a.z"}}
    edges["askdocs.a.z"] = set()
    assert cycles(packages(edges)) == [["askdocs.a", "askdocs.b"]]


def test_a_cycle_is_found_and_reported() -> None:
    edges: Graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_the_script_prints_the_graph_and_exits_zero() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "askdocs.devtools.imports"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert "askdocs.app -> " in run.stdout
    assert run.stdout.rstrip().endswith("0 cycles")


def test_a_server_on_sqlite_with_the_local_model_leaves_the_heavy_optional_parts_out() -> None:
    """What a default ``askdocs serve`` imports to serve and search (the app, the local
    model's session code) leaves out the ONNX graph builder (the model compiles in a child
    process), PostgreSQL's driver and Redis's client: some 40 MB of resident memory
    (issue #31)."""
    code = (
        "import sys, askdocs.server.app, askdocs.embeddings.local, askdocs.cli.serve;"
        "print(' '.join(sorted(m for m in ('onnx', 'psycopg', 'redis') if m in sys.modules)))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert run.stdout.strip() == ""


def test_the_package_never_imports_the_training_pipeline() -> None:
    """``train/`` (issue #32) needs PyTorch and is not shipped: no module of the package may
    import it, even lazily inside a function."""
    root = Path(__file__).resolve().parents[1]
    importing = []
    for path in sorted((root / "src" / "askdocs").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            if any(name == "train" or name.startswith("train.") for name in names):
                importing.append(str(path.relative_to(root)))
    assert importing == []
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["src/askdocs"]
