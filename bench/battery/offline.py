"""Battery categories that drive the engine directly: resumable builds over a hosted
(scripted) embedder, and collection ownership on both stores."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from bench.battery.categories import Mode, Result
from bench.battery.faults import kill9_rebuild, redis_faults, shutdown
from qdrant_client import QdrantClient, models
from tests.embeddings.conftest import openai_script
from tests.embeddings.scripted_server import Received, Reply, ScriptedServer
from tests.index.helpers import HashingEmbedder, corpus

from askdocs.errors import AskDocsError
from askdocs.index import IndexStore, build_index
from askdocs.index.edge import EdgeBackend
from askdocs.index.server import QdrantBackend
from askdocs.search.lexical import document_vector
from askdocs.service import AskDocs
from askdocs.settings import Settings


def _docs(folder: Path, pages: int) -> Path:
    for n in range(pages):
        body = "\n\n".join(
            f"## Part {k}\n\nPage {n} part {k} explains topic {n * 7 + k}." for k in range(4)
        )
        (folder / f"page-{n}.md").parent.mkdir(parents=True, exist_ok=True)
        (folder / f"page-{n}.md").write_text(f"# Page {n}\n\n{body}\n")
    return folder


def resume(mode: Mode) -> Result:
    """A cold build on a hosted embedder that starts answering 429 at 50%: the build fails,
    and the next one embeds only the remaining half."""
    result = Result("resume")
    ok = openai_script(16)
    state = {"texts": 0, "limit": 0}

    def script(request: Received) -> Reply:
        assert isinstance(request.body, dict)
        texts = len(request.body["input"])
        if state["texts"] + texts > state["limit"]:
            return Reply(429, {"error": {"message": "rate limited"}})
        state["texts"] += texts
        return ok(request)

    server = ScriptedServer(script).start()
    with tempfile.TemporaryDirectory() as tmp:
        docs = _docs(Path(tmp) / "docs", 40 if mode.full else 12)
        settings = Settings.model_validate(
            {
                "data_dir": Path(tmp) / "data",
                "sites": [{"id": "s", "roots": [{"path": str(docs)}]}],
                "embedding": {
                    "provider": "openai-compatible", "model": "m", "dimension": 16,
                    "base_url": f"{server.url}/v1", "batch_size": 4, "max_retries": 0,
                },
            }
        )  # fmt: skip
        total = len(AskDocs(settings).snapshot("s").chunks)
        state["limit"] = total // 2
        first = AskDocs(settings)
        try:
            first.index("s")
            result.fail("the rate-limited build did not fail")
        except AskDocsError:
            pass
        finally:
            first.close()
        embedded_first = state["texts"]
        state["limit"] = 10**9
        second = AskDocs(settings)
        try:
            report = second.index("s")
        finally:
            second.close()
    server.stop()
    result.probes = 2
    remaining = total - embedded_first
    if report.embedded != remaining or report.chunks != total:
        result.fail(f"second run embedded {report.embedded}, expected {remaining}")
    result.figure = (
        f"chunks={total} embedded_before_failure={embedded_first} "
        f"embedded_on_resume={report.embedded}"
    )
    return result


def ownership(mode: Mode) -> Result:
    """Foreign collections (``docs_other`` and an askdocs-looking name) survive three builds
    on qdrant-client's local mode (the Qdrant-server backend) and on Qdrant Edge."""
    result = Result("ownership")
    with tempfile.TemporaryDirectory() as tmp:
        client = QdrantClient(path=str(Path(tmp) / "qdrant"))
        vectors = {"v": models.VectorParams(size=4, distance=models.Distance.COSINE)}
        foreign = ["docs_other", "docs_other-model_0123abcd_0123456789ab"]
        for name in foreign:
            client.create_collection(name, vectors_config=vectors)
        root = Path(tmp) / "edge"
        (root / "collections" / "docs_other").mkdir(parents=True)
        stores = [
            IndexStore(QdrantBackend(client, Path(tmp) / "index")),
            IndexStore(EdgeBackend(root)),
        ]
        for store in stores:
            for version in range(3):
                edited = [replace(c, text=f"{c.text} v{version}") for c in corpus("docs", 3, 2)]
                build_index(store, HashingEmbedder(), "docs", edited, sparse=document_vector)
        names = {c.name for c in client.get_collections().collections}
        result.probes = 3
        for name in foreign:
            if name not in names:
                result.fail(f"{name} dropped on the Qdrant-server backend")
        if not (root / "collections" / "docs_other").is_dir():
            result.fail("docs_other dropped on Qdrant Edge")
        for store in stores:
            store.close()
    result.figure = "foreign_collections_kept=3/3"
    return result


OFFLINE_CATEGORIES = [resume, ownership, kill9_rebuild, redis_faults, shutdown]
