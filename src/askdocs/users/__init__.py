"""Users, organisations and memberships; the caller resolved from a bearer token."""

from askdocs.users.service import UserService
from askdocs.users.types import Organisation, OrgRole, Principal, User

__all__ = ["OrgRole", "Organisation", "Principal", "User", "UserService"]
