"""Cold-index CPU of an older source tree against this checkout, interleaved in one run.

usage: python bench/index_cpu.py --before-src OLD_SRC [--docs DIR] [--reps 2]
                                 [--variants local local-int8] [--json]

Each repetition runs, one after the other and in alternating order, one child process per
variant: ``AskDocs.index`` of ``--docs`` into a fresh data dir (reading, chunking, loading
the model, embedding every chunk, BM25, writing the collection). *before* runs the older
tree (``PYTHONPATH``) with its default provider; *after* runs this checkout once per
``--variants`` provider. The compiled model files of this checkout are kept in one folder
for all its runs (``embedding.cache_dir``), as on every start after the first; the older
tree builds its graph in memory on every start, as it did.

The figure is each child's CPU time (user + system, ``getrusage(RUSAGE_CHILDREN)``): on a
machine shared with other jobs it moves far less than wall time. Medians over the
repetitions and after/before ratios are printed, with the load average seen.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shared_data import require, shared

REPO = Path(__file__).resolve().parents[1]
DOCS = shared("corpora", "fastapi-docs")
CHILD = """
import sys
from pathlib import Path
from askdocs.service import AskDocs
from askdocs.settings import load_settings
from askdocs.sites import folder_site
service = AskDocs(load_settings(data_dir=Path(sys.argv[1])), [folder_site(Path(sys.argv[2]), "b")])
report = service.index("b")
print(getattr(report, "embedded", -1))
service.close()
"""


def cold(src: Path, docs: Path, provider: str | None, models: Path) -> dict[str, float]:
    """One cold index in a child; its CPU and wall seconds and chunks embedded."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")}
    env["PYTHONPATH"] = str(src)
    if provider is not None:
        env["ASKDOCS_EMBEDDING__PROVIDER"] = provider
        env["ASKDOCS_EMBEDDING__CACHE_DIR"] = str(models)
    with tempfile.TemporaryDirectory(prefix="askdocs-index-cpu-") as data_dir:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", CHILD, data_dir, str(docs)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    embedded = int(done.stdout.strip().splitlines()[-1])
    return {"cpu_s": round(cpu, 1), "wall_s": round(wall, 1), "embedded": embedded}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-src", type=Path, required=True)
    parser.add_argument("--docs", type=Path, default=DOCS)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--variants", nargs="+", default=["local", "local-int8"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    require(args.docs)
    models = Path(tempfile.mkdtemp(prefix="askdocs-index-cpu-models-"))
    for variant in args.variants:  # compile once, untimed (every later start only opens it)
        cold(REPO / "src", REPO / "tests" / "data" / "fastapi-docs" / "tutorial", variant, models)
    runs: dict[str, list[dict[str, float]]] = {}
    loads: list[float] = []
    jobs: list[tuple[str, Path, str | None]] = [("before", args.before_src, None)]
    jobs += [(f"after-{v}", REPO / "src", v) for v in args.variants]
    for rep in range(args.reps):
        for name, src, provider in jobs if rep % 2 == 0 else jobs[::-1]:
            runs.setdefault(name, []).append(cold(src, args.docs, provider, models))
            loads.append(os.getloadavg()[0])
    base = statistics.median(r["cpu_s"] for r in runs["before"])
    rows = {
        name: {
            "cpu_s": statistics.median(r["cpu_s"] for r in found),
            "wall_s": statistics.median(r["wall_s"] for r in found),
            "embedded": found[0]["embedded"],
            "cpu_ratio": round(statistics.median(r["cpu_s"] for r in found) / base, 2),
            "runs_cpu_s": [r["cpu_s"] for r in found],
        }
        for name, found in runs.items()
    }
    report = {"docs": str(args.docs), "load_avg": round(statistics.fmean(loads), 1), **rows}
    print(json.dumps(report, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
