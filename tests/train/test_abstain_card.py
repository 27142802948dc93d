"""The abstention calibration's pure parts and the model card of the docs-tuned package."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from train.abstain import Cosines, rates, threshold_at
from train.card import card
from train.manifest import load


def test_threshold_at_keeps_the_asked_share_of_answerable_questions() -> None:
    answerable = [0.9, 0.8, 0.7, 0.6, 0.5]
    assert threshold_at(answerable, 1.0) == 0.5
    assert threshold_at(answerable, 0.6) == 0.7  # 3 of 5 kept
    assert threshold_at(answerable, 0.61) == 0.6  # at least the share: 4 of 5
    assert threshold_at(answerable, 0.0) == 0.9  # never above the best


def test_rates_count_kept_answerable_and_refused_unanswerable() -> None:
    cosines = Cosines(answerable=(0.9, 0.5, 0.4), unanswerable=(0.2, 0.45, 0.6, 0.3))
    assert rates(cosines, 0.45) == pytest.approx((2 / 3, 2 / 4))
    assert rates(Cosines((), ()), 0.5) == (0.0, 0.0)


def test_the_card_lists_every_training_tree_the_run_and_the_figures(tmp_path: Path) -> None:
    trees = load()
    summary = {trees[0].name: {"pairs": {"question": 3, "link": 4}}}
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (tmp_path / "run.json").write_text(json.dumps({"steps": 7, "seed": 13}), encoding="utf-8")
    (tmp_path / "figures.md").write_text("| set | hit@5 |\n|---|---|\n| x | 0.9 |\n")
    text = card(tmp_path, tmp_path, tmp_path / "figures.md")
    assert text.startswith("# minilm-l6-docs")
    for heading in ("## Training run", "## Figures", "## Training trees"):
        assert heading in text
    assert '"steps": 7' in text
    assert "| x | 0.9 |" in text
    for tree in trees:
        assert f"| {tree.name} | {tree.repo} | `{tree.commit[:12]}` |" in text
    assert f"| {trees[0].name} |" in text
    assert text.split(f"| {trees[0].name} |")[1].splitlines()[0].endswith("| 7 |")
