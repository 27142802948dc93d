"""Liveness: the process answers. (Readiness lives with the index status.)"""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """On the event loop: no thread, database or index, so nothing can starve it."""
    return {"status": "ok"}
