"""MkDocs includes resolve inside the docs root only, through the safe read; everything else
is dropped and reported, and ``askdocs corpus`` shows it (text and --json)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from askdocs.cli import cli
from askdocs.corpus.dialects.includes import candidates
from tests.corpus.conftest import read, write


def build(docs: Path, tmp_path: Path) -> None:
    write(tmp_path, "mkdocs.yml", "site_name: x\n")
    write(tmp_path, "secret.md", "CANARY outside the root\n")
    write(docs, "includes/shared.md", "Shared words from the include.\n")
    write(docs, "includes/loop.md", '{% include-markdown "includes/loop.md" %}\n')
    write(docs, "parts/start-end.md", "skip this <!--start-->kept part<!--end--> skip too\n")
    write(
        docs,
        "guide/page.md",
        "# Page\n\n"
        '{% include-markdown "includes/shared.md" %}\n\n'
        '--8<-- "content/parts/start-end.md"\n\n'
        '{% include-markdown "../parts/start-end.md" start="<!--start-->" end="<!--end-->" %}\n\n'
        '{% include-markdown "../../secret.md" %}\n\n'
        "{* ../../docs_src/app.py hl[2] *}\n\n"
        '{% include-markdown "includes/loop.md" %}\n\n'
        '{% include-markdown "includes/linked.md" %}\n\n'
        '```\n{% include-markdown "includes/shared.md" %}\n```\n',
    )
    os.symlink(tmp_path / "secret.md", docs / "includes" / "linked.md")


def test_includes_resolve_inside_the_root_only(docs: Path, tmp_path: Path) -> None:
    build(docs, tmp_path)
    snapshot = read(docs)
    page = next(p for p in snapshot.pages if p.path == "guide/page.md")
    text = page.sections[0].text
    assert "Shared words from the include." in text
    assert "kept part" in text
    assert "CANARY" not in page.body
    assert '{% include-markdown "includes/shared.md" %}' in text  # inside a fence: code
    problems = dict(snapshot.diagnostics)["guide/page.md"].unknown
    assert [what for _, what in problems] == [
        "include '../../secret.md' not resolved",
        "include '../../docs_src/app.py' not resolved",
        "include 'includes/loop.md' not resolved",
        "include 'includes/linked.md' not resolved",
    ]


def test_include_candidates_never_leave_the_root() -> None:
    assert candidates("../x.md", "a/b/page.md") == ["a/x.md", "x.md"]
    assert candidates("../../../x.md", "a/page.md") == ["x.md"]
    assert candidates("content/a/b.md", "p.md") == ["content/a/b.md", "a/b.md", "b.md"]
    assert candidates("https://example.com/x.md", "p.md") == []


def test_corpus_command_reports_dialect_and_what_it_did_not_understand(
    docs: Path, tmp_path: Path, data_dir: Path
) -> None:
    build(docs, tmp_path)
    write(docs, "odd.md", "# Odd\n\n/// frobnicate\nBody.\n///\n")
    args = ["--data-dir", str(data_dir), "corpus", str(docs)]
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0, text.output
    assert f"dialect: mkdocs (mkdocs.yml found at {tmp_path}): {docs}" in text.output
    assert "warning: odd.md:3: directive 'frobnicate' (its text is kept)" in text.output
    assert "warning: guide/page.md:" in text.output
    assert "dialect markers left in chunk text: 0" in text.output
    payload = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
    assert payload["constructs"]["include"] == 4  # the loop's first level counts
    assert payload["constructs"]["directive"] == 1
    assert {
        "path": "odd.md",
        "line": 3,
        "construct": "directive 'frobnicate' (its text is kept)",
    } in payload["not_understood"]
    assert payload["raw_markers_in_chunks"] == 0
