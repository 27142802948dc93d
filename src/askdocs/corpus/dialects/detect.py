"""Which dialect a docs root is written in (reads a few files; the edge, not the core).

In order: the site configuration's ``dialect``; a tool's configuration next to the root or
up to ``MAX_UP`` folders above it (``mkdocs.yml``/``mkdocs.yaml``, ``docusaurus.config.*``
or ``sidebars.*``, ``.vitepress/config.*``, ``conf.py`` with MyST); else the Markdown itself
(a sample of files, counting each dialect's telltale lines); else ``gfm`` (CommonMark plus
GitHub's extensions).
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from askdocs.corpus.dialects import Dialect

MAX_UP = 3
SAMPLE_FILES = 400
SAMPLE_BYTES = 64 * 1024
_CONFIGS: tuple[tuple[str, Dialect], ...] = (
    ("mkdocs.yml", "mkdocs"),
    ("mkdocs.yaml", "mkdocs"),
    ("docusaurus.config.js", "docusaurus"),
    ("docusaurus.config.ts", "docusaurus"),
    ("docusaurus.config.mjs", "docusaurus"),
    ("sidebars.js", "docusaurus"),
    ("sidebars.ts", "docusaurus"),
    (".vitepress/config.js", "vitepress"),
    (".vitepress/config.ts", "vitepress"),
    (".vitepress/config.mts", "vitepress"),
    (".vitepress/config.mjs", "vitepress"),
)
_MKDOCS = (
    r"^\s*(?:!!!|\?\?\?\+?) ?\w|^\s*=== \"|^/{3,} ?\w|^\{% include|^-{2,}8<-{2,}"
    r"|^::: \w+\.|^\{\* "
)
_DOCUSAURUS = (
    r"^import \w+ from ['\"]@(?:theme|site)/|^:::(?:note|tip|info|warning|danger|caution)\b"
    r"|^sidebar_(?:position|label):"
)
_SIGNS: tuple[tuple[Dialect, re.Pattern[str]], ...] = (
    ("mkdocs", re.compile(_MKDOCS, re.M)),
    ("docusaurus", re.compile(_DOCUSAURUS, re.M)),
    ("vitepress", re.compile(r"^::: (?:tip|info|warning|danger|details|code-group)\b", re.M)),
    ("myst", re.compile(r"^(?:`{3,}|:{3,})\{[a-z][\w-]*\}|^\([\w-]+\)=\s*$", re.M)),
)


@dataclass(frozen=True)
class Detection:
    dialect: Dialect
    reason: str  # for ``askdocs corpus``: "mkdocs.yml in ..", "content", "configured"
    config: Path | None = None  # the tool's configuration file, when one was found


def detect_dialect(root: Path, configured: Dialect | None = None) -> Detection:
    found = config_file(root)
    if configured is not None:
        config = found[1] if found is not None and found[0] == configured else None
        return Detection(configured, "set in the site configuration", config)
    if found is not None:
        dialect, path = found
        return Detection(dialect, f"{path.name} found at {path.parent}", path)
    sniffed = sniff(root)
    if sniffed is not None:
        return Detection(sniffed, "recognised from the Markdown (no tool configuration found)")
    return Detection("gfm", "no tool configuration or dialect syntax found")


def config_file(root: Path) -> tuple[Dialect, Path] | None:
    folder = root
    for _ in range(MAX_UP + 1):
        for name, dialect in _CONFIGS:
            if (folder / name).is_file():
                return dialect, folder / name
        conf = folder / "conf.py"
        if conf.is_file() and _mentions_myst(conf):
            return "myst", conf
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def _mentions_myst(conf: Path) -> bool:
    return "myst" in _head(conf)


def sniff(root: Path) -> Dialect | None:
    """The dialect whose telltale lines are most frequent in a sample of the root's files."""
    scores: Counter[Dialect] = Counter()
    for path in _sample(root):
        text = _head(path)
        for dialect, pattern in _SIGNS:
            scores[dialect] += len(pattern.findall(text))
    if not scores:
        return None
    best, count = scores.most_common(1)[0]
    return best if count > 0 else None


def _head(path: Path) -> str:
    """The first bytes of a regular file; never follows a link or blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, SAMPLE_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def _sample(root: Path) -> list[Path]:
    found: list[Path] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_", "node_modules")))
        for name in sorted(files):
            if name.endswith((".md", ".mdx")):
                found.append(Path(folder) / name)
                if len(found) >= SAMPLE_FILES:
                    return found
    return found
