"""``askdocs serve PATH`` and ``askdocs index PATH --site x`` + ``askdocs serve``, as real
processes on free loopback ports over a real docs tree (tests/data/httpx-docs)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote

import httpx
import pytest

from tests.conftest import HTTPX_DOCS
from tests.support.process import clean_env, free_port, running

ANSWER_TIMEOUT = 120.0
TREE_FILES = {p.relative_to(HTTPX_DOCS).as_posix() for p in HTTPX_DOCS.rglob("*.md")}
QUESTION = "How do I route requests through an HTTP proxy?"

pytestmark = pytest.mark.slow


def askdocs(data: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "askdocs", "--data-dir", str(data), *args]


@contextmanager
def serving(data: Path, *args: str) -> Iterator[str]:
    port = free_port()
    command = askdocs(data, "serve", *args, "--port", str(port))
    log = data.parent / f"serve-{port}.log"
    with running(command, clean_env(), port, log, 60.0):
        yield f"http://127.0.0.1:{port}"


def search(url: str, **params: str) -> dict[str, object]:
    """Poll /api/search until the background index answers (keyword-only comes first)."""
    deadline = time.monotonic() + ANSWER_TIMEOUT
    while True:
        response = httpx.get(url + "/api/search", params={"q": "proxy", **params}, timeout=30)
        if response.status_code == 200 or time.monotonic() > deadline:
            assert response.status_code == 200, response.text
            body: dict[str, object] = response.json()
            return body
        assert response.status_code == 503, response.text  # not ready yet: retry
        time.sleep(0.2)


def hit_paths(body: dict[str, object]) -> list[str]:
    hits = body["hits"]
    assert isinstance(hits, list)
    return [str(hit["path"]) for hit in hits]


def test_serve_path_answers_search_and_ask_from_that_tree(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with serving(data, str(HTTPX_DOCS)) as url:
        body = search(url)
        assert body["site"] == "httpx-docs"  # the folder's name
        paths = hit_paths(body)
        assert paths
        assert set(paths) <= TREE_FILES
        assert "advanced/proxies.md" in paths
        question = {"token": "", "messages": [{"role": "user", "content": QUESTION}]}
        reply = httpx.post(url + "/api/ask", json=question, timeout=60)
        assert reply.status_code == 200, reply.text
        sources = json.loads(unquote(reply.headers["x-ask-sources"]))
        pages = {source["url"].split("#")[0].removeprefix("/docs/") + ".md" for source in sources}
        assert pages
        assert pages <= TREE_FILES
        assert "advanced/proxies.md" in pages
        assert reply.text.strip()


def test_a_site_indexed_by_the_cli_is_served_by_serve(tmp_path: Path) -> None:
    data = tmp_path / "data"
    indexed = subprocess.run(
        askdocs(data, "index", str(HTTPX_DOCS), "--site", "x", "--json", "-q"),
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=300,
        check=False,
    )
    assert indexed.returncode == 0, indexed.stderr
    assert json.loads(indexed.stdout)["site"] == "x"
    with serving(data) as url:
        body = search(url)
        assert body["site"] == "x"
        assert body["mode"] == "hybrid"  # the CLI already embedded it
        assert "advanced/proxies.md" in hit_paths(body)


def test_serve_refuses_a_missing_folder_and_a_bad_site_id(tmp_path: Path) -> None:
    for args, message in [
        ([str(tmp_path / "nope")], f"docs folder {tmp_path / 'nope'} does not exist"),
        (["--site", f"Bad Id={HTTPX_DOCS}"], "'Bad Id' is not a valid site id"),
        (["--site", "nopath"], "expected ID=PATH"),
    ]:
        done = subprocess.run(
            [*askdocs(tmp_path / "data", "serve", *args), "--port", str(free_port())],
            capture_output=True,
            text=True,
            env=clean_env(),
            timeout=60,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert message in done.stderr
