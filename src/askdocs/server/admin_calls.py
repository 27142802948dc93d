"""What the admin routes (``routes.admin``, ``routes.proposals``) share.

- ``ArgumentRoute``: a route whose body or parameters fail their model answers
  ``400 invalid_argument`` naming the field, as the same arguments do from a tool;
- ``scoped``: the caller's active organisation (the token's ``org``) when the arguments
  take an organisation and name none;
- ``TypedEndpoint``: an endpoint whose parameters FastAPI reads from a signature
  built at run time (the operation's models are values of the table, not annotations).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from askdocs.admin.models import Args, OrgScoped, bad
from askdocs.errors import InvalidInput
from askdocs.users.types import Principal

A = TypeVar("A", bound=Args)
Endpoint = Callable[..., Awaitable[Any]]
LOCATIONS = ("body", "query", "path")


class ArgumentRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as exc:
                raise argument_error(exc.errors()) from None

        return checked


def argument_error(errors: Sequence[Any]) -> InvalidInput:
    """``400 invalid_argument`` for the first problem, named by its field."""
    first = errors[0] if errors else {}
    parts = [str(p) for p in first.get("loc", ()) if str(p) not in LOCATIONS]
    where = ".".join(parts) or "arguments"
    if first.get("type") == "extra_forbidden":
        return bad(where, "unknown field")
    if first.get("type") == "missing":
        return bad(where, "is required")
    return bad(where, str(first.get("msg", "is not valid")))


def scoped(caller: Principal, args: A) -> A:
    """``args`` with the caller's active organisation when they take one and name none."""
    if isinstance(args, OrgScoped) and args.organisation_id is None and caller.org is not None:
        return args.model_copy(update={"organisation_id": caller.org})
    return args


class TypedEndpoint:
    """``run`` under the signature FastAPI reads (``parameters``, all keyword-only)."""

    def __init__(self, run: Endpoint, parameters: list[inspect.Parameter], name: str) -> None:
        self.run = run
        self.__signature__ = inspect.Signature(parameters)
        self.__name__ = name

    async def __call__(self, **values: Any) -> Any:
        return await self.run(**values)


def keyword(
    name: str, annotation: object, default: object = inspect.Parameter.empty
) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
    )
