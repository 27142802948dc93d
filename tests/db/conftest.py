from tests.db.fixtures import database_url, db, postgres_server

__all__ = ["database_url", "db", "postgres_server"]
