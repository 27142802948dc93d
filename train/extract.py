"""Put each manifest tree's docs folder, at its pinned commit, into a folder of its own.

    python -m train.extract --out DIR [--git-dir TEMPLATE] [--only NAME ...]

``DIR/<name>/`` receives the docs folder at its path inside the repository, the tool
configuration next to it or up to three folders above it (``mkdocs.yml``,
``docusaurus.config.*``, ``sidebars.*``, ``.vitepress/``, ``conf.py``: askdocs detects the
dialect from them), the repository's licence files, and ``SOURCE.json`` (repo, commit,
docs folder, licence). ``--git-dir`` names a local git directory per repository, with
``{owner}`` and ``{name}`` (e.g. ``/work/.mirror/{owner}+{name}/repo``, where the search
tool's ``fetch`` puts them); without it the commit is fetched from GitHub (depth 1) into
``DIR/.git/<owner>+<name>``. A tree already extracted at its commit is kept. Reserved
repositories are refused before anything is read (``train.manifest``).
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path, PurePosixPath

from train.manifest import Tree, load, reserved_word

CONFIG_FILES = (
    "mkdocs.yml",
    "mkdocs.yaml",
    "docusaurus.config.js",
    "docusaurus.config.ts",
    "docusaurus.config.mjs",
    "sidebars.js",
    "sidebars.ts",
    "conf.py",
    "myst.yml",
    "book.toml",
)
LICENCE_PREFIXES = ("license", "licence", "copying")
# Only text is extracted (images and media are not read; snapshots may lack big blobs).
SKIPPED_SUFFIXES = (
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".svg",
    ".webp",
    ".ico",
    ".mp4",
    ".webm",
    ".mov",
    ".pdf",
    ".zip",
    ".gz",
    ".woff",
    ".woff2",
    ".ttf",
    ".otf",
    ".eot",
    ".wasm",
    ".cast",
)
MAX_FILE_BYTES = 1024 * 1024


def config_paths(docs: str, names: list[str]) -> list[str]:
    """Of ``names`` (paths in the repository), the tool configuration askdocs looks at:
    the files of CONFIG_FILES and ``.vitepress/`` folders in the docs folder's parent
    folders up to three above it (the docs folder itself is extracted whole)."""
    folder = PurePosixPath(docs)
    parents = [folder.parent, *list(folder.parent.parents)[:2]] if docs else []
    wanted = {str(parent / file).removeprefix("./") for parent in parents for file in CONFIG_FILES}
    vitepress = tuple(f"{str(parent / '.vitepress').removeprefix('./')}/" for parent in parents)
    return sorted(n for n in names if n in wanted or n.startswith(vitepress))


def licence_paths(names: list[str]) -> list[str]:
    """The licence files at the top of the repository."""
    return sorted(n for n in names if "/" not in n and n.lower().startswith(LICENCE_PREFIXES))


def docs_files(docs: str, listing: list[str]) -> list[str]:
    """The text files under ``docs`` from ``git ls-tree -r -l`` lines (size-limited)."""
    files = []
    for line in listing:
        meta, _, path = line.partition("\t")
        kind, size = meta.split()[1], meta.split()[3]
        inside = path.startswith(f"{docs}/") or not docs
        small = size.isdigit() and int(size) <= MAX_FILE_BYTES
        if kind == "blob" and inside and small and not path.lower().endswith(SKIPPED_SUFFIXES):
            files.append(path)
    return files


def git(git_dir: Path, *args: str) -> bytes:
    done = subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {done.stderr.decode(errors='replace')}")
    return done.stdout


def fetch_commit(tree: Tree, cache: Path) -> Path:
    """A bare git directory holding ``tree.commit``, fetched from GitHub at depth 1."""
    owner, name = tree.repo.split("/")
    git_dir = cache / f"{owner}+{name}"
    if not git_dir.is_dir():
        subprocess.run(["git", "init", "-q", "--bare", str(git_dir)], check=True)
    url = f"https://github.com/{tree.repo}.git"
    subprocess.run(
        ["git", "--git-dir", str(git_dir), "fetch", "-q", "--depth", "1", url, tree.commit],
        check=True,
    )
    return git_dir


def extract(tree: Tree, git_dir: Path, out: Path) -> Path:
    """Write the tree into ``out/<name>`` (kept when already there at this commit)."""
    target = out / tree.name
    source = target / "SOURCE.json"
    if source.is_file() and json.loads(source.read_text())["commit"] == tree.commit:
        return target
    names = git(git_dir, "ls-tree", "-r", "--name-only", tree.commit).decode().splitlines()
    listing = git(git_dir, "ls-tree", "-r", "-l", tree.commit, tree.docs).decode().splitlines()
    files = docs_files(tree.docs, listing)
    members = [*files, *config_paths(tree.docs, names), *licence_paths(names)]
    archive = git(git_dir, "archive", "--format=tar", tree.commit, "--", *members)
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    record = {k: getattr(tree, k) for k in ("repo", "commit", "docs", "licence", "dialect")}
    source.write_text(json.dumps(record, indent=1) + "\n")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--git-dir", help="local git dir per repository, with {owner} {name}")
    parser.add_argument("--only", nargs="*", default=[], help="tree names")
    args = parser.parse_args()
    for tree in load():
        if args.only and tree.name not in args.only:
            continue
        if reserved_word(tree.repo):  # load() refuses these already; never read one
            sys.exit(f"refusing reserved repository {tree.repo}")
        owner, name = tree.repo.split("/")
        if args.git_dir:
            git_dir = Path(args.git_dir.format(owner=owner, name=name))
        else:
            git_dir = fetch_commit(tree, args.out / ".git")
        path = extract(tree, git_dir, args.out)
        print(f"{tree.name}: {path / tree.docs}", file=sys.stderr)


if __name__ == "__main__":
    main()
