"""A small docs tree the engine tests index with the real model and real Qdrant Edge."""

from __future__ import annotations

from pathlib import Path

PAGES: dict[str, str] = {
    "cors.md": """---
title: CORS
---
# CORS

Cross-origin resource sharing lets a browser app call an API on another origin.

## Use `CORSMiddleware`

Add `CORSMiddleware` to the app and list the allowed origins, methods and headers.
Credentials such as cookies need `allow_credentials=True`.

## Wildcards

A wildcard origin `*` cannot be combined with credentials: list the origins explicitly.
""",
    "cors.cs.md": """---
title: CORS
---
# CORS

Sdílení zdrojů mezi původy dovolí aplikaci v prohlížeči volat API na jiném původu.

## Use `CORSMiddleware` { #use-corsmiddleware }

Přidejte `CORSMiddleware` do aplikace a vyjmenujte povolené původy, metody a hlavičky.
""",
    "websockets.md": """---
title: WebSockets
---
# WebSockets

## Receive JSON

Call `await websocket.receive_json()` to read one message and decode it as JSON.

## Close the connection

Call `websocket.close(code=1000)` when the conversation is over.
""",
    "deployment/docker.md": """---
title: Docker
---
# Docker

## Shared memory

Large models need more shared memory: start the container with `--shm-size=2g`.

## Healthcheck

Add a `HEALTHCHECK` instruction so the orchestrator restarts a stuck container.
""",
    "dependencies.md": """---
title: Dependencies
---
# Dependencies

## Dependency scope

`Depends(scope="function")` ends the dependency right after the endpoint function
returns, before the response is sent.

## Sub-dependencies

A dependency can depend on another dependency; FastAPI resolves the whole tree.
""",
    "background.md": """---
title: Background tasks
---
# Background tasks

## Send an email after the response

Use `BackgroundTasks` to send a welcome email after returning the response, so the
user does not wait for the mail server.
""",
}


def write_docs(root: Path) -> Path:
    """Write the fixture tree under ``root`` and return it."""
    for relative, text in PAGES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
