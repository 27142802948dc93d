"""Retrieval quality over several labelled question sets at once (docs/search.md, "Quality").

usage: python bench/quality.py [SET.jsonl=DOCS ...] [--data-dir TEMPLATE] [-o KEY=VALUE ...]
                               [--details] [--json]

Without pairs it scores the development sets of ``../shared/eval`` (next to the checkout)
over their corpora in ``../shared/corpora``, and says so when that folder is missing. Each
docs folder is indexed (incrementally: vectors are reused by embed hash, so a second run
embeds nothing) into its own data dir, ``TEMPLATE`` with ``{set}`` replaced by the set's
short name (default ``.askdocs-data/quality-{set}``).

One row per set and a macro row (the mean of the set rows): hit@1, hit@5, MRR@10, nDCG@10
and page hit@5 at section level over answerable questions; abstention as the share of
unanswerable questions with ``match: false`` and of answerable ones with ``match: true``;
hit@5 per question kind; and the precision of Ask AI's sources: the share of the
``X-Ask-Sources`` entries Ask AI would send (``answer.flow.retrieve``, the same code path)
that are from a labelled page, over answerable questions. A pooled line gives the
abstention counts over all sets. ``-o search.rrf_k=10`` overrides a setting for a run
(ranking changes need no re-index).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from askdocs.answer.flow import Question as AskQuestion
from askdocs.answer.flow import retrieve
from askdocs.answer.prompt import sources
from askdocs.blocking import BlockingPool
from askdocs.cli.engine import site_id_for
from askdocs.llm.types import ChatMessage
from askdocs.search.evalset import Question, lead_or_heading, parse_questions
from askdocs.search.metrics import Judged, dedupe, first_rank, hit_at, report
from askdocs.service import AskDocs
from askdocs.settings import Settings, SiteConfig, load_settings
from askdocs.sites import folder_site
from askdocs.sites.registry import register_site

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"  # bench/shared_data.py's folder
POOL = BlockingPool(1, "quality-bench")
KINDS = ("paraphrase", "keyword", "howto-code", "followup")
DEFAULT_TEMPLATE = str(ROOT / ".askdocs-data" / "quality-{set}")


@dataclass(frozen=True)
class EvalSet:
    name: str
    questions_file: Path
    docs: Path


@dataclass
class SetScore:
    """The figures of one set (or the macro average of several)."""

    name: str
    figures: dict[str, float]
    refused: int = 0
    unanswerable: int = 0
    matched: int = 0
    answerable: int = 0
    details: list[dict[str, object]] = field(default_factory=list)


def short_name(questions_file: Path) -> str:
    """``fastapi-docs-dev.jsonl`` -> ``fastapi``."""
    return questions_file.stem.split("-")[0]


def parse_pair(pair: str) -> EvalSet:
    if "=" not in pair:
        raise SystemExit(f"expected SET.jsonl=DOCS, got {pair!r}")
    file, docs = (Path(p) for p in pair.split("=", 1))
    return EvalSet(short_name(file), file, docs)


def shared_sets() -> list[EvalSet]:
    """The development sets in ../shared/eval, each over its corpus."""
    if not (SHARED / "eval").is_dir():
        raise SystemExit(
            f"{SHARED} is not present: give the sets as SET.jsonl=DOCS pairs "
            "(the development sets live in ../shared/eval next to the checkout)"
        )
    sets = []
    for file in sorted((SHARED / "eval").glob("*-dev.jsonl")):
        corpus = SHARED / "corpora" / file.stem.removesuffix("-dev")
        sets.append(EvalSet(short_name(file), file, corpus))
    print(f"using the development sets in {SHARED / 'eval'}", file=sys.stderr)
    return sets


def overrides(pairs: Sequence[str]) -> dict[str, dict[str, object]]:
    """``search.rrf_k=10`` -> ``{"search": {"rrf_k": 10}}`` (values read as JSON if they can)."""
    out: dict[str, dict[str, object]] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        group, _, name = key.partition(".")
        try:
            value: object = json.loads(raw)
        except ValueError:
            value = raw
        out.setdefault(group, {})[name] = value
    return out


# A page that takes longer than the corpus parse budget is skipped (corpus.parse_timeout_seconds,
# 5 s); on a loaded machine fastapi's 0.69 MB release-notes.md can take longer, so the index
# and every figure would depend on the machine's load. The bench gives parsing time enough.
BENCH_PARSE_SECONDS = 600.0


def open_service(data_dir: Path, ev: EvalSet, extra: dict[str, dict[str, object]]) -> AskDocs:
    corpus = {"parse_timeout_seconds": BENCH_PARSE_SECONDS, **extra.get("corpus", {})}
    settings = load_settings(None, data_dir=data_dir, **{**extra, "corpus": corpus})
    site = folder_site(ev.docs.resolve(), site_id_for(ev.docs, None))
    register_site(data_dir, site)
    service = AskDocs(settings, [site])
    result = service.index(site.id)
    if result.embedded:
        print(f"{ev.name}: embedded {result.embedded} chunks", file=sys.stderr)
    return service


def ask_pages(service: AskDocs, site: SiteConfig, question: Question) -> list[str]:
    """The pages (paths) Ask AI would list in ``X-Ask-Sources`` for the question."""
    turns = [*question.history, question.question]
    messages = tuple(ChatMessage(role="user", content=text) for text in turns)
    settings: Settings = service.settings
    hits = asyncio.run(retrieve(service, settings, AskQuestion(site, messages), POOL))
    by_url = {hit.url: hit.path for hit in hits}
    return [by_url[source.url] for source in sources(hits)]


def judge(service: AskDocs, site: SiteConfig, question: Question) -> tuple[Judged, float | None]:
    result = service.search(question.question, site=site.id, limit=10, history=question.history)
    judged = Judged(
        id=question.id,
        kind=question.kind,
        labels=question.relevant,
        results=tuple(lead_or_heading(h.path, h.heading, h.section_id) for h in result.hits),
        match=result.match,
    )
    return judged, result.best_dense


def score_set(ev: EvalSet, template: str, extra: dict[str, dict[str, object]]) -> SetScore:
    data_dir = Path(template.format(set=ev.name))
    questions = parse_questions(ev.questions_file.read_text(encoding="utf-8").splitlines())
    service = open_service(data_dir, ev, extra)
    try:
        site = service.sites[0]
        rows = [(q, *judge(service, site, q)) for q in questions]
        pages = [ask_pages(service, site, q) if q.relevant else [] for q in questions]
    finally:
        service.close()
    judged = [j for _, j, _ in rows]
    figures = _figures(judged)
    figures["sources_precision"] = _precision(questions, pages)
    figures["sources_per_answer"] = _mean_len(
        [p for q, p in zip(questions, pages, strict=True) if q.relevant]
    )
    score = SetScore(ev.name, figures)
    score.unanswerable = sum(not j.answerable for j in judged)
    score.refused = sum(not j.answerable and not j.match for j in judged)
    score.answerable = sum(j.answerable for j in judged)
    score.matched = sum(j.answerable and j.match for j in judged)
    score.details = [_detail(q, j, best, p) for (q, j, best), p in zip(rows, pages, strict=True)]
    return score


def _figures(judged: list[Judged]) -> dict[str, float]:
    r = report(judged)
    figures = {
        "hit@1": r.hit_at_1,
        "hit@5": r.hit_at_5,
        "MRR@10": r.mrr_at_10,
        "nDCG@10": r.ndcg_at_10,
        "page@5": r.page_hit_at_5,
        "refused": r.abstained_unanswerable,
        "matched": r.matched_answerable,
    }
    for kind in KINDS:
        of_kind = [j for j in judged if j.kind == kind and j.answerable]
        hits = [hit_at(dedupe(j.results), j.labels, 5) for j in of_kind]
        figures[f"{kind}@5"] = sum(hits) / len(hits) if hits else float("nan")
    return figures


def _precision(questions: Sequence[Question], pages: Sequence[list[str]]) -> float:
    """Share of source entries, over answerable questions, that are a labelled page."""
    good = total = 0
    for question, listed in zip(questions, pages, strict=True):
        wanted = {path for path, _ in question.relevant}
        if wanted:
            total += len(listed)
            good += sum(page in wanted for page in listed)
    return good / total if total else 0.0


def _mean_len(lists: Sequence[list[str]]) -> float:
    return sum(len(x) for x in lists) / len(lists) if lists else 0.0


def _detail(q: Question, j: Judged, best: float | None, pages: list[str]) -> dict[str, object]:
    rank = first_rank(dedupe(j.results), j.labels, 10) if j.labels else None
    return {
        "id": q.id,
        "kind": q.kind,
        "rank": rank,
        "match": j.match,
        "best_dense": None if best is None else round(best, 4),
        "top": [f"{p}#{h}" for p, h in dedupe(j.results)[:3]],
        "labels": [f"{p}#{h}" for p, h in j.labels],
        "sources": pages,
    }


def macro(scores: Sequence[SetScore]) -> SetScore:
    keys = scores[0].figures.keys()
    figures = {k: sum(s.figures[k] for s in scores) / len(scores) for k in keys}
    out = SetScore("macro", figures)
    for s in scores:
        out.refused += s.refused
        out.unanswerable += s.unanswerable
        out.matched += s.matched
        out.answerable += s.answerable
    return out


COLUMNS: tuple[str, ...] = ("hit@1", "hit@5", "MRR@10", "nDCG@10", "page@5", "refused")
COLUMNS += ("matched", *(f"{k}@5" for k in KINDS), "sources_precision")
HEAD: tuple[str, ...] = ("set", "hit@1", "hit@5", "MRR@10", "nDCG@10", "page@5", "refused")
HEAD += ("matched", "para@5", "kw@5", "howto@5", "follow@5", "src prec")


def table(scores: Sequence[SetScore]) -> list[str]:
    lines = ["  ".join(f"{h:>8}" for h in HEAD)]
    for s in scores:
        cells = [f"{s.name:>8}"] + [f"{s.figures[c]:>8.3f}" for c in COLUMNS]
        lines.append("  ".join(cells))
    total = scores[-1]
    lines.append(
        f"abstention pooled: {total.refused}/{total.unanswerable} unanswerable refused, "
        f"{total.matched}/{total.answerable} answerable matched "
        f"({total.matched / max(1, total.answerable):.1%})"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="SET.jsonl=DOCS (default: ../shared/eval)")
    parser.add_argument("--data-dir", default=DEFAULT_TEMPLATE, help="with {set}")
    parser.add_argument("-o", "--override", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--details", action="store_true", help="one line per question")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    sets = [parse_pair(p) for p in args.sets] or shared_sets()
    extra = overrides(args.override)
    scores = [score_set(ev, args.data_dir, extra) for ev in sets]
    everything = [*scores, macro(scores)]
    if args.json:
        print(json.dumps([s.__dict__ for s in everything], indent=1))
        return
    if args.details:
        for s in scores:
            for d in s.details:
                print(json.dumps({"set": s.name, **d}, ensure_ascii=False))
    print("\n".join(table(everything)))


if __name__ == "__main__":
    main()
