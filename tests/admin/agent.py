"""A scripted OpenAI-compatible model that reacts to what it is sent: each reaction reads the
request body (the conversation so far, tool results included) and returns the next reply.

It speaks the real SSE protocol through the core's scripted server, so askdocs's real client
and model loop run. Every request body is recorded: that is all the model ever saw.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.assistant import scripted
from tests.assistant.scripted import Call, ModelServer, Script
from tests.support.http_server import serving

Reaction = Callable[[dict[str, Any]], Script]
DATA_LINE = re.compile(r"\n(\{.*\})\s*$", re.S)


@dataclass
class ReactiveModel(ModelServer):
    reactions: list[Reaction] = field(default_factory=list)

    def react(self, *reactions: Reaction) -> None:
        with self._lock:
            self.reactions.extend(reactions)

    def next(self, body: dict[str, Any]) -> Script:
        with self._lock:
            if scripted._is_title(body):
                self.title_requests.append(body)
                return self.title or Script(status=500)
            self.requests.append(body)
            if self.reactions:
                return self.reactions.pop(0)(body)
            return Script(["Done."])

    def seen_text(self) -> str:
        """Everything the model was ever sent, as one string."""
        return "\n".join(json.dumps(body) for body in self.requests + self.title_requests)


@contextmanager
def reactive_model() -> Iterator[ReactiveModel]:
    state = ReactiveModel()
    with serving(scripted._model_handler(state)) as server:
        state.port = server.server_address[1]
        yield state


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The JSON data of every tool message in the request, newest last."""
    out = []
    for message in body.get("messages", []):
        if message.get("role") == "tool":
            found = DATA_LINE.search(str(message.get("content", "")))
            if found:
                out.append(json.loads(found.group(1)))
    return out


def calls(*pairs: tuple[str, dict[str, Any]]) -> Script:
    return Script(calls=[Call(name, args) for name, args in pairs])
