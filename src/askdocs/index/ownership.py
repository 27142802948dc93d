"""Which collections this install owns: only those may ever be swept.

Every collection a build creates carries this install's id (on a Qdrant server, the
``askdocs_install`` key of the collection metadata; the id itself is a random token kept in
``<data_dir>/index/install-id``). A collection without it, or with another install's id, is
another application's data (or another askdocs install's) and is never dropped, whatever
its name: seed 000 promises that the ``docs_`` prefix never collides with other data.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from askdocs.index.files import atomic_write
from askdocs.index.naming import model_key_of

INSTALL_KEY = "askdocs_install"
INSTALL_FILE = "install-id"


def install_id(folder: Path) -> str:
    """This install's id, created once (atomically; a racing creator's id wins)."""
    path = folder / INSTALL_FILE
    with contextlib.suppress(FileNotFoundError):
        found = path.read_text(encoding="utf-8").strip()
        if found:
            return found
    folder.mkdir(parents=True, exist_ok=True)
    candidate = f"{folder.name}-{secrets.token_hex(12)}"
    temp = folder / f".{INSTALL_FILE}.{os.getpid()}"
    atomic_write(temp, candidate + "\n")
    try:
        os.link(temp, path)  # fails if another process created it first
    except FileExistsError:
        pass
    finally:
        temp.unlink(missing_ok=True)
    return path.read_text(encoding="utf-8").strip()


def is_askdocs_name(name: str) -> bool:
    """A name askdocs could have given a collection (``docs_{model}_{hash8}_{hash12}``)."""
    return model_key_of(name) is not None
