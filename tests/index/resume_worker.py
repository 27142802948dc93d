"""A build that kills itself (SIGKILL) after a number of embedding batches, for the
resumable-build test.

    python -m tests.index.resume_worker DATA_DIR KIND BATCHES
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from askdocs.index import build_index
from askdocs.search.lexical import document_vector
from tests.index.helpers import HashingEmbedder
from tests.index.test_resume import BATCH, SITE, open_store, pages


def main(data_dir: Path, kind: str, batches: int) -> None:
    store = open_store(kind, data_dir)
    seen = 0

    def between() -> None:
        nonlocal seen
        if seen == batches:
            os.kill(os.getpid(), signal.SIGKILL)
        seen += 1

    build_index(
        store, HashingEmbedder(), SITE, pages(), sparse=document_vector,
        between_batches=between, batch_size=BATCH,
    )  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
