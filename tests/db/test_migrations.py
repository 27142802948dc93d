from __future__ import annotations

import threading

from sqlalchemy import inspect, text

from askdocs.db import Database
from askdocs.db.engine import database_url, make_engine
from askdocs.db.migrate import current_revision, head_revision, migrate
from askdocs.settings import load_settings


def test_migrations_create_every_table(db: Database) -> None:
    tables = set(inspect(db.engine).get_table_names())
    expected = {"users", "organisations", "memberships", "assistant_threads", "assistant_messages"}
    assert expected <= tables
    assert current_revision(db.engine) == head_revision()
    assert head_revision() is not None


def test_sequence_is_unique_per_thread(db: Database) -> None:
    uniques = inspect(db.engine).get_unique_constraints("assistant_messages")
    assert {"thread_id", "sequence"} in [set(u["column_names"]) for u in uniques]


def test_migrating_twice_and_concurrently_is_harmless(database_url: str) -> None:
    engines = [make_engine(database_url) for _ in range(3)]
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            migrate(engines[index])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    migrate(engines[0])
    assert current_revision(engines[0]) == head_revision()
    for engine in engines:
        engine.dispose()


def test_default_url_is_a_file_in_the_data_dir(tmp_path: object) -> None:
    settings = load_settings(data_dir=tmp_path)
    assert database_url(settings) == f"sqlite:///{tmp_path}/askdocs.db"


def test_postgres_urls_use_psycopg3(tmp_path: object) -> None:
    settings = load_settings(data_dir=tmp_path, database_url="postgresql://u@h/db")
    assert database_url(settings) == "postgresql+psycopg://u@h/db"


def test_sqlite_runs_in_wal_with_full_sync(tmp_path: object) -> None:
    database = Database.from_url(f"sqlite:///{tmp_path}/x.db")
    with database.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    database.close()


def test_sign_in_hardening_keeps_past_single_sign_on_accounts_linkable(
    database_url: str,
) -> None:
    """Migration 0008: an account that signed in through single sign-on before gets an
    allowed link (it keeps signing in that way); others get none; versions start at 0."""
    engine = make_engine(database_url)
    migrate(engine, "0005")
    stamp, later = "2026-01-01 00:00:00+00:00", "2027-01-01 00:00:00+00:00"
    with engine.begin() as conn:
        for user, method in (("u-sso", "oidc"), ("u-pw", "password")):
            conn.execute(
                text("INSERT INTO users (id, email, display_name, platform_admin, created_at) "
                     "VALUES (:id, :email, '', false, :at)"),
                {"id": user, "email": f"{user}@example.com", "at": stamp},
            )  # fmt: skip
            conn.execute(
                text("INSERT INTO auth_sessions (id, user_id, csrf_token, method, user_agent, "
                     "created_at, last_seen_at, expires_at) "
                     "VALUES (:id, :user, 'c', :method, '', :at, :at, :later)"),
                {"id": f"s-{user}", "user": user, "method": method, "at": stamp, "later": later},
            )  # fmt: skip
    migrate(engine)
    with engine.connect() as conn:
        links = conn.execute(text("SELECT user_id, issuer, subject FROM oidc_links")).all()
        versions = conn.execute(text("SELECT DISTINCT token_version FROM users")).all()
    assert [tuple(row) for row in links] == [("u-sso", None, None)]
    assert [tuple(row) for row in versions] == [(0,)]
    engine.dispose()
