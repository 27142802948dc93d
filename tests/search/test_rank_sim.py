"""``bench/rank_sim.py`` ranks exactly as the search path does (its figures stand for the
bench's only while this holds): same sections, same order, for natural, keyword-like and
follow-up questions and for other fusion settings, against the real engine."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from askdocs.search.evalset import Question, lead_or_heading
from askdocs.service import AskDocs
from askdocs.settings import SearchSettings
from tests.search.conftest import SITE, fixture_settings

BENCH = Path(__file__).resolve().parents[2] / "bench"
QUESTIONS = (
    Question("natural", "how do I allow requests from my React app on another origin?"),
    Question("long", "my container crashes because shared memory is too small, what do I set"),
    Question("keyword", "receive_json"),
    Question("mixed", "how do I read a message with receive_json in my endpoint"),
    Question("short", "dependency scope"),
    Question("followup", "and how do I close it?", history=("receive JSON over a websocket",)),
    Question("broad", "send an email after returning the response without blocking"),
)


@pytest.fixture(scope="module")
def rank_sim() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCH))  # rank_sim imports its neighbour quality.py
    try:
        yield importlib.import_module("rank_sim")
    finally:
        sys.path.remove(str(BENCH))


@pytest.mark.parametrize(
    "search",
    [
        {},
        {"rrf_k": 60, "lexical_weight": 1.0},
        {"prefetch": 2, "dense_margin": 0.0},
        {"mixed_rrf_k": 1, "mixed_dense_weight": 3.0, "mixed_lexical_weight": 0.1},
    ],
    ids=["defaults", "plain-rrf", "narrow", "mixed-dense"],
)
def test_the_simulator_ranks_as_the_engine(
    indexed: AskDocs, rank_sim: ModuleType, search: dict[str, object]
) -> None:
    settings = SearchSettings.model_validate({**SearchSettings().model_dump(), **search})
    service = AskDocs(
        fixture_settings(indexed.settings.data_dir, search=settings.model_dump()), indexed.sites
    )
    try:
        dump = rank_sim.snapshot(service, SITE, QUESTIONS)
        assert {chunk.locale for chunk in dump.chunks} == {"en"}  # cors.cs.md is not read
        for asked in dump.asked:
            q = asked.question
            found = service.search(q.question, site=SITE, limit=10, history=q.history)
            engine = [lead_or_heading(h.path, h.heading, h.section_id) for h in found.hits]
            assert rank_sim.ranked(dump, asked, settings) == engine, q.id
    finally:
        service.close()
