"""Calibrate the match threshold (``search.match_threshold``) on labelled question sets.

usage: python bench/calibrate_threshold.py --data-dir DIR FILE.jsonl=DOCS_PATH [...]

Each docs folder is indexed into DIR (incrementally) as its own site, every question is
searched, and for each question the best cosine among the top hits is recorded together
with the parts of the match rule that do not depend on the threshold (the exact-words rule
for keyword-like queries, the unknown-name veto). The script prints the cosines of
answerable and unanswerable questions and, for each candidate threshold, the share of
answerable questions that keep ``match: true`` and of unanswerable ones that get
``match: false``. The chosen value is the highest threshold that keeps at least 90% of the
answerable questions matched (docs/search.md, "Match threshold").
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from askdocs.cli.engine import register_site, site_id_for
from askdocs.search.evalset import parse_questions
from askdocs.service import AskDocs
from askdocs.settings import SearchSettings, Settings, load_settings
from askdocs.sites import folder_site


@dataclass(frozen=True)
class Row:
    set: str
    id: str
    answerable: bool
    best: float
    veto: bool  # a name the docs never mention
    words: bool  # the exact-words rule alone says match

    def match(self, threshold: float) -> bool:
        return (self.best >= threshold or self.words) and not self.veto


def _with_threshold(settings: Settings, value: float) -> AskDocs:
    search = SearchSettings(**{**settings.search.model_dump(), "match_threshold": value})
    return AskDocs(settings.model_copy(update={"search": search}))


def measure(settings: Settings, questions_file: Path, docs: Path) -> list[Row]:
    site = folder_site(docs.resolve(), site_id_for(docs, None))
    register_site(settings.data_dir, site)
    questions = parse_questions(questions_file.read_text(encoding="utf-8").splitlines())
    lenient = _with_threshold(settings, -1.0)
    strict = _with_threshold(settings, 2.0)
    for service in (lenient, strict):
        service.sites = [site]
    lenient.index(site.id)
    rows = []
    for q in questions:
        loose = lenient.search(q.question, site=site.id, history=q.history)
        tight = strict.search(q.question, site=site.id, history=q.history)
        best = loose.best_dense if loose.best_dense is not None else 0.0
        rows.append(
            Row(questions_file.stem, q.id, bool(q.relevant), best, not loose.match, tight.match)
        )
    lenient.close()
    strict.close()
    return rows


def rates(rows: list[Row], threshold: float) -> tuple[float, float]:
    answerable = [r for r in rows if r.answerable]
    unanswerable = [r for r in rows if not r.answerable]
    kept = sum(r.match(threshold) for r in answerable) / max(1, len(answerable))
    abstained = sum(not r.match(threshold) for r in unanswerable) / max(1, len(unanswerable))
    return kept, abstained


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("sets", nargs="+", help="FILE.jsonl=DOCS_PATH")
    args = parser.parse_args()
    settings = load_settings(data_dir=args.data_dir)
    rows: list[Row] = []
    for pair in args.sets:
        file, docs = pair.split("=", 1)
        rows += measure(settings, Path(file), Path(docs))
    for row in sorted(rows, key=lambda r: r.best):
        kind = "answerable  " if row.answerable else "UNANSWERABLE"
        print(f"{row.best:.3f} {kind} veto={row.veto!s:<5} words={row.words!s:<5} {row.id}")
    chosen = None
    for step in range(20, 71):
        threshold = step / 100
        kept, abstained = rates(rows, threshold)
        print(
            f"threshold {threshold:.2f}: answerable match {kept:.3f}, unanswerable no-match "
            f"{abstained:.3f}"
        )
        if kept >= 0.9:
            chosen = threshold
    print(f"chosen: {chosen}")


if __name__ == "__main__":
    main()
