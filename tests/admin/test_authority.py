"""Every gated tool, called by someone without its authority, answers exactly
``{"error": "admin privileges required"}`` and changes nothing: every table's rows and every
site file are compared before and after. Apply is never a model tool (AU-17): its half of
each pair is called through ``AdminApi.apply``, the path the REST apply endpoint takes."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from askdocs.admin.table import TABLE, Change, grantable_tools
from askdocs.assistant.tools import ToolContext, ToolRegistry, call_tool
from askdocs.assistant.toolset import build_registry
from askdocs.errors import AskDocsError
from askdocs.llm.types import ToolCall
from askdocs.operation import apply_name, propose_name
from tests.admin.world import World, db_state, tree_state

REFUSAL = {"error": "admin privileges required"}
OPERATIONS = {op.name: op.authority for op in TABLE if isinstance(op, Change)}
SINGLE_TOOLS = {op.name: op.authority for op in TABLE if not isinstance(op, Change)}
APPLY_OPERATIONS = {apply_name(operation): operation for operation in OPERATIONS}


def _quiet(caption: str) -> None:
    return None


def registry(world: World) -> ToolRegistry:
    return build_registry(world.tool_deps())


def provider_id(world: World) -> str:
    data = world.api.read("list_inference_providers", world.platform_admin.id, {})
    return str(data["providers"][0]["id"])


def operation_args(world: World) -> dict[str, dict[str, Any]]:
    pid = provider_id(world)
    return {
        "CreateSite": {"id": "delta", "name": "Delta"},
        "UpdateSite": {"siteId": "alpha", "name": "Renamed"},
        "DeleteSite": {"siteId": "alpha"},
        "WritePage": {"siteId": "alpha", "path": "install.md", "content": "# hacked\n"},
        "DeletePage": {"siteId": "alpha", "path": "install.md"},
        "AssignToolGrants": {"userId": world.member.id, "tools": []},
        "CreateInferenceProvider": {
            "name": "Evil",
            "capability": "chat",
            "kind": "openai-compatible",
            "model": "m",
            "apiKey": "sk-evil-000000000000",
        },
        "UpdateInferenceProvider": {"providerId": pid, "name": "Renamed", "apiKey": ""},
        "DeleteInferenceProvider": {"providerId": pid},
    }


def single_args(world: World) -> dict[str, dict[str, Any]]:
    return {
        "list_sites": {},
        "get_site": {"siteId": "alpha"},
        "list_pages": {"siteId": "alpha"},
        "read_page": {"siteId": "alpha", "path": "install.md"},
        "list_index_runs": {},
        "list_tool_grants": {},
        "reindex_site": {"siteId": "alpha"},
        "list_inference_providers": {},
        "test_inference_provider": {"providerId": provider_id(world)},
    }


def rightful(world: World, operation: str) -> str:
    return world.platform_admin.id if OPERATIONS[operation] == "platform" else world.owner.id


def calls(world: World) -> list[tuple[str, dict[str, Any], str]]:
    """(tool, arguments, authority) for every admin tool; apply calls carry a real token."""
    out = [(name, args, SINGLE_TOOLS[name]) for name, args in single_args(world).items()]
    for operation, args in operation_args(world).items():
        authority = OPERATIONS[operation]
        out.append((propose_name(operation), args, authority))
        token = world.api.propose(operation, rightful(world, operation), args)
        applied = {**args, "confirmationToken": token["confirmationToken"]}
        out.append((apply_name(operation), applied, authority))
    return out


async def invoke(
    world: World, tools: ToolRegistry, user_id: str, name: str, args: dict[str, Any]
) -> dict[str, Any]:
    """A model tool through the registry; an apply through ``AdminApi.apply`` (as REST
    does), its error read the way a caller reads it."""
    if name not in APPLY_OPERATIONS:
        context = ToolContext(user_id, None)
        return (await call_tool(tools, ToolCall("c1", name, args), context, _quiet)).data
    try:
        operation = APPLY_OPERATIONS[name]
        return await anyio.to_thread.run_sync(world.api.apply, operation, user_id, args)
    except AskDocsError as exc:
        return {"error": exc.message}


def test_the_matrix_covers_every_registered_admin_tool(world: World) -> None:
    names = {name for name, _, _ in calls(world)}
    registered = set(registry(world).names())
    assert names == set(grantable_tools())
    assert registered == (names - set(APPLY_OPERATIONS)) | {"search_docs"}
    assert not [name for name in registered if name.startswith("apply")]  # AU-17


async def _refused(world: World, user_id: str, cases: list[tuple[str, dict[str, Any]]]) -> None:
    tools = registry(world)
    before_db, before_files = db_state(world.db), tree_state(world.sites_dir)
    for name, args in cases:
        outcome = await invoke(world, tools, user_id, name, args)
        assert outcome == REFUSAL, (name, outcome)
    assert db_state(world.db) == before_db
    assert tree_state(world.sites_dir) == before_files
    assert world.recorder.calls == []


@pytest.mark.anyio
@pytest.mark.parametrize("who", ["member", "platform_admin", "outsider_owner"])
async def test_organisation_tools_refuse_without_owner_or_admin_role(
    world: World, who: str
) -> None:
    user = getattr(world, who)
    cases = [
        (n, {**a, "organisationId": world.org_a}) for n, a, k in calls(world) if k == "organisation"
    ]
    await _refused(world, user.id, cases)


@pytest.mark.anyio
@pytest.mark.parametrize("who", ["owner", "admin", "member"])
async def test_platform_tools_refuse_without_platform_admin(world: World, who: str) -> None:
    user = getattr(world, who)
    await _refused(world, user.id, [(n, a) for n, a, k in calls(world) if k == "platform"])


@pytest.mark.anyio
async def test_a_user_with_no_organisation_is_refused(world: World) -> None:
    from askdocs.users.service import UserService

    loner = UserService(world.db).create_user("loner@x.io")
    world.grant_all(loner)
    await _refused(world, loner.id, [(n, a) for n, a, _ in calls(world)])


@pytest.mark.anyio
async def test_authority_is_re_read_on_every_call(world: World) -> None:
    """Demoting the owner between propose and apply refuses the apply; restoring admits it."""
    from askdocs.users.service import UserService

    args = {"siteId": "alpha", "name": "Renamed"}
    token = world.api.propose("UpdateSite", world.owner.id, args)["confirmationToken"]
    users = UserService(world.db)
    users.add_member(world.org_a, world.owner.id, "member")
    tools, owner = registry(world), world.owner.id
    applied = {**args, "confirmationToken": token}
    before = db_state(world.db)
    assert await invoke(world, tools, owner, "apply_update_site", applied) == REFUSAL
    assert db_state(world.db) == before
    users.add_member(world.org_a, world.owner.id, "owner")
    done = await invoke(world, tools, owner, "apply_update_site", applied)
    assert done["updated"]["name"] == "Renamed"


@pytest.mark.anyio
async def test_another_organisations_objects_answer_like_missing_ones(world: World) -> None:
    tools = registry(world)
    context = ToolContext(world.outsider_owner.id, None)

    async def error(name: str, args: dict[str, Any]) -> Any:
        return (await call_tool(tools, ToolCall("c", name, args), context, _quiet)).data

    foreign = await error("get_site", {"siteId": "alpha"})
    missing = await error("get_site", {"siteId": "nosuch"})
    assert foreign == missing == {"error": "site not found"}
    write = {"siteId": "alpha", "path": "install.md", "content": "x"}
    assert await error("propose_write_page", write) == {"error": "site not found"}
    grant = {"userId": world.member.id, "tools": []}
    assert await error("propose_assign_tool_grants", grant) == {"error": "user not found"}
    listed = await error("list_sites", {})
    assert [site["id"] for site in listed["sites"]] == ["bravo"]
