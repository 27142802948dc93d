"""How the processes of one install share a Qdrant server (``index.qdrant_url``).

Every replica of an install reads and builds the same collections, so they must agree on
two things the local data dir cannot give them: the install's id (which scopes its
collection names and aliases on the server, ``index.naming.scope_of``) and one build lock
(exactly one replica builds at a time; the others wait, then find the collection current
and pick it up). ``askdocs.replicas.IndexCoordination`` provides both from the database;
without one (a single process, MCP local mode) the id comes from ``index.install_id`` or
``<data_dir>/index/install-id`` and the lock is a file lock in the data dir.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol


class Coordination(Protocol):
    def install_id(self) -> str:
        """This install's id, the same in every replica."""
        ...

    def build_lock(self) -> AbstractContextManager[None]:
        """Held for the whole of one build, by one replica of the install at a time."""
        ...

    def try_build_lock(self) -> AbstractContextManager[bool]:
        """Like ``build_lock`` without waiting; yields whether it was acquired."""
        ...
