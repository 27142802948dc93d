"""The install id every replica shares: ``index.install_id`` when configured, else the
``install_id`` row of ``install_state``, made once by the first replica that needs it (the
id an older version kept in ``<data_dir>/index/install-id`` when there is one, so its
collections stay its own), a replica that loses the race reading the winner's."""

from __future__ import annotations

import secrets

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from askdocs.db import Database
from askdocs.db.replica_models import InstallStateRow
from askdocs.index.ownership import INSTALL_FILE
from askdocs.settings import Settings

INSTALL_ID = "install_id"


def install_id(db: Database, settings: Settings) -> str:
    if settings.index.install_id:
        return settings.index.install_id
    found = _stored(db)
    if found is not None:
        return found
    try:
        with db.session(write=True) as session:
            session.add(InstallStateRow(name=INSTALL_ID, value=_legacy(settings) or _fresh()))
    except IntegrityError:
        pass  # another replica stored one first
    stored = _stored(db)
    assert stored is not None
    return stored


def _stored(db: Database) -> str | None:
    with db.session() as session:
        return session.scalar(
            select(InstallStateRow.value).where(InstallStateRow.name == INSTALL_ID)
        )


def _legacy(settings: Settings) -> str | None:
    try:
        text = (settings.data_dir / "index" / INSTALL_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None


def _fresh() -> str:
    return f"install-{secrets.token_hex(12)}"
