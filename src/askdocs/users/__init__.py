"""Users, organisations and memberships; the caller resolved from a bearer token.

``UserService`` (the database layer) loads on first use, so a process that only needs the
types (MCP local mode over stdio) does not import SQLAlchemy.
"""

from typing import TYPE_CHECKING, Any

from askdocs.users.types import Organisation, OrgRole, Principal, User

if TYPE_CHECKING:
    from askdocs.users.service import UserService

__all__ = ["OrgRole", "Organisation", "Principal", "User", "UserService"]


def __getattr__(name: str) -> Any:
    if name == "UserService":
        from askdocs.users.service import UserService

        return UserService
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
