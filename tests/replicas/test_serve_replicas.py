"""Two real ``askdocs serve`` replicas on one private PostgreSQL: a turn streaming from one
is resumed through the other over HTTP; 20 turns stream across both and one replica is
killed with SIGKILL: its turns show as interrupted on the other within
``assistant.turn_lost_seconds``, no acknowledged write is lost, and asking again works; one
replica alone, killed and started again, shows its dead turn as interrupted, never blank."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.fernet import Fernet
from sqlalchemy import select

from askdocs.auth.jwt import mint
from askdocs.db import Database
from askdocs.db.models import MessageRow
from askdocs.keys import KeyRing
from askdocs.settings import DatabaseSettings, Settings, load_settings
from askdocs.users.service import UserService
from tests.assistant.conftest import DOCS
from tests.assistant.scripted import ModelServer, Script, model_server
from tests.db.postgres import PostgresServer
from tests.server.process import ServeProcess, serve_command
from tests.support.process import clean_env, free_port, running
from tests.support.timing import bounded

LOADED = DatabaseSettings(timeout_seconds=10)  # a loaded CI machine: tests/conftest.py


pytestmark = [pytest.mark.slow, pytest.mark.postgres]
HEARTBEAT, LOST = 1.0, 4.0
PIECES = [f"w{n} " for n in range(40)]  # 40 pieces, 0.1 s apart: a 4 s answer


@dataclass
class Install:
    database_url: str
    env: dict[str, str]
    settings: Settings
    models: ModelServer
    tmp: Path
    procs: dict[str, ServeProcess] = field(default_factory=dict)

    def token(self, email: str) -> str:
        db = Database.from_url(self.database_url, LOADED)
        try:
            user = UserService(db).create_user(email, email)
            return mint(self.settings, user.id, keys=KeyRing(self.settings, lambda: db))
        finally:
            db.close()

    @contextmanager
    def replica(self, name: str) -> Iterator[ServeProcess]:
        port = free_port()
        data = self.tmp / name
        command = serve_command(data, "--host", "127.0.0.1", "--port", str(port))
        log = self.tmp / f"{name}-{port}.log"
        with running(command, clean_env(self.env), port, log) as process:
            self.procs[name] = ServeProcess(process, port)
            yield self.procs[name]

    def messages(self, thread: str) -> list[tuple[int, str, str]]:
        db = Database.from_url(self.database_url, LOADED)
        query = (
            select(MessageRow).where(MessageRow.thread_id == thread).order_by(MessageRow.sequence)
        )
        try:
            with db.session() as session:
                return [(r.sequence, r.role, r.content) for r in session.scalars(query)]
        finally:
            db.close()


@pytest.fixture
def install(tmp_path: Path, postgres_server: PostgresServer) -> Iterator[Install]:
    name = postgres_server.create_database(postgres_server.migrated_template())
    url = postgres_server.url(name)
    docs = tmp_path / "docs"
    for path, text in DOCS.items():
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        (docs / path).write_text(text, encoding="utf-8")
    secrets_key = Fernet.generate_key().decode()
    with model_server() as models:
        models.responder = lambda body: Script(list(PIECES), delay=0.1)
        env = {
            "ASKDOCS_DATABASE_URL": url,
            "ASKDOCS_DATABASE__TIMEOUT_SECONDS": "10",  # a loaded CI machine (tests/conftest.py)
            "ASKDOCS_ADMIN__SECRETS_KEY": secrets_key,
            "ASKDOCS_EMBEDDING__PROVIDER": "none",
            "ASKDOCS_CHAT__PROVIDER": "openai-compatible",
            "ASKDOCS_CHAT__MODEL": "scripted",
            "ASKDOCS_CHAT__BASE_URL": models.url,
            "ASKDOCS_ASSISTANT__TURN_HEARTBEAT_SECONDS": str(HEARTBEAT),
            "ASKDOCS_ASSISTANT__TURN_LOST_SECONDS": str(LOST),
            "ASKDOCS_SITES": json.dumps(
                [{"id": "docs", "roots": [{"path": str(docs / "user-guide")}]}]
            ),
        }
        settings = load_settings(
            data_dir=tmp_path / "ops", database_url=url, admin={"secrets_key": secrets_key}
        )
        yield Install(url, env, settings, models, tmp_path)
    postgres_server.drop_database(name)


def new_thread(url: str, auth: dict[str, str]) -> str:
    created = httpx.post(f"{url}/api/v1/assistant/threads", json={}, headers=auth, timeout=30)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


@dataclass
class Turn:
    """One streamed turn, as its client saw it."""

    thread: str
    on: str  # the replica it was sent to
    acknowledged: bool = False  # 200 and the stream's start: the question is stored
    streaming: threading.Event = field(default_factory=threading.Event)
    text: str = ""
    ended: bool = False  # text-end received: the reply is stored
    broken: bool = False


def stream_turn(url: str, auth: dict[str, str], turn: Turn, message: str) -> None:
    body = {"threadId": turn.thread, "message": message}
    try:
        with httpx.stream(
            "POST", f"{url}/api/v1/assistant/chat", json=body, headers=auth, timeout=60
        ) as response:
            if response.status_code != 200:
                return
            turn.acknowledged = True
            for line in response.iter_lines():
                frame = _frame(line)
                if frame.get("type") == "text-delta":
                    turn.text += str(frame["delta"])
                    turn.streaming.set()
                elif frame.get("type") == "text-end":
                    turn.ended = True
    except httpx.HTTPError:
        turn.broken = True
    finally:
        turn.streaming.set()


def _frame(line: str) -> dict[str, Any]:
    if not line.startswith("data: ") or line == "data: [DONE]":
        return {}
    value: dict[str, Any] = json.loads(line[len("data: ") :])
    return value


def thread_detail(url: str, auth: dict[str, str], thread: str) -> dict[str, Any]:
    found = httpx.get(f"{url}/api/v1/assistant/threads/{thread}", headers=auth, timeout=30)
    assert found.status_code == 200, found.text
    body: dict[str, Any] = found.json()
    return body


def test_a_turn_streaming_on_one_replica_is_resumed_through_the_other(install: Install) -> None:
    auth = {"Authorization": f"Bearer {install.token('a@x.io')}"}
    with install.replica("a") as a, install.replica("b") as b:
        thread = new_thread(a.url, auth)
        turn = Turn(thread, "a")
        sender = threading.Thread(target=stream_turn, args=(a.url, auth, turn, "a question"))
        sender.start()
        assert turn.streaming.wait(60)
        assert thread_detail(b.url, auth, thread)["replyInProgress"] is True
        resumed: list[dict[str, Any]] = []
        with httpx.stream(
            "GET", f"{b.url}/api/v1/assistant/chat/{thread}/stream", headers=auth, timeout=60
        ) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            resumed = [f for f in map(_frame, response.iter_lines()) if f]
        sender.join(60)
    text = "".join(str(f["delta"]) for f in resumed if f["type"] == "text-delta")
    assert resumed[0]["type"] == "start"  # replayed from the start, not from where B joined
    assert resumed[-1]["type"] == "finish"
    assert text == turn.text == "".join(PIECES)
    assert install.messages(thread)[-1][1:] == ("assistant", "".join(PIECES))


def test_killing_a_replica_during_twenty_turns_loses_no_acknowledged_write(
    install: Install,
) -> None:
    auth = {"Authorization": f"Bearer {install.token('a@x.io')}"}
    with install.replica("a") as a, install.replica("b") as b:
        urls = {"a": a.url, "b": b.url}
        turns = [Turn(new_thread(b.url, auth), "ab"[n % 2]) for n in range(20)]
        senders = [
            threading.Thread(target=stream_turn, args=(urls[t.on], auth, t, f"question {n}"))
            for n, t in enumerate(turns)
        ]
        for sender in senders:
            sender.start()
        for turn in turns:
            assert turn.streaming.wait(120)
        os.kill(a.process.pid, signal.SIGKILL)
        killed = time.monotonic()
        a.process.wait(30)
        for sender in senders:
            sender.join(120)
        states = wait_for_states(b.url, auth, turns)
        settled = time.monotonic() - killed
        assert settled < bounded(LOST)
        for n, turn in enumerate(turns):
            stored = install.messages(turn.thread)
            assert turn.acknowledged
            assert stored[0][1:] == ("user", f"question {n}")  # acknowledged: never lost
            if turn.ended:
                assert stored[1][1:] == ("assistant", turn.text)  # acknowledged reply: kept
            if turn.on == "a" and not turn.ended:
                assert turn.broken
                assert states[turn.thread] == "interrupted"
        assert {states[t.thread] for t in turns if t.on == "b"} == {"answered"}
        interrupted = [t for t in turns if states[t.thread] == "interrupted"]
        assert interrupted  # the kill came while replica a was still answering
        assert {t.on for t in interrupted} == {"a"}
        asked_again = interrupted[0]
        again = Turn(asked_again.thread, "b")
        n = turns.index(asked_again)
        stream_turn(b.url, auth, again, f"question {n}")
        assert again.ended
        assert [r[1] for r in install.messages(asked_again.thread)] == ["user", "assistant"]


def wait_for_states(url: str, auth: dict[str, str], turns: list[Turn]) -> dict[str, str]:
    """Each thread's state as replica ``url`` shows it, once none is still in progress."""
    deadline = time.monotonic() + 120
    while True:
        states = {t.thread: _state(thread_detail(url, auth, t.thread)) for t in turns}
        if "running" not in states.values():
            return states
        assert time.monotonic() < deadline, states
        time.sleep(0.1)


def _state(detail: dict[str, Any]) -> str:
    if detail["replyInProgress"]:
        return "running"
    if detail["replyInterrupted"]:
        return "interrupted"
    return "answered" if detail["messages"][-1]["role"] == "assistant" else "waiting"


def test_one_replica_killed_and_started_again_shows_its_turn_interrupted(install: Install) -> None:
    auth = {"Authorization": f"Bearer {install.token('a@x.io')}"}
    with ExitStack() as stack:
        a = stack.enter_context(install.replica("a"))
        thread = new_thread(a.url, auth)
        turn = Turn(thread, "a")
        sender = threading.Thread(target=stream_turn, args=(a.url, auth, turn, "a question"))
        sender.start()
        assert turn.streaming.wait(60)
        os.kill(a.process.pid, signal.SIGKILL)
        sender.join(60)
    with install.replica("a") as again:
        detail = wait_for_states(again.url, auth, [turn])
        seen = thread_detail(again.url, auth, thread)
    assert detail[thread] == "interrupted"
    assert (seen["awaitingReply"], seen["replyInterrupted"]) == (True, True)
    assert [r[1] for r in install.messages(thread)] == ["user"]
