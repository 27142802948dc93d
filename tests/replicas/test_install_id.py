"""The install id every replica of an install shares: configured, else the database's,
which adopts the id an older version kept in the data dir."""

from __future__ import annotations

import threading
from pathlib import Path

from askdocs.db import Database
from askdocs.replicas.install import install_id
from askdocs.settings import load_settings


def test_replicas_agree_on_one_stored_id(tmp_path: Path) -> None:
    db = Database.from_url(f"sqlite:///{tmp_path / 'askdocs.db'}")
    try:
        found: list[str] = []
        threads = [
            threading.Thread(
                target=lambda n=n: found.append(
                    install_id(db, load_settings(data_dir=tmp_path / f"r{n}"))
                )
            )
            for n in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert len(found) == 4
        assert len(set(found)) == 1
        assert found[0].startswith("install-")
    finally:
        db.close()


def test_an_older_installs_id_is_adopted_and_a_configured_one_wins(tmp_path: Path) -> None:
    (tmp_path / "index").mkdir()
    (tmp_path / "index" / "install-id").write_text("index-0123456789abcdef01234567\n")
    db = Database.from_url(f"sqlite:///{tmp_path / 'askdocs.db'}")
    try:
        assert install_id(db, load_settings(data_dir=tmp_path)) == "index-0123456789abcdef01234567"
        configured = load_settings(data_dir=tmp_path, index={"install_id": "docs-prod"})
        assert install_id(db, configured) == "docs-prod"
    finally:
        db.close()
