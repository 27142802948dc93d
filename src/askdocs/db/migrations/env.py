"""Alembic environment: always run programmatically with a live connection (``db.migrate``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from askdocs.db.models import Base


def run_with(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


_connection = context.config.attributes.get("connection")
if not isinstance(_connection, Connection):
    raise RuntimeError("askdocs migrations run through askdocs.db.migrate(), with a connection")
run_with(_connection)
