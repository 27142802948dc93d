"""The searching child of ``bench/search_latency.py``: ``AskDocs.search`` in a loop over the
fastapi dev-set questions, reporting latency, CPU per search and this process's own memory.

It imports only what every askdocs version has (the service, settings, ``folder_site``, the
question parser), so ``search_latency.py --compare-src`` can run it over an older source
tree on the same collection.

    python bench/search_child.py DATA_DIR QUERIES PROVIDER CACHE(0|1)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from askdocs.search.evalset import parse_questions
from askdocs.service import AskDocs
from askdocs.settings import Settings, load_settings
from askdocs.sites import folder_site
from shared_data import shared

DOCS = shared("corpora", "fastapi-docs")
QUESTIONS = shared("eval", "fastapi-docs-dev.jsonl")
SITE = "synth"


def settings_for(data_dir: Path, provider: str, cache: bool) -> Settings:
    embedding: dict[str, object] = {"provider": provider, "query_cache_size": 1024 if cache else 0}
    try:
        return load_settings(data_dir=data_dir, embedding=embedding)
    except Exception:  # an askdocs version without the query cache (nothing to turn off)
        embedding.pop("query_cache_size")
        return load_settings(data_dir=data_dir, embedding=embedding)


def serve(data_dir: Path, queries: int, provider: str, cache: bool) -> dict[str, float]:
    """Child process: search ``queries`` times, report latency, CPU and own memory."""
    questions = parse_questions(QUESTIONS.read_text(encoding="utf-8").splitlines())
    settings = settings_for(data_dir, provider, cache)
    service = AskDocs(settings, [folder_site(DOCS, SITE)])
    for q in questions[:10]:
        service.search(q.question, site=SITE, history=q.history)  # warm-up
    times, cpu = [], []
    for i in range(queries):
        q = questions[i % len(questions)]
        started, started_cpu = time.perf_counter(), time.process_time()
        service.search(q.question, site=SITE, history=q.history)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    times.sort()
    memory = own_memory()
    service.close()
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
        "mean_ms": round(statistics.fmean(times), 2),
        "cpu_p50_ms": round(statistics.median(cpu), 2),
        **memory,
    }


def own_memory() -> dict[str, float]:
    """This process's peak (VmHWM) and current (VmRSS) resident memory in MB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return {
        "peak_mb": round(int(fields["VmHWM"].split()[0]) / 1024, 1),
        "steady_mb": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
    }


if __name__ == "__main__":
    data, count, kind, cached = sys.argv[1:5]
    print(json.dumps(serve(Path(data), int(count), kind, cached == "1")))
