"""The package's import graph has no cycle (``python -m askdocs.devtools.imports``)."""

from __future__ import annotations

import subprocess
import sys

from askdocs.devtools.imports import Graph, cycles, graph


def test_the_package_has_no_import_cycle() -> None:
    edges = graph()
    assert "askdocs.app" in edges
    assert "askdocs.service" in edges["askdocs.app"]
    assert cycles(edges) == []


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
