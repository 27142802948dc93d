"""The markdown-it parser of one dialect: ``js-default`` plus the dialect's plugins.

Raw HTML is tokenised (so MDX components, ``<details>`` and ``<a id>`` anchors are seen) but
never passed through: the ``normalise`` rules turn HTML blocks into dialect tokens or text,
and the reader renders inline HTML from an allowlist only. The set of plugins is a superset
in every dialect; only the constructs whose syntax means different things differ:

* MkDocs: ``::: name`` is an mkdocstrings stub; everywhere else it opens a container (a
  dotted ``::: package.Name`` stays a stub);
* Docusaurus: MDX ``import``/``export`` lines are dropped;
* VitePress: ``::: code-group`` fences and ``:::: tabs`` with ``== Label`` lines are tabs
  (``vitepress``);
* MyST: ``(label)=`` targets, ``%`` comments and ``+++`` breaks (mdit-py-plugins myst_blocks).
"""

from __future__ import annotations

from functools import cache

from markdown_it import MarkdownIt
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.blocks import abbreviations_plugin, mkdocstrings_plugin, tabs_plugin
from askdocs.corpus.dialects.normalise import (
    BASE_RULES,
    RULES_KEY,
    Rule,
    group_tabs,
    inline_text,
    mdx_lines,
    run_rules,
)
from askdocs.corpus.dialects.source import DIALECT_KEY, rewrite_source
from askdocs.corpus.dialects.vitepress import code_groups, fences
from askdocs.corpus.dialects.vitepress import tabs_plugin as vitepress_tabs_plugin


def _any(params: str, markup: str) -> bool:
    return True


def make_dialect_parser(dialect: Dialect) -> MarkdownIt:
    """A fresh parser for ``dialect`` (callers add render rules to their own copy)."""
    md = MarkdownIt("js-default", {"html": True})
    admon_plugin(md)
    tabs_plugin(md)
    mkdocstrings_plugin(md, dotted_only=dialect != "mkdocs")
    if dialect != "mkdocs":
        container_plugin(md, "colon", marker=":", validate=_any)
    container_plugin(md, "slash", marker="/", validate=_any)
    abbreviations_plugin(md)
    deflist_plugin(md)
    footnote_plugin(md)
    tasklists_plugin(md)
    if dialect == "myst":
        myst_block_plugin(md)
    if dialect == "vitepress":
        vitepress_tabs_plugin(md)
    rules: tuple[Rule, ...] = BASE_RULES
    if dialect == "docusaurus":
        rules = (*rules, mdx_lines)
    if dialect == "vitepress":
        rules = (*rules, fences, code_groups)
    md.options[RULES_KEY] = (*rules, group_tabs)
    md.options[DIALECT_KEY] = dialect
    md.core.ruler.after("normalize", "source", rewrite_source)
    md.core.ruler.after("block", "dialects", run_rules)
    md.core.ruler.after("inline", "dialect_inline", inline_text)
    return md


@cache
def shared_parser(dialect: Dialect) -> MarkdownIt:
    """One parser per dialect for parsing only (never add render rules to it)."""
    return make_dialect_parser(dialect)
