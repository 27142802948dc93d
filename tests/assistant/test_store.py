"""The threads store against SQLite and PostgreSQL: scoping, sequences, reuse, deletion."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest
from sqlalchemy import func, select

from askdocs.assistant.store import ThreadStore
from askdocs.db import Database
from askdocs.db.models import MessageRow, ThreadRow
from askdocs.errors import NotFound
from askdocs.users.service import UserService


@pytest.fixture
def store(db: Database) -> ThreadStore:
    return ThreadStore(db)


@pytest.fixture
def owners(db: Database) -> tuple[str, str]:
    users = UserService(db)
    return users.create_user("a@x.io").id, users.create_user("b@x.io").id


def _sequences(db: Database, thread_id: str) -> list[tuple[int, str]]:
    query = select(MessageRow.sequence, MessageRow.role).where(MessageRow.thread_id == thread_id)
    with db.session() as session:
        return sorted((int(s), str(r)) for s, r in session.execute(query))


def _updated(db: Database, thread_id: str) -> datetime:
    with db.session() as session:
        row = session.get(ThreadRow, thread_id)
        assert row is not None
        return row.updated_at


def test_exchange_halves_are_consecutive(
    db: Database, store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    thread = store.create(me, None, "")
    first, _ = store.append_user(me, thread, "hi", reuse_unanswered=True)
    store.append_reply(thread, first.sequence, "hello", {})
    second, _ = store.append_user(me, thread, "more", reuse_unanswered=True)
    store.append_reply(thread, second.sequence, "sure", {})
    assert _sequences(db, thread) == [(1, "user"), (2, "assistant"), (3, "user"), (4, "assistant")]


def test_double_send_keeps_the_reply_slot(
    db: Database, store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    thread = store.create(me, None, "")
    first, _ = store.append_user(me, thread, "a", reuse_unanswered=False)
    second, reused = store.append_user(me, thread, "a", reuse_unanswered=False)
    assert not reused
    assert second.sequence == first.sequence + 2
    store.append_reply(thread, second.sequence, "to second", {})
    store.append_reply(thread, first.sequence, "to first", {})
    assert _sequences(db, thread) == [(1, "user"), (2, "assistant"), (3, "user"), (4, "assistant")]


def test_identical_unanswered_message_is_reused(
    db: Database, store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    thread = store.create(me, None, "")
    first, _ = store.append_user(me, thread, "why?", reuse_unanswered=True)
    again, reused = store.append_user(me, thread, "why?", reuse_unanswered=True)
    assert reused
    assert again.id == first.id
    other, reused = store.append_user(me, thread, "why not?", reuse_unanswered=True)
    assert not reused
    assert other.sequence == 3
    assert len(_sequences(db, thread)) == 2


def test_append_touches_updated_at(
    db: Database, store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    thread = store.create(me, None, "")
    before = _updated(db, thread)
    store.append_user(me, thread, "hi", reuse_unanswered=True)
    assert _updated(db, thread) > before


def test_every_lookup_is_scoped_to_the_caller(
    db: Database, store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, other = owners
    thread = store.create(me, None, "mine")
    assert store.get(other, thread) is None
    assert store.summary(other, thread) is None
    assert not store.update(other, thread, title="x", archived=True)
    assert not store.delete(other, thread)
    with pytest.raises(NotFound):
        store.append_user(other, thread, "hi", reuse_unanswered=True)
    assert [t.id for t in store.for_user(other)] == []
    with db.session() as session:
        row = session.get(ThreadRow, thread)
        assert row is not None
        assert row.title == "mine"
        assert row.archived_at is None
    assert _sequences(db, thread) == []


def test_rename_never_unarchives(store: ThreadStore, owners: tuple[str, str]) -> None:
    me, _ = owners
    thread = store.create(me, None, "t")
    assert store.update(me, thread, title=None, archived=True)
    assert store.update(me, thread, title="renamed", archived=None)
    summary = store.summary(me, thread)
    assert summary is not None
    assert summary.archived
    assert summary.title == "renamed"
    assert store.for_user(me) == []
    assert store.update(me, thread, title=None, archived=False)
    assert [t.id for t in store.for_user(me)] == [thread]


def test_delete_removes_the_messages(
    db: Database, store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    thread = store.create(me, None, "")
    record, _ = store.append_user(me, thread, "hi", reuse_unanswered=True)
    store.append_reply(thread, record.sequence, "hello", {"k": 1})
    assert store.delete(me, thread)
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(MessageRow)) == 0
        assert session.get(ThreadRow, thread) is None


def test_list_is_most_recent_first_with_last_role(
    store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    old = store.create(me, None, "old")
    new = store.create(me, None, "new")
    store.append_user(me, old, "bump", reuse_unanswered=True)
    listed = store.for_user(me)
    assert [t.id for t in listed] == [old, new]
    assert [t.last_role for t in listed] == ["user", None]


def test_replay_keeps_the_newest_turns_in_order(
    store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    thread = store.create(me, None, "")
    for n in range(5):
        record, _ = store.append_user(me, thread, f"q{n}", reuse_unanswered=True)
        store.append_reply(thread, record.sequence, f"a{n}", {})
    assert [m.content for m in store.replay(thread, 3)] == ["a3", "q4", "a4"]


def test_concurrent_appends_never_share_a_sequence(
    db: Database, store: ThreadStore, owners: tuple[str, str]
) -> None:
    me, _ = owners
    thread = store.create(me, None, "")
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(5):
                store.append_user(me, thread, f"w{n}-{i}", reuse_unanswered=False)
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    sequences = [s for s, _ in _sequences(db, thread)]
    assert len(sequences) == 20 == len(set(sequences))
