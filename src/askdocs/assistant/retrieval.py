"""Bounded documentation lookups for the assistant (seed 000 "The search tool never holds a
turn"): one search on a worker thread, abandoned when its time is up.

The engine reads the last complete collection and never waits on the indexer's lock; this
module adds the clock, and a ``StopToken`` with the same deadline, so a search abandoned
at its deadline also stops its work at the next step. A lookup ends as ``ok``,
``timeout``, ``still_indexing`` (no complete collection yet) or ``unavailable`` (anything
else that failed).
"""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass
from typing import Literal

import anyio

from askdocs.blocking import BlockingPool
from askdocs.errors import AskDocsError, DeadlineExceeded, IndexBuilding
from askdocs.search.query import bounded_query
from askdocs.search.stop import StopToken
from askdocs.service import AskDocs
from askdocs.types import Hit, SearchResult

log = logging.getLogger(__name__)
LookupStatus = Literal["ok", "timeout", "still_indexing", "unavailable"]


@dataclass(frozen=True)
class Lookup:
    status: LookupStatus
    result: SearchResult | None
    reason: str | None
    seconds: float

    @property
    def hits(self) -> tuple[Hit, ...]:
        return self.result.hits if self.result is not None else ()


async def lookup(
    service: AskDocs,
    pool: BlockingPool,
    query: str,
    *,
    site: str | None,
    limit: int,
    timeout: float,
) -> Lookup:
    """Search ``site`` for ``query`` (cut to the query bound) within ``timeout`` seconds, on
    ``pool``: a search abandoned at its deadline keeps its pool thread until its next step."""
    started = time.perf_counter()
    stop = StopToken(time.monotonic() + timeout)  # the abandoned search stops at its next step
    search = functools.partial(
        service.search, bounded_query(query), site=site, limit=limit, stop=stop
    )
    status: LookupStatus = "timeout"
    reason: str | None = f"the documentation search took longer than {timeout:g} s"
    result: SearchResult | None = None
    with anyio.move_on_after(timeout):
        try:
            result = await pool.run(search)
            status, reason = "ok", None
        except IndexBuilding as exc:
            status, reason = "still_indexing", exc.message
        except DeadlineExceeded:
            pass  # its own check saw the deadline first: a timeout all the same
        except AskDocsError as exc:
            status, reason = "unavailable", exc.message
        except Exception as exc:
            log.warning("documentation search failed: %r", exc)
            status, reason = "unavailable", "the documentation search failed"
    if status == "timeout":
        stop.stop(DeadlineExceeded(reason or "the documentation search timed out"))
    return Lookup(status, result, reason, time.perf_counter() - started)
