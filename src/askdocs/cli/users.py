"""``askdocs users create`` and ``askdocs token create``: operator commands for accounts."""

from __future__ import annotations

import click

from askdocs.auth.jwt import mint
from askdocs.cli.context import CliContext
from askdocs.db import Database
from askdocs.users.service import UserService


def _users(ctx: CliContext) -> tuple[Database, UserService]:
    db = Database.open(ctx.settings)
    return db, UserService(db)


@click.group()
def users() -> None:
    """Manage the accounts that may use the assistant."""


@users.command("create")
@click.option("--email", required=True, help="The user's email address (unique).")
@click.option("--name", default="", help="Display name.")
@click.option("--platform-admin", is_flag=True, help="Grant platform administration.")
@click.pass_obj
def create_user(obj: CliContext, email: str, name: str, platform_admin: bool) -> None:
    """Create a user; prints its id as the last line."""
    db, service = _users(obj)
    try:
        user = service.create_user(email, name, platform_admin=platform_admin)
    finally:
        db.close()
    role = " (platform admin)" if user.platform_admin else ""
    click.echo(f"created user {user.email}{role}")
    click.echo(user.id)


@click.group()
def token() -> None:
    """Mint bearer tokens for existing users."""


@token.command("create")
@click.option("--email", required=True, help="The user the token is for.")
@click.option("--ttl", type=click.IntRange(min=60), default=None, help="Lifetime in seconds.")
@click.option("--org", default=None, help="Organisation id the token is scoped to.")
@click.pass_obj
def create_token(obj: CliContext, email: str, ttl: int | None, org: str | None) -> None:
    """Mint an HS256 bearer token; prints the token as the last line."""
    db, service = _users(obj)
    try:
        user = service.by_email(email)
        role = service.role_in(user.id, org) if org else None
    finally:
        db.close()
    value = mint(
        obj.settings,
        user.id,
        ttl_seconds=ttl,
        org=org if role else None,
        org_role=role,
        platform_admin=user.platform_admin,
    )
    lifetime = ttl or obj.settings.auth.default_token_ttl_seconds
    click.echo(f"token for {user.email}, valid {lifetime} s", err=True)
    click.echo(value)
