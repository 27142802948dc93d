"""The quality and speed benches read the full corpora and question sets in ``../shared``
(next to the checkout) when it exists; a plain clone has no such folder, and then a bench
says so and exits instead of failing on a missing file. The tests never read it: they use
the trimmed copies in ``tests/data``."""

from __future__ import annotations

import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
TRIMMED = Path(__file__).resolve().parents[1] / "tests" / "data"


def shared(*parts: str) -> Path:
    """A path inside ``../shared`` (it may not exist; see ``require``)."""
    return SHARED.joinpath(*parts)


def require(*paths: Path) -> None:
    """Exit (status 1) with a message naming the first missing path."""
    for path in paths:
        if not path.exists():
            sys.exit(
                f"bench: {path} does not exist. This bench reads the shared corpora and question"
                f" sets in {SHARED} (next to the checkout), which this checkout does not have."
                f" Pass another docs folder where the bench takes one, e.g. {TRIMMED}/fastapi-docs."
            )
