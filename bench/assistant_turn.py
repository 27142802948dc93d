"""Latency of one assistant turn against a running server: time to first frame, and the
turn's split between retrieval (docs injected per turn) and the model.

Starts a scripted OpenAI-compatible model on 127.0.0.1 (``--piece-delay`` seconds between
its ``--pieces`` text pieces), then a real ``askdocs serve`` over askdocs's own docs with the
bundled embedding model; waits for ``/readyz``; creates a user and a token with the CLI;
opens a thread; and sends ``--turns`` chat turns, one at a time.

    .venv/bin/python bench/assistant_turn.py [--turns 10] [--pieces 20] [--piece-delay 0.02]

Prints per-turn figures and a JSON summary (medians and maxima, in milliseconds).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.assistant.scripted import Script, model_server

QUESTIONS = [
    "How do I add a second documentation site?",
    "What does the assistant do when the docs index is still building?",
    "How do I create a user and a token for the assistant?",
    "How does hybrid search combine keyword and semantic results?",
    "Which settings bound the assistant's reply length?",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def askdocs(env: dict[str, str], data_dir: Path, *args: str) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), *args]
    return subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout


def wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if process.poll() is not None:
            raise SystemExit(f"askdocs serve exited with {process.returncode}")
        try:
            if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                return time.perf_counter() - started
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not become ready in time")


def one_turn(base: str, headers: dict[str, str], thread: str, question: str) -> dict[str, Any]:
    body = {"threadId": thread, "message": question}
    started = time.perf_counter()
    first_frame = first_text = None
    finish: dict[str, Any] = {}
    with httpx.stream(
        "POST", base + "/api/v1/assistant/chat", json=body, headers=headers, timeout=120
    ) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if not line.startswith("data: "):
                continue
            now = time.perf_counter() - started
            first_frame = first_frame if first_frame is not None else now
            if '"text-delta"' in line and first_text is None:
                first_text = now
            if line != "data: [DONE]" and '"finish"' in line:
                finish = json.loads(line[6:])
    total = time.perf_counter() - started
    timings = finish.get("messageMetadata", {}).get("timings", {})
    return {
        "firstFrameMs": round(1000 * (first_frame or total), 1),
        "firstTextMs": round(1000 * (first_text or total), 1),
        "totalMs": round(1000 * total, 1),
        "retrievalMs": timings.get("retrievalMs"),
        "modelMs": timings.get("modelMs"),
        "finishReason": finish.get("finishReason"),
    }


def summarise(turns: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"turns": len(turns)}
    for key in ("firstFrameMs", "firstTextMs", "retrievalMs", "modelMs", "totalMs"):
        values = [float(t[key]) for t in turns if t[key] is not None]
        if values:
            out[key] = {"p50": round(statistics.median(values), 1), "max": round(max(values), 1)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--pieces", type=int, default=20)
    parser.add_argument("--piece-delay", type=float, default=0.02)
    parser.add_argument("--ready-timeout", type=float, default=600.0)
    args = parser.parse_args()
    with model_server() as models, tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("ASKDOCS_")}
        env.update(
            {
                "ASKDOCS_SERVER__PORT": str(port),
                "ASKDOCS_CHAT__PROVIDER": "openai-compatible",
                "ASKDOCS_CHAT__MODEL": "scripted",
                "ASKDOCS_CHAT__BASE_URL": models.url,
            }
        )
        pieces = [f"word{n} " for n in range(args.pieces)]
        models.script(*[Script(pieces, delay=args.piece_delay) for _ in range(args.turns)])
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "serve"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            ready = wait_ready(base, server, args.ready_timeout)
            askdocs(env, data_dir, "users", "create", "--email", "bench@example.com")
            token = askdocs(env, data_dir, "token", "create", "--email", "bench@example.com")
            headers = {"Authorization": f"Bearer {token.strip().splitlines()[-1]}"}
            created = httpx.post(base + "/api/v1/assistant/threads", json={}, headers=headers)
            thread = created.json()["id"]
            turns = []
            for n in range(args.turns):
                turn = one_turn(base, headers, thread, QUESTIONS[n % len(QUESTIONS)])
                print(json.dumps(turn))
                turns.append(turn)
        finally:
            server.terminate()
            server.wait(30)
    summary = summarise(turns)
    summary["readySeconds"] = round(ready, 1)
    summary["modelStream"] = {"pieces": args.pieces, "pieceDelaySeconds": args.piece_delay}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
