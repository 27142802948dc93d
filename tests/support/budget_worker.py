"""A worker for tests/test_workers_budget.py: ``("sleep", s)`` waits s seconds using no CPU,
``("spin", s)`` burns s seconds of CPU, then each answers ``("ok", what)``."""

from __future__ import annotations

import time

from askdocs.workers import Answer, serve


def answer(job: object) -> Answer:
    assert isinstance(job, tuple)
    what, seconds = job
    if what == "sleep":
        time.sleep(seconds)
    else:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass
    return "ok", what


if __name__ == "__main__":
    serve(answer)
