"""Battery category ``pathological`` (issue #27, defect 6): the catalog read of a tree of
pathological pages, timed itself.

The 17 cmark pathological inputs plus four that are slow to render (image openers, image
links, headings) are dropped into the docs root at ``size`` characters (1,000,000 in full
mode, near ``corpus.max_markdown_bytes``; 150,000 in short mode). Then, while ``/healthz``
is sampled: one catalog read, timed (wall clock, and the CPU of the server and its workers
over it); three concurrent reads, timed; reads until the catalog is whole again. Fails when
a read takes longer than ``reader.read_budget_seconds`` plus the documented allowance, or
uses more CPU than the read budget allows, a read is not 200 (a partial answer is fine),
the catalog never becomes whole, or ``/healthz`` p95 is over 100 ms.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import httpx
from bench.battery.categories import HealthSampler, Mode, Result, p95
from bench.battery.rig import Rig
from tests.reader.pathological import CASES, sized

from askdocs.settings import CorpusSettings, ReaderSettings

EXTRA = {
    "image openers": lambda n: "![a" * n,
    "image link openers": lambda n: "![[a](" * n,
    "images and emphasis": lambda n: "![*a_](" * n,
    "headings": lambda n: "".join(f"## H{i}\n\nx\n\n" for i in range(n)),
}
READ = ReaderSettings()  # the rig runs with the defaults
WALL_ALLOWANCE = 2.0  # the scan and the chunking after the deadline (docs/reader-api.md)
CONVERGE = 300.0  # seconds until the catalog is whole again (a bound)
_TICK = os.sysconf("SC_CLK_TCK")


def cpu_budget() -> float:
    """CPU one read may cost: the parsing it starts, one page over it, the renders."""
    corpus = CorpusSettings()
    renders = READ.render_workers * READ.render_timeout_seconds
    return READ.read_budget_cpu_seconds + corpus.parse_timeout_seconds + renders


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its descendants, reaped ones included."""
    total, children = 0.0, _children()
    stack = [pid]
    while stack:
        current = stack.pop()
        fields = _stat(current)
        if fields:
            total += sum(int(fields[i]) for i in (11, 12, 13, 14)) / _TICK
        stack.extend(children.get(current, []))
    return total


def _stat(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _children() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))):
            found.setdefault(int(fields[1]), []).append(int(entry))
    return found


def pathological(rig: Rig, mode: Mode) -> Result:
    result = Result("pathological")
    size = 1_000_000 if mode.full else 150_000
    cases = [*CASES.values(), *EXTRA.values()]
    for n, case in enumerate(cases):
        (rig.docs / f"patho-{n}.md").write_text(f"# Case {n}\n\n" + sized(case, size))
    limit = READ.read_budget_seconds + WALL_ALLOWANCE
    with HealthSampler(rig.url) as sampler:
        before = tree_cpu(rig.pid)
        first, first_partial = _read(rig, result)
        spent = tree_cpu(rig.pid) - before
        concurrent = _concurrent(rig, result, 3)
        converged = _converge(rig, result)
    health = p95(sampler.samples) * 1000
    slowest = max([first, *concurrent])
    if slowest > limit:
        result.fail(f"a catalog read took {slowest:.1f} s (budget {limit:g} s)")
    if spent > cpu_budget():
        result.fail(f"the first read cost {spent:.1f} CPU-s (budget {cpu_budget():g})")
    if health > 100:
        result.fail(f"healthz p95 {health:.0f} ms")
    result.figure = (
        f"pages={len(cases)}x{size // 1000}k read_s={first:.1f} partial={first_partial} "
        f"cpu_s={spent:.1f} concurrent_max_s={max(concurrent):.1f} whole_after_s={converged:.0f} "
        f"healthz_p95_ms={health:.0f}"
    )
    return result


def _read(rig: Rig, result: Result) -> tuple[float, bool]:
    started = time.monotonic()
    answer = httpx.get(f"{rig.url}/api/docs/catalog", params={"locale": "en"}, timeout=600)
    took = time.monotonic() - started
    result.probes += 1
    if answer.status_code != 200:
        result.fail(f"catalog -> {answer.status_code}")
        return took, False
    return took, bool(answer.json().get("partial"))


def _concurrent(rig: Rig, result: Result, count: int) -> list[float]:
    times: list[float] = []

    def one() -> None:
        times.append(_read(rig, result)[0])

    readers = [threading.Thread(target=one) for _ in range(count)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    return times


def _converge(rig: Rig, result: Result) -> float:
    """Seconds until a read answers the whole catalog (the pending pages parsed, or bad
    files), and one article of each pathological page answers without a 5xx other than
    the reader's own 503."""
    started = time.monotonic()
    while time.monotonic() - started < CONVERGE:
        if not _read(rig, result)[1]:
            break
        time.sleep(0.5)  # polling: the background parsing goes on between reads
    else:
        result.fail(f"the catalog was still partial after {CONVERGE:g} s")
    waited = time.monotonic() - started
    with httpx.Client(base_url=rig.url, timeout=600) as http:
        for n in range(len(CASES) + len(EXTRA)):
            answer = http.get(f"/api/docs/articles/patho-{n}", params={"locale": "en"})
            result.probes += 1
            if answer.status_code >= 500 and answer.status_code != 503:
                result.fail(f"article patho-{n} -> {answer.status_code}")
    return waited
