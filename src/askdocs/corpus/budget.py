"""A read's budget: the wall-clock and CPU seconds one whole read may spend parsing (issue
#27, defect 6).

Each page's parse is bounded (``corpus.parse_timeout_seconds`` of CPU), but a tree of
pathological pages made one catalog read cost 22 CPU-s and 50 s of wall time, and three
concurrent reads 107 s each. A ``ReadBudget`` bounds the read as a whole: the reader waits
for the parsing at most ``seconds`` after the read began, and the parsing that read starts
stops taking new pages once it has used ``cpu_seconds`` (this process's parsing thread plus
the parse worker). What is not parsed by then is *pending*: left out of that read, which
is marked partial, and parsed by the reads after it (``corpus.flights``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class ReadBudget:
    deadline: float  # ``time.monotonic()`` by which the read answers
    cpu_seconds: float  # parsing CPU the read may start

    @classmethod
    def start(cls, seconds: float, cpu_seconds: float) -> ReadBudget:
        return cls(time.monotonic() + seconds, cpu_seconds)

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def spent(self) -> bool:
        return self.remaining() <= 0.0
