"""The index-run log: every indexing run of an organisation site, with its figures.

An admin's re-index records its run itself (``reindex.RunTracker``). The background
indexer's periodic check indexes every site too (a new site, an edited page, a changed
embedding provider); ``BackgroundRuns.record`` (an ``Indexer`` watcher, wired by the
``App``) logs those runs: ``initiator`` ``background``, no user. A check that found nothing
to do is not a run: it is logged only when the index changed (chunks embedded, or other
chunk or page counts than the last logged run) or when it failed (once per distinct
error, not every retry). Configured sites (no ``sites`` row) are not logged.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from askdocs.db import Database
from askdocs.db.admin_models import IndexRunRow, SiteRow
from askdocs.indexing import CheckedSite
from askdocs.service import IndexReport

MAX_ERROR_CHARS = 500


@dataclass(frozen=True)
class Figures:
    chunks: int | None = None
    pages: int | None = None
    embedded: int | None = None
    reused: int | None = None
    failed_files: int | None = None

    @classmethod
    def of(cls, report: object) -> Figures:
        if not isinstance(report, IndexReport):
            return cls()
        return cls(report.chunks, report.pages, report.embedded, report.reused, report.errors)

    def write(self, run: IndexRunRow) -> None:
        run.chunks, run.pages, run.embedded = self.chunks, self.pages, self.embedded
        run.reused, run.failed_files = self.reused, self.failed_files


def last_run(session: Session, site_id: str) -> IndexRunRow | None:
    query = select(IndexRunRow).where(IndexRunRow.site_id == site_id)
    return session.scalars(query.order_by(IndexRunRow.created_at.desc()).limit(1)).first()


def worth_logging(checked: CheckedSite, figures: Figures, last: IndexRunRow | None) -> bool:
    if checked.phase == "stopped":
        return False
    if checked.phase == "failed":
        return last is None or (last.status, last.error) != ("failed", _error(checked))
    if last is None or last.status != "succeeded" or figures.embedded:
        return True
    return (figures.chunks, figures.pages) != (last.chunks, last.pages)


def _error(checked: CheckedSite) -> str | None:
    return (checked.error or "indexing failed")[:MAX_ERROR_CHARS]


class BackgroundRuns:
    def __init__(self, db: Database) -> None:
        self._db = db

    def record(self, checked: CheckedSite) -> None:
        """Log ``checked`` when it is a run worth a line (on the indexer's thread)."""
        figures = Figures.of(checked.report)
        with self._db.session(write=True) as session:
            if session.get(SiteRow, checked.site) is None:
                return
            if not worth_logging(checked, figures, last_run(session, checked.site)):
                return
            session.add(_row(checked, figures))


def _row(checked: CheckedSite, figures: Figures) -> IndexRunRow:
    done = checked.phase == "done"
    run = IndexRunRow(
        site_id=checked.site,
        user_id=None,
        initiator="background",
        status="succeeded" if done else "failed",
        error=None if done else _error(checked),
    )
    run.started_at, run.finished_at = checked.started, checked.finished
    figures.write(run)
    return run
