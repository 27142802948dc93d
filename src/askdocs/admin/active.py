"""The inference providers in use: the active stored platform row of each capability when
there is one, the settings otherwise.

``chat()`` is read on every assistant turn (one small query); the model it builds is kept
until the active row changes (its id or ``updated_at``), so switching the chat provider
takes effect on the next turn, without a restart. ``embedding()`` is what the engine
should embed with; ``AdminApi.sync_providers`` hands a change to the engine
(``AskDocs.set_embedding``), which searches the old collection keyword-only until the
background indexer has built the new model's collection.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import SecretStr
from sqlalchemy import select

from askdocs.db import Database
from askdocs.db.admin_models import ProviderRow
from askdocs.keys import SecretBox
from askdocs.llm.registry import create_chat_model
from askdocs.llm.types import ChatModel
from askdocs.settings import ChatSettings, EmbeddingSettings, Settings

Source = Literal["database", "settings"]


@dataclass(frozen=True)
class StoredProvider:
    id: str
    name: str
    kind: str
    model: str
    base_url: str | None
    api_key: str | None
    updated_at: datetime


@dataclass(frozen=True)
class ChatChoice:
    model: ChatModel | None
    provider: str  # the provider kind ("none" without a model)
    source: Source
    provider_id: str | None = None


def _secret(key: str | None) -> SecretStr | None:
    return SecretStr(key) if key else None


def chat_settings(row: StoredProvider, base: ChatSettings) -> ChatSettings:
    """The stored row as chat settings; timeouts and limits stay the configured ones."""
    values = {"provider": row.kind, "model": row.model, "base_url": row.base_url}
    return base.model_copy(update={**values, "api_key": _secret(row.api_key)})


def embedding_settings(row: StoredProvider, base: EmbeddingSettings) -> EmbeddingSettings:
    values = {"provider": row.kind, "model": row.model, "base_url": row.base_url}
    return base.model_copy(update={**values, "api_key": _secret(row.api_key)})


class ActiveProviders:
    def __init__(
        self, settings: Settings, db: Database, secrets: SecretBox, fallback: ChatModel | None
    ) -> None:
        self.settings = settings
        self.db = db
        self.secrets = secrets
        self.fallback = fallback
        self._lock = threading.Lock()
        self._built: tuple[tuple[str, datetime], ChatModel | None] | None = None

    def stored(self, capability: str) -> StoredProvider | None:
        """The active platform row of ``capability``, with its key decrypted (blocking)."""
        query = select(ProviderRow).where(
            ProviderRow.organisation_id.is_(None),
            ProviderRow.capability == capability,
            ProviderRow.active.is_(True),
        )
        with self.db.session() as session:
            row = session.scalars(query.order_by(ProviderRow.updated_at.desc())).first()
            if row is None:
                return None
            key = self.secrets.decrypt(row.api_key_encrypted) if row.api_key_encrypted else None
            return StoredProvider(
                row.id, row.name, row.kind, row.model, row.base_url, key, row.updated_at
            )

    def chat(self) -> ChatChoice:
        row = self.stored("chat")
        if row is None:
            return ChatChoice(self.fallback, self.settings.chat.provider, "settings")
        return ChatChoice(self._model(row), row.kind, "database", row.id)

    def embedding(self) -> tuple[EmbeddingSettings, Source]:
        row = self.stored("embedding")
        if row is None:
            return self.settings.embedding, "settings"
        return embedding_settings(row, self.settings.embedding), "database"

    def _model(self, row: StoredProvider) -> ChatModel | None:
        stamp = (row.id, row.updated_at)
        with self._lock:
            if self._built is not None and self._built[0] == stamp:
                return self._built[1]
        model = create_chat_model(chat_settings(row, self.settings.chat))
        with self._lock:
            self._built = (stamp, model)
        return model
