"""The citation check (pure): markers that name no source or whose sentence shares too
little with the source are dropped and the answer flagged; code blocks are left alone;
the result does not depend on how the stream was cut into pieces."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from askdocs.answer.citations import DROPPED_NOTE, CitationFilter, supported, words

SOURCES = {
    1: "Installing Acme. Run pip install acme in a virtual environment; Python 3.11 or newer.",
    2: "Configuring the cache: set cache_size and cache_ttl in the settings file.",
}
ANSWER = (
    "Install Acme with pip in a virtual environment [1].\n\n"
    "```sh\npip install acme  # see [2]\n```\n\n"
    "Configure the cache size in the settings file [2]. "
    "Penguins live in Antarctica [1]. See also [9]."
)


def check(pieces: list[str]) -> tuple[str, CitationFilter]:
    checker = CitationFilter.over(SOURCES)
    out = "".join(checker.feed(piece) for piece in pieces) + checker.close()
    return out, checker


def test_supported_markers_stay_and_unsupported_ones_go() -> None:
    out, checker = check([ANSWER])
    assert "virtual environment [1]." in out
    assert "settings file [2]." in out
    assert "Penguins live in Antarctica." in out  # [1] dropped with its space
    assert "See also." in out  # [9] names no source
    assert checker.kept == [1, 2]
    assert checker.dropped == [1, 9]
    assert checker.flagged
    assert out.endswith(DROPPED_NOTE)


def test_code_blocks_and_links_are_left_alone() -> None:
    out, _checker = check([ANSWER])
    assert "pip install acme  # see [2]\n```" in out
    linked, _ = check(["Read [the guide](/docs/install) and [1](/x)."])
    assert linked == "Read [the guide](/docs/install) and [1](/x)."


def test_a_marker_after_the_sentence_end_is_judged_with_that_sentence() -> None:
    out, checker = check(["Set cache_ttl in the settings file. [2]"])
    assert out == "Set cache_ttl in the settings file. [2]"
    assert not checker.flagged


def test_no_markers_no_flag() -> None:
    out, checker = check(["Plain text with [brackets] and [x]."])
    assert out == "Plain text with [brackets] and [x]."
    assert not checker.flagged


def test_the_rule() -> None:
    source = words(SOURCES[2])
    assert supported(words("Configure the cache in the settings"), source)
    assert not supported(words("Penguins live in Antarctica"), source)
    assert not supported(frozenset(), source)


@given(st.lists(st.integers(min_value=1, max_value=len(ANSWER) - 1), max_size=12))
def test_the_same_result_however_the_stream_is_cut(cuts: list[int]) -> None:
    points = [0, *sorted(set(cuts)), len(ANSWER)]
    pieces = [ANSWER[a:b] for a, b in itertools.pairwise(points)]
    assert check(pieces)[0] == check([ANSWER])[0]
