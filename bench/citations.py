"""The citation check's rule (``askdocs.answer.citations``) measured on real documentation.

usage: python bench/citations.py [DOCS_DIR ...] [--json]

Each ``##`` section of each Markdown page is one source. Every sentence of five or more
words is cited twice: with its own section (a true citation: the rule should keep it) and
with a section of another page (a false one: the rule should drop it). A paraphrase of a
sentence shares fewer words than the sentence itself, so the rule is also run on each
sentence with every other content word removed ("half" rows), a rough stand-in for a
model that rewords. Printed: how many true citations are kept and false ones dropped, for
whole and half sentences. Default DOCS_DIR: this checkout's ``docs/``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from askdocs.answer.citations import CitationFilter, words

ROOT = Path(__file__).resolve().parent.parent
SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass
class Tally:
    true_kept: int = 0
    true_total: int = 0
    false_dropped: int = 0
    false_total: int = 0

    def row(self) -> dict[str, float | int]:
        return {
            "true_citations": self.true_total,
            "kept": round(self.true_kept / max(1, self.true_total), 3),
            "false_citations": self.false_total,
            "dropped": round(self.false_dropped / max(1, self.false_total), 3),
        }


def sections(folder: Path) -> list[tuple[str, str]]:
    """(page, section text) for every ``##`` section, code blocks and tables left out."""
    out: list[tuple[str, str]] = []
    for page in sorted(folder.rglob("*.md")):
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
        for part in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
            prose = "\n".join(line for line in part.splitlines() if not line.startswith("|"))
            out.append((str(page), prose))
    return out


def sentences(text: str) -> list[str]:
    flat = " ".join(line.strip() for line in text.splitlines()[1:] if line.strip())
    return [s for s in SENTENCE.split(flat) if len(s.split()) >= 5 and "[" not in s]


def halved(sentence: str) -> str:
    kept = [w for i, w in enumerate(sentence.split()) if i % 2 == 0 or not words(w)]
    return " ".join(kept)


def kept(sentence: str, source: str) -> bool:
    check = CitationFilter.over({1: source})
    check.feed(f"{sentence.rstrip('.')} [1].")
    check.close()
    return check.kept == [1]


def measure(docs: list[Path]) -> dict[str, dict[str, float | int]]:
    rng = random.Random(19)
    all_sections = [s for folder in docs for s in sections(folder)]
    tallies = {"whole": Tally(), "half": Tally()}
    for page, text in all_sections:
        others = [t for p, t in all_sections if p != page]
        for sentence in sentences(text):
            other = rng.choice(others)
            for name, said in (("whole", sentence), ("half", halved(sentence))):
                tally = tallies[name]
                tally.true_total += 1
                tally.true_kept += kept(said, text)
                tally.false_total += 1
                tally.false_dropped += not kept(said, other)
    return {name: tally.row() for name, tally in tallies.items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docs", nargs="*", type=Path, default=[ROOT / "docs"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.docs)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{'rows':<6} {'true':>6} {'kept':>6} {'false':>6} {'dropped':>8}")
    for name, row in result.items():
        print(
            f"{name:<6} {row['true_citations']:>6} {row['kept']:>6} "
            f"{row['false_citations']:>6} {row['dropped']:>8}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
