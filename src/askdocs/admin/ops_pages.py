"""Write and delete a page (organisation authority).

A write binds the site (id and current name), the path, a SHA-256 of the new content and a
SHA-256 of the content it replaces (or null for a new page): any edit to either side between
propose and apply refuses the token, and a replayed token finds the page already changed.
A delete binds the path (the page's name) and the hash of the content being removed.
"""

from __future__ import annotations

import difflib

from sqlalchemy.orm import Session

from askdocs.admin import pages, sites
from askdocs.admin.authority import Actor
from askdocs.admin.env import AdminEnv, Prepared
from askdocs.admin.models import DeletePage, WritePage, bad, clean
from askdocs.admin.results import PageDeleted, PageGone, PageWriteDone, PageWritten
from askdocs.confirm.canonical import sha256_hex
from askdocs.corpus.frontmatter import split_front_matter
from askdocs.errors import CorpusError

MAX_DIFF_LINES = 200


def diff_text(old: str, new: str, path: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}"
    )
    out = list(lines)
    if len(out) > MAX_DIFF_LINES:
        out = [*out[:MAX_DIFF_LINES], f"… {len(out) - MAX_DIFF_LINES} more diff lines\n"]
    return "".join(out)


def is_draft(text: str, path: str) -> bool:
    try:
        return split_front_matter(text, path, ("en",)).front_matter.draft
    except CorpusError:
        return False


def _content(env: AdminEnv, value: str) -> bytes:
    data = clean("content", value).encode("utf-8")
    if len(data) > env.settings.admin.max_page_bytes:
        raise bad("content", f"at most {env.settings.admin.max_page_bytes} bytes")
    return data


def prepare_write(
    env: AdminEnv, session: Session, actor: Actor, args: WritePage
) -> Prepared[PageWriteDone]:
    site = sites.org_site(session, actor.org_id, sites.valid_site_id(args.site_id))
    rel = pages.check_path(args.path, list(site.roots))
    data = _content(env, args.content)
    folder = sites.site_folder(env.sites_dir, site.id)
    current = pages.read_page(folder, rel, env.settings.admin.max_page_bytes)
    new_text = data.decode("utf-8")
    verb = "Create" if current is None else "Replace"
    summary = f"{verb} the page {rel} of the site “{site.name}” ({len(data)} bytes)."
    if is_draft(new_text, rel):
        summary += " It is marked draft: true, so it will not be indexed or served."
    diff = diff_text(current.text if current else "", new_text, rel)

    def write(tx: Session) -> PageWriteDone:
        pages.write_page(folder, rel, data)
        written = PageWritten(site_id=site.id, path=rel, bytes=len(data), sha256=sha256_hex(data))
        return PageWriteDone(written=written)

    payload = {
        "siteId": site.id,
        "siteName": site.name,
        "path": rel,
        "contentSha256": sha256_hex(data),
        "before": sha256_hex(current.data) if current else None,
    }
    return Prepared(payload, summary, write, diff)


def prepare_delete(
    env: AdminEnv, session: Session, actor: Actor, args: DeletePage
) -> Prepared[PageDeleted]:
    site = sites.org_site(session, actor.org_id, sites.valid_site_id(args.site_id))
    rel = pages.check_path(args.path, list(site.roots))
    folder = sites.site_folder(env.sites_dir, site.id)
    current = pages.read_page(folder, rel, env.settings.admin.max_page_bytes)
    if current is None:
        raise pages.page_not_found()
    summary = f"Delete the page {rel} of the site “{site.name}” ({len(current.data)} bytes)."

    def write(tx: Session) -> PageDeleted:
        pages.delete_page(folder, rel)
        return PageDeleted(deleted=PageGone(site_id=site.id, path=rel))

    payload = {
        "siteId": site.id,
        "siteName": site.name,
        "path": rel,
        "name": rel,
        "contentSha256": sha256_hex(current.data),
    }
    return Prepared(payload, summary, write, diff_text(current.text, "", rel))
