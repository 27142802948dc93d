"""The CLI contract of ``askdocs index / search / eval`` (real model, real Qdrant Edge)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from askdocs.cli import cli
from tests.search.fixtures import write_docs

BATCH = [
    {"id": "q1", "question": 'Depends(scope="function")', "history": []},
    {"id": "q2", "question": "and with credentials?", "history": ["browser CORS errors"]},
    {"id": "q3", "question": "what is the capital of australia", "history": []},
]
EVAL = [
    {
        "id": "e1",
        "question": "read a websocket message as JSON",
        "kind": "paraphrase",
        "relevant": [{"path": "websockets.md", "heading": "Receive JSON"}],
        "history": [],
    },
    {
        "id": "e2",
        "question": "shm-size",
        "kind": "keyword",
        "relevant": [{"path": "deployment/docker.md", "heading": "Shared memory"}],
        "history": [],
    },
    {
        "id": "e3",
        "question": "who won the 1998 world cup",
        "kind": "unanswerable",
        "relevant": [],
        "history": [],
    },
]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    docs = write_docs(tmp_path_factory.mktemp("docs") / "docs")
    data = tmp_path_factory.mktemp("data")
    return docs, data


@pytest.fixture(scope="module")
def indexed(tree: tuple[Path, Path]) -> dict[str, object]:
    docs, data = tree
    result = run("--data-dir", str(data), "index", str(docs), "--json")
    assert result.exit_code == 0, result.output
    report: dict[str, object] = json.loads(result.stdout)
    return report


def test_index_json_reports_collection_and_counts(indexed: dict[str, object]) -> None:
    assert {"collection", "chunks", "embedded", "reused"} <= indexed.keys()
    assert str(indexed["collection"]).startswith("docs_local-all-minilm-l6-v2_")
    assert indexed["site"] == "docs"  # derived from the folder name
    assert indexed["embedded"] == indexed["chunks"]
    assert indexed["reused"] == 0


def test_reindex_embeds_nothing_then_only_the_edit(
    tree: tuple[Path, Path], indexed: dict[str, object]
) -> None:
    docs, data = tree
    again = json.loads(run("--data-dir", str(data), "index", str(docs), "--json").stdout)
    assert again["embedded"] == 0
    assert again["reused"] == indexed["chunks"]
    page = docs / "background.md"
    original = page.read_text(encoding="utf-8")
    page.write_text(original.replace("mail server", "SMTP relay"), encoding="utf-8")
    try:
        edited = json.loads(run("--data-dir", str(data), "index", str(docs), "--json").stdout)
    finally:
        page.write_text(original, encoding="utf-8")
        run("--data-dir", str(data), "index", str(docs), "--json")
    assert edited["embedded"] == 1
    assert edited["collection"] != indexed["collection"]


def test_search_json_without_site_when_one_site(
    tree: tuple[Path, Path], indexed: dict[str, object]
) -> None:
    _, data = tree
    result = run("--data-dir", str(data), "search", "receive_json", "--json", "-k", "3")
    body = json.loads(result.stdout)
    assert body["site"] == "docs"
    assert body["mode"] == "hybrid"
    assert body["match"] is True
    assert len(body["results"]) == 3
    top = body["results"][0]
    assert (top["path"], top["heading"], top["anchor"]) == (
        "websockets.md",
        "Receive JSON",
        "receive-json",
    )
    assert {"url", "title", "score", "text"} <= top.keys()


def test_search_text_output(tree: tuple[Path, Path], indexed: dict[str, object]) -> None:
    _, data = tree
    result = run("--data-dir", str(data), "search", "shm-size", "--site", "docs")
    assert result.exit_code == 0
    first = result.stdout.splitlines()[1]
    assert first.startswith(" 1. Docker — Shared memory  (deployment/docker.md#shared-memory)")


def test_search_batch_writes_one_line_per_question(
    tree: tuple[Path, Path], indexed: dict[str, object]
) -> None:
    _, data = tree
    batch = data / "batch.jsonl"
    batch.write_text("\n".join(json.dumps(q) for q in BATCH) + "\n", encoding="utf-8")
    result = run("--data-dir", str(data), "search", "--batch", str(batch), "--json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["id"] for line in lines] == ["q1", "q2", "q3"]
    for line in lines:
        assert set(line) == {"id", "match", "results"}
        assert 0 < len(line["results"]) <= 10
        for hit in line["results"]:
            assert set(hit) == {
                *("path", "heading", "slug", "section_id", "kind"),
                *("anchor", "url", "title", "score", "text"),
            }
        scores = [hit["score"] for hit in line["results"]]
        assert scores == sorted(scores, reverse=True)
    assert lines[0]["results"][0]["heading"] == "Dependency scope"
    assert lines[1]["results"][0]["path"] == "cors.md"
    assert lines[0]["match"] is True
    assert lines[2]["match"] is False


def test_eval_prints_every_figure(tree: tuple[Path, Path], indexed: dict[str, object]) -> None:
    docs, data = tree
    questions = data / "eval.jsonl"
    questions.write_text("\n".join(json.dumps(q) for q in EVAL), encoding="utf-8")
    text = run("--data-dir", str(data), "eval", str(questions), "--docs", str(docs)).stdout
    for label in ("hit@1", "hit@5", "MRR@10", "nDCG@10", "page hit@5", "match=false"):
        assert label in text
    figures = json.loads(run("--data-dir", str(data), "eval", str(questions), "--json").stdout)
    assert figures["hit@5"] == 1.0
    assert figures["page_hit@5"] == 1.0
    assert figures["abstention"] == {"unanswerable_no_match": 1.0, "answerable_match": 1.0}


def test_search_needs_query_or_batch(tree: tuple[Path, Path]) -> None:
    result = CliRunner().invoke(cli, ["--data-dir", str(tree[1]), "search"])
    assert result.exit_code == 2
    assert "QUERY or --batch" in result.output


def test_index_of_missing_folder_is_a_config_error(tmp_path: Path) -> None:
    from askdocs.errors import ConfigError

    result = CliRunner().invoke(cli, ["--data-dir", str(tmp_path), "index", str(tmp_path / "x")])
    assert isinstance(result.exception, ConfigError)


def test_search_before_indexing_says_nothing_is_indexed_or_building(tmp_path: Path) -> None:
    from askdocs.errors import IndexBuilding, NotFound
    from askdocs.index.files import exclusive
    from askdocs.sites import folder_site
    from askdocs.sites.registry import register_site

    docs = write_docs(tmp_path / "docs")
    data = tmp_path / "data"
    register_site(data, folder_site(docs, "docs"))
    result = CliRunner().invoke(cli, ["--data-dir", str(data), "search", "docker"])
    assert isinstance(result.exception, NotFound)
    assert str(result.exception) == "nothing indexed yet — run `askdocs index PATH`"
    (data / "index").mkdir(parents=True, exist_ok=True)
    with exclusive(data / "index" / ".build.lock"):  # as a running `askdocs index` holds it
        building = CliRunner().invoke(cli, ["--data-dir", str(data), "search", "docker"])
    assert isinstance(building.exception, IndexBuilding)


def test_index_without_path_indexes_the_configured_sites(tmp_path: Path) -> None:
    docs = write_docs(tmp_path / "docs")
    config = tmp_path / "askdocs.toml"
    config.write_text(f'[[sites]]\nid = "fixture"\n[[sites.roots]]\npath = "{docs}"\n')
    data = tmp_path / "data"
    result = run("--data-dir", str(data), "--config", str(config), "index", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["site"] == "fixture"
    assert report["chunks"] > 0
    assert report["embedded"] == report["chunks"]
    found = run("--data-dir", str(data), "--config", str(config), "search", "shm-size", "--json")
    assert found.exit_code == 0, found.output
    assert "deployment/docker.md" in found.stdout
