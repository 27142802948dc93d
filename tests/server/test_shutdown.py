"""Defect 9 (part) of the hardening battery: SIGTERM stops ``askdocs serve`` within 3 s even
while the background indexer is in the middle of an embedding batch (here a hosted
embedder that never answers), and the next run resumes what was embedded."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

from tests.embeddings.scripted_server import Reply, ScriptedServer
from tests.server.conftest import write_docs
from tests.server.process import serving

SHUTDOWN_LIMIT = 3.0


def test_sigterm_mid_batch_stops_serve_within_3s(tmp_path: Path) -> None:
    embedder = ScriptedServer(lambda _: Reply(mode="hang")).start()
    docs = write_docs(tmp_path / "docs")
    env = {
        "ASKDOCS_SITES": json.dumps([{"id": "acme", "roots": [{"path": str(docs)}]}]),
        "ASKDOCS_EMBEDDING__PROVIDER": "openai-compatible",
        "ASKDOCS_EMBEDDING__MODEL": "m",
        "ASKDOCS_EMBEDDING__BASE_URL": f"{embedder.url}/v1",
        "ASKDOCS_EMBEDDING__DIMENSION": "8",
        "ASKDOCS_INDEX__FIRST_RUN_DELAY_SECONDS": "0",
    }
    try:
        with serving(tmp_path / "data", env) as server:
            deadline = time.monotonic() + 60
            while not embedder.received and time.monotonic() < deadline:
                time.sleep(0.05)  # polling for the batch to be in flight
            assert embedder.received, "the indexer never sent a batch"
            started = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            server.process.wait(timeout=30)
            elapsed = time.monotonic() - started
    finally:
        embedder.stop()
    assert elapsed < SHUTDOWN_LIMIT, f"serve took {elapsed:.1f} s to stop"
