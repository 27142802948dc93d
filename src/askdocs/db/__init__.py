"""Relational storage: SQLAlchemy 2 models, the engine, and packaged Alembic migrations."""

from askdocs.db.engine import Database, database_url

__all__ = ["Database", "database_url"]
