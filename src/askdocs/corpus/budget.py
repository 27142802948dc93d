"""A read's budget: the wall-clock and CPU seconds one whole read may spend parsing (issue
#27, defect 6).

Each page's parse is bounded (``corpus.parse_timeout_seconds`` of CPU), but a tree of
pathological pages made one catalog read cost 22 CPU-s and 50 s of wall time, and three
concurrent reads 107 s each. A ``ReadBudget`` bounds the read as a whole: the reader waits
for the parsing at most ``seconds`` after the read began, and the parsing that read starts
stops taking new pages once it has used ``cpu_seconds`` (this process's parsing thread plus
the parse worker). What is not parsed by then is *pending*: left out of that read, which
is marked partial, and parsed by the reads after it (``corpus.flights``). The read stops
waiting for work a little before its deadline (``ANSWER_SHARE``: a fifth of the budget, at
most 2 s), which leaves the time to scan, chunk and answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

ANSWER_SHARE = 0.2  # of the budget, kept for answering after the work (at most MAX_ANSWER)
MAX_ANSWER_SECONDS = 2.0


@dataclass(frozen=True)
class ReadBudget:
    deadline: float  # ``time.monotonic()`` by which the read answers
    cpu_seconds: float  # parsing CPU the read may start
    work_until: float  # when it stops waiting for parsing and rendering

    @classmethod
    def start(cls, seconds: float, cpu_seconds: float) -> ReadBudget:
        now = time.monotonic()
        answer = min(MAX_ANSWER_SECONDS, ANSWER_SHARE * seconds)
        return cls(now + seconds, cpu_seconds, now + seconds - answer)

    def remaining(self) -> float:
        """Seconds the read may still wait for parsing and rendering."""
        return max(0.0, self.work_until - time.monotonic())

    def time_left(self) -> float:
        """Seconds until the read must answer."""
        return max(0.0, self.deadline - time.monotonic())
