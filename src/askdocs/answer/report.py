"""The docs-gaps report (pure, given the questions' vectors): what readers asked, what the
documentation could not answer, which answers they disliked, which pages answers cite.

Questions are grouped by meaning: each distinct wording, most frequent first, joins the
first group holding a question close to it (cosine similarity at least ``SIMILAR``, over
the embedding model's vectors; with no embedding model, word overlap at least
``SIMILAR_WORDS``), else starts a group.
Groups are listed biggest first. "No match" groups hold only the questions retrieval found
nothing for (``matched`` false): the pages the documentation is missing; each carries the
arguments of a draft page for it (``answer.drafts``).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
import numpy.typing as npt

from askdocs.answer.citations import words
from askdocs.answer.drafts import DraftScope, draft_page
from askdocs.answer.records import AskRecord, AskRecords
from askdocs.db import Database
from askdocs.db.models import utcnow
from askdocs.embeddings.protocol import Embedder
from askdocs.settings import AskSettings

SIMILAR = 0.6  # bundled model: paraphrases 0.6-0.95, other topics under 0.3
SIMILAR_WORDS = 0.5
EXAMPLES = 5
Embed = Callable[[Sequence[str]], npt.NDArray[np.float32]]


@dataclass
class Group:
    """Questions that ask the same thing; ``label`` is the most frequent wording."""

    label: str
    count: int = 0
    examples: list[str] = field(default_factory=list)
    sites: list[str] = field(default_factory=list)
    draft: dict[str, str] | None = None  # no-match groups: a WritePage proposal's arguments


@dataclass(frozen=True)
class Disliked:
    question: str
    comment: str | None
    sources: list[str]
    kind: str
    flagged: bool
    at: datetime


@dataclass(frozen=True)
class CitedPage:
    url: str
    title: str
    count: int


@dataclass(frozen=True)
class GapsReport:
    since: datetime
    questions: int
    no_match: int
    flagged: int
    liked: int
    disliked_count: int
    most_asked: list[Group]
    no_match_groups: list[Group]
    disliked: list[Disliked]
    pages_most_cited: list[CitedPage]


def build_report(
    records: Sequence[AskRecord],
    since: datetime,
    embed: Embed | None,
    assistant: Sequence[Disliked] = (),
    scope: DraftScope | None = None,
) -> GapsReport:
    """The report of Ask AI's ``records``, plus the assistant replies users rated down;
    drafts for the sites of ``scope``'s organisation when given."""
    missed = [r for r in records if not r.matched]
    return GapsReport(
        since=since,
        questions=len(records),
        no_match=len(missed),
        flagged=sum(r.flagged for r in records),
        liked=sum(r.rating == 1 for r in records),
        disliked_count=sum(r.rating == -1 for r in records) + len(assistant),
        most_asked=group(records, embed),
        no_match_groups=[with_draft(g, scope) for g in group(missed, embed)],
        disliked=[_disliked(r) for r in records if r.rating == -1] + list(assistant),
        pages_most_cited=cited(records),
    )


def group(records: Sequence[AskRecord], embed: Embed | None) -> list[Group]:
    """Group the records' questions by meaning, biggest group first."""
    wordings = Counter(_clean(r.question) for r in records)
    texts = [text for text, _ in wordings.most_common()]
    if not texts:
        return []
    close = _by_vectors(embed(texts)) if embed is not None else _by_words(texts)
    members: list[list[int]] = []
    groups: list[Group] = []
    for index, text in enumerate(texts):
        home = next((g for g, ids in enumerate(members) if any(close(index, i) for i in ids)), None)
        if home is None:
            members.append([])
            groups.append(Group(label=text))
            home = len(groups) - 1
        members[home].append(index)
        _add(groups[home], text, wordings[text], records)
    return sorted(groups, key=lambda g: (-g.count, g.label))


def with_draft(found: Group, scope: DraftScope | None = None) -> Group:
    """The group with the arguments of a ``WritePage`` proposal for a new page that answers
    it (``answer.drafts``: the questions summarised, never copied)."""
    found.draft = draft_page(found.examples, found.count, found.sites, scope)
    return found


def cited(records: Sequence[AskRecord], limit: int = 20) -> list[CitedPage]:
    counts: Counter[str] = Counter()
    titles: dict[str, str] = {}
    for record in records:
        for source in record.sources:
            page = source.get("url", "").split("#")[0]
            counts[page] += 1
            titles.setdefault(page, source.get("title", ""))
    return [CitedPage(url, titles[url], n) for url, n in counts.most_common(limit)]


def _add(target: Group, text: str, count: int, records: Sequence[AskRecord]) -> None:
    target.count += count
    if len(target.examples) < EXAMPLES:
        target.examples.append(text)
    for record in records:
        if _clean(record.question) == text and record.site_id not in target.sites:
            target.sites.append(record.site_id)


def _by_vectors(vectors: npt.NDArray[np.float32]) -> Callable[[int, int], bool]:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit = vectors / np.where(norms == 0, 1, norms)
    return lambda a, b: float(unit[a] @ unit[b]) >= SIMILAR


def _by_words(texts: Sequence[str]) -> Callable[[int, int], bool]:
    sets = [words(t) for t in texts]  # content words, as the citation check compares them

    def close(a: int, b: int) -> bool:
        union = sets[a] | sets[b]
        return bool(union) and len(sets[a] & sets[b]) / len(union) >= SIMILAR_WORDS

    return close


def _clean(question: str) -> str:
    return " ".join(question.split())


def _disliked(record: AskRecord) -> Disliked:
    return Disliked(
        question=record.question,
        comment=record.comment,
        sources=[s.get("url", "") for s in record.sources],
        kind=record.kind,
        flagged=record.flagged,
        at=record.created_at,
    )


SINCE = re.compile(r"(\d{1,4})([hdw])")
UNIT_HOURS = {"h": 1, "d": 24, "w": 24 * 7}


def parse_since(value: str) -> timedelta:
    """``7d``, ``24h``, ``2w`` (at most 9999 units) as a duration; ``ValueError`` else."""
    found = SINCE.fullmatch(value.strip())
    if found is None or int(found.group(1)) == 0:
        raise ValueError("since must look like 24h, 7d or 2w")
    return timedelta(hours=int(found.group(1)) * UNIT_HOURS[found.group(2)])


def as_json(report: GapsReport) -> dict[str, object]:
    """The report as JSON-ready values (datetimes as ISO 8601)."""
    return _jsonable(dataclasses.asdict(report))  # type: ignore[return-value]


def _jsonable(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {_camel(str(k)): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


Assistant = Callable[[datetime], Sequence[Disliked]]


def gaps_report(
    db: Database,
    settings: AskSettings,
    window: tuple[timedelta, str | None],
    embed: Embed | None,
    assistant: Assistant | None = None,
    scope: DraftScope | None = None,
) -> GapsReport:
    """Read the records of the last ``since`` (one site, or all) and build the report;
    ``assistant(since)`` adds the assistant replies users rated down (all sites only)."""
    since, site_id = window
    start = utcnow() - since
    asked = AskRecords(db, settings).since(start, site_id)
    rated = assistant(start) if assistant is not None and site_id is None else []
    return build_report(asked, start, embed, rated, scope)


def embed_with(embedder: Embedder | None) -> Embed | None:
    return embedder.embed_documents if embedder is not None else None
