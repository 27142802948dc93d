"""Memory of ``askdocs serve`` as people run it: default settings, indexer on.

usage: python bench/serve_memory.py [--docs DIR] [--before-src SRC] [--after-src SRC]
                                    [--searches 200] [--reps 1] [--after-env K=V ...]
                                    [--before-env K=V ...] [--json]

For each source tree (``--before-src``, an older commit's ``src``, put first on
``PYTHONPATH``; and this checkout's, or ``--after-src``) and each repetition, in alternating
order: a fresh data dir, ``askdocs serve [DOCS]`` with nothing but ``--data-dir`` and
``--port`` set (no ``DOCS``: askdocs's own documentation), then

1. **first**: wait until the background indexer has built the site's full (hybrid) index
   (``/readyz`` ready, no site building, a search answers in hybrid mode), run
   ``--searches`` searches one after the other, read ``VmRSS`` and ``VmHWM`` of the server
   process and the ``VmRSS`` of its process tree (parse and render workers included);
2. **restart**: stop it (SIGTERM), start it again on the same data dir, wait the same way,
   run the same searches and read the same figures.

The searches cycle through ``--questions`` (a JSONL question set; default: a fixed list of
questions about askdocs) with the query cache on, as shipped. The figures are the ones people
see; the CPU load of the machine changes how long indexing takes, not what stays resident.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from askdocs.search.evalset import parse_questions
from throughput import REPO, free_port, memory_of

OWN_QUESTIONS = (
    "How do I add a second documentation site?",
    "which port does the server listen on",
    "run askdocs behind a reverse proxy",
    "how is hybrid search ranked",
    "rate limits for Ask AI",
    "use Gemini for embeddings",
    "what does the MCP server offer",
    "docker compose with postgres and redis",
    "how do I turn off Ask AI",
    "where are the indexes stored",
)


@dataclass(frozen=True)
class Tree:
    name: str
    src: Path
    env: dict[str, str]


def serve(tree: Tree, data_dir: Path, docs: Path | None) -> tuple[subprocess.Popen[bytes], str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")} | tree.env
    env["PYTHONPATH"] = str(tree.src)
    port = free_port()
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port)] + ([str(docs)] if docs else [])
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    return process, f"http://127.0.0.1:{port}"


def indexed(base: str) -> str | None:
    """The site id once the server's first site is ready, idle and searched in hybrid mode."""
    try:
        ready = httpx.get(base + "/readyz", timeout=10)
        sites = ready.json().get("sites", [])
        if ready.status_code != 200 or not sites or any(s["building"] for s in sites):
            return None
        site = str(sites[0]["site"])
        found = httpx.get(base + "/api/search", params={"q": "install", "site": site}, timeout=60)
    except (httpx.HTTPError, ValueError):
        return None
    return site if found.status_code == 200 and found.json()["mode"] == "hybrid" else None


def wait_indexed(process: subprocess.Popen[bytes], base: str, timeout: float) -> str:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if process.poll() is not None:
            raise SystemExit(f"askdocs serve exited with {process.returncode}")
        site = indexed(base)
        if site is not None:
            return site
        time.sleep(2)
    raise SystemExit(f"not indexed after {timeout} s")


def phase(tree: Tree, data_dir: Path, docs: Path | None, questions: list[str], n: int) -> dict:
    process, base = serve(tree, data_dir, docs)
    try:
        began = time.monotonic()
        site = wait_indexed(process, base, 3600)
        ready_s = time.monotonic() - began
        time.sleep(2)  # the indexer's check ends (and releases) right after the build
        with httpx.Client(timeout=60) as client:
            for i in range(n):
                params = {"q": questions[i % len(questions)], "site": site}
                client.get(base + "/api/search", params=params).raise_for_status()
        return {"indexed_s": round(ready_s, 1), **memory_of(process.pid)}
    finally:
        process.terminate()
        process.wait(30)


def run(tree: Tree, docs: Path | None, questions: list[str], n: int) -> dict[str, dict]:
    with tempfile.TemporaryDirectory(prefix=f"askdocs-memory-{tree.name}-") as scratch:
        data_dir = Path(scratch)
        first = phase(tree, data_dir, docs, questions, n)
        restart = phase(tree, data_dir, docs, questions, n)
    return {"first": first, "restart": restart}


def load_questions(path: Path | None) -> list[str]:
    if path is None:
        return list(OWN_QUESTIONS)
    lines = path.read_text(encoding="utf-8").splitlines()
    return [q.question for q in parse_questions(lines, str(path))]


def summary(runs: list[dict[str, dict]]) -> dict[str, dict[str, float]]:
    """Per phase and figure: the median over the repetitions."""
    out: dict[str, dict[str, float]] = {}
    for name in ("first", "restart"):
        keys = runs[0][name].keys()
        out[name] = {k: statistics.median(float(r[name][k]) for r in runs) for k in keys}
    return out


def env_of(pairs: list[str]) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, help="docs folder to serve (default: own docs)")
    parser.add_argument("--questions", type=Path, help="JSONL question set to search")
    parser.add_argument("--before-src", type=Path, help="an older commit's src folder")
    parser.add_argument("--after-src", type=Path, default=REPO / "src")
    parser.add_argument("--before-env", nargs="*", default=[], help="KEY=VALUE for before")
    parser.add_argument("--after-env", nargs="*", default=[], help="KEY=VALUE for after")
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    questions = load_questions(args.questions)
    trees = [Tree("after", args.after_src, env_of(args.after_env))]
    if args.before_src:
        trees.insert(0, Tree("before", args.before_src, env_of(args.before_env)))
    runs: dict[str, list[dict[str, dict]]] = {tree.name: [] for tree in trees}
    for rep in range(args.reps):
        for tree in trees if rep % 2 == 0 else trees[::-1]:
            runs[tree.name].append(run(tree, args.docs, questions, args.searches))
            print(tree.name, json.dumps(runs[tree.name][-1]), file=sys.stderr, flush=True)
    report = {name: summary(found) for name, found in runs.items()}
    print(json.dumps(report, indent=2) if args.json else text(report))


def text(report: dict[str, dict[str, dict[str, float]]]) -> str:
    lines = ["tree     phase     indexed s  VmRSS MB  VmHWM MB  tree VmRSS MB"]
    for name, phases in report.items():
        for phase_name, row in phases.items():
            lines.append(
                f"{name:<8} {phase_name:<9} {row['indexed_s']:>9} {row['VmRSS']:>9} "
                f"{row['VmHWM']:>9} {row['tree_VmRSS']:>14}"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
