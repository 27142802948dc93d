"""The single-step admin actions: re-index a site, test an inference provider. Each runs
after the gate and the grant (``admin.operations.run_action``) and returns its typed result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio

from askdocs.admin import provider_test
from askdocs.admin.authority import Actor
from askdocs.admin.models import ProviderRef, SiteRef
from askdocs.admin.results import ProviderTested, ReindexStarted, RunStarted

if TYPE_CHECKING:
    from askdocs.admin.api import AdminApi

REINDEX_NOTE = "Indexing runs in the background; list_index_runs shows how it ends."


async def reindex(api: AdminApi, actor: Actor, args: SiteRef, initiator: str) -> ReindexStarted:
    config = await anyio.to_thread.run_sync(api.site_config, actor.org_id, args.site_id)
    run_id = await anyio.to_thread.run_sync(api.guard.start, actor.user_id, config.id, initiator)
    api.runs.launch(run_id, config)
    run = RunStarted(id=run_id, site_id=config.id, status="running")
    return ReindexStarted(run=run, note=REINDEX_NOTE)


async def test_provider(
    api: AdminApi, actor: Actor, args: ProviderRef, initiator: str
) -> ProviderTested:
    target = await anyio.to_thread.run_sync(provider_test.load_target, api.env, args.provider_id)
    return await provider_test.run_test(api.env, target)
