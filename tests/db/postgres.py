"""A private PostgreSQL for the tests: Debian's binaries, a tmp data dir, a free loopback port.

As root the server runs as the ``postgres`` OS user (``runuser``), since PostgreSQL refuses
to run as root. Each test gets a fresh database created from ``template0``.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import sqlalchemy
from sqlalchemy.pool import NullPool

from askdocs.db.migrate import migrate
from tests.support.process import free_port


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


@dataclass
class PostgresServer:
    bindir: Path
    datadir: Path
    port: int
    _template: str | None = None

    @property
    def admin_dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, template: str = "template0") -> str:
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return name

    def migrated_template(self) -> str:
        """A database migrated to head once, cloned by tests that do not test migrations."""
        if self._template is None:
            name = self.create_database()
            engine = sqlalchemy.create_engine(self.url(name), poolclass=NullPool)
            migrate(engine)
            engine.dispose()
            self._template = name
        return self._template

    def drop_database(self, name: str) -> None:
        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


_shared: list[PostgresServer] = []


def shared_postgres() -> PostgresServer:
    """One server per test process, whichever test area asks first; stopped at exit."""
    if not _shared:
        servers = start_postgres()
        _shared.append(next(servers))
        atexit.register(lambda: next(servers, None))
    return _shared[0]


def start_postgres() -> Iterator[PostgresServer]:
    """Start a throwaway server; yields it; stops it and removes its files afterwards."""
    bindir = postgres_bin()
    if bindir is None:
        raise RuntimeError("PostgreSQL binaries not found: run scripts/install-test-deps")
    base = Path(tempfile.mkdtemp(prefix="askdocs-pg-"))
    datadir = base / "data"
    if os.geteuid() == 0:
        pw = pwd.getpwnam("postgres")
        os.chown(base, pw.pw_uid, pw.pw_gid)
    server = PostgresServer(bindir, datadir, free_port())
    initdb = [str(bindir / "initdb"), "-D", str(datadir), "-A", "trust", "-U", "postgres"]
    subprocess.run(
        [*_as_postgres(initdb), "-E", "UTF8", "--no-sync"], check=True, capture_output=True
    )
    options = f"-h 127.0.0.1 -p {server.port} -k {base} -F -c fsync=off"
    start = [str(bindir / "pg_ctl"), "-D", str(datadir), "-o", options, "-l", str(base / "log")]
    subprocess.run([*_as_postgres(start), "-w", "start"], check=True, capture_output=True)
    try:
        yield server
    finally:
        stop = [str(bindir / "pg_ctl"), "-D", str(datadir), "-m", "fast", "-w", "stop"]
        subprocess.run(_as_postgres(stop), check=False, capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
