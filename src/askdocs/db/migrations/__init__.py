"""Alembic migrations, shipped inside the package and run at start-up (``db.migrate``)."""
