"""``askdocs users`` and ``askdocs token create``: operator commands for accounts.

The operator at the command line is trusted with everything: these commands skip the
authority checks the HTTP API applies. Passwords are read from standard input only
(``--password-stdin``), never from an argument.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import click

from askdocs.auth.jwt import mint
from askdocs.cli.context import CliContext
from askdocs.core import Core
from askdocs.settings import Settings
from askdocs.users.accounts import Accounts
from askdocs.users.orgs import parse_role
from askdocs.users.passwords import check_policy
from askdocs.users.service import UserService


@contextmanager
def accounts_of(ctx: CliContext) -> Iterator[Accounts]:
    """The accounts of the data dir's database, opened through the ``Core`` as every
    surface opens it."""
    core = Core(ctx.settings)
    try:
        yield Accounts(ctx.settings, core.database())
    finally:
        anyio.run(core.aclose)


def read_password() -> str:
    """One line from standard input, without its line ending."""
    value = sys.stdin.readline().rstrip("\r\n")
    if not value:
        raise click.UsageError("--password-stdin: standard input held no password")
    return value


def base_url(settings: Settings) -> str:
    host = settings.server.host
    shown = f"[{host}]" if ":" in host else host
    return settings.server.public_url or f"http://{shown}:{settings.server.port}"


@click.group()
def users() -> None:
    """Manage accounts: create, list, passwords, sessions and invitations."""


@users.command("create")
@click.option("--email", required=True, help="The user's email address (unique).")
@click.option("--name", default="", help="Display name.")
@click.option("--platform-admin", is_flag=True, help="Grant platform administration.")
@click.option("--password-stdin", is_flag=True, help="Read a password from standard input.")
@click.pass_obj
def create_user(
    obj: CliContext, email: str, name: str, platform_admin: bool, password_stdin: bool
) -> None:
    """Create a user; prints its id as the last line."""
    password = read_password() if password_stdin else None
    with accounts_of(obj) as accounts:
        if password is not None:
            check_policy(password, obj.settings.auth.min_password_chars)
        user = accounts.users.create_user(email, name, platform_admin=platform_admin)
        if password is not None:
            accounts.set_password(user.id, password)
    role = " (platform admin)" if user.platform_admin else ""
    click.echo(f"created user {user.email}{role}")
    click.echo(user.id)


@users.command("list")
@click.pass_obj
def list_users(obj: CliContext) -> None:
    """One line per user: id, email, and "platform-admin" when it is one."""
    with accounts_of(obj) as accounts:
        for user in accounts.users.all():
            flag = "\tplatform-admin" if user.platform_admin else ""
            click.echo(f"{user.id}\t{user.email}{flag}")


@users.command("set-password")
@click.option("--email", required=True, help="The account.")
@click.option("--password-stdin", is_flag=True, required=True, help="Read it from stdin.")
@click.pass_obj
def set_password(obj: CliContext, email: str, password_stdin: bool) -> None:
    """Set an account's password; every session of the account ends."""
    password = read_password()
    with accounts_of(obj) as accounts:
        user = accounts.users.by_email(email)
        accounts.set_password(user.id, password)
    click.echo(f"password set for {user.email}; its sessions were ended")


@users.command("end-sessions")
@click.option("--email", required=True, help="The account.")
@click.pass_obj
def end_sessions(obj: CliContext, email: str) -> None:
    """End every browser session and bearer token of an account at once."""
    with accounts_of(obj) as accounts:
        user = accounts.users.by_email(email)
        count = accounts.end_sign_ins(user.id)
    click.echo(f"ended {count} session(s) of {user.email}; its bearer tokens stop working")


@users.command("invite")
@click.option("--email", required=True, help="Who the link is for.")
@click.option("--org", "org_id", default=None, help="Organisation id to join.")
@click.option("--role", default="member", show_default=True, help="owner, admin or member.")
@click.option("--platform-admin", is_flag=True, help="The account becomes a platform admin.")
@click.pass_obj
def invite(
    obj: CliContext, email: str, org_id: str | None, role: str, platform_admin: bool
) -> None:
    """Make a one-time invitation link; prints the link as the last line."""
    with accounts_of(obj) as accounts:
        new = accounts.invitations.create(
            email,
            organisation_id=org_id,
            role=parse_role(role) if org_id else None,
            platform_admin=platform_admin,
        )
    click.echo(f"invitation for {new.invitation.email}, valid until {new.invitation.expires_at}")
    click.echo(new.link(base_url(obj.settings)))


@users.command("link-sso")
@click.option("--email", required=True, help="The existing account.")
@click.pass_obj
def link_sso(obj: CliContext, email: str) -> None:
    """Let the account's next verified single sign-on (same email) link it to the provider."""
    with accounts_of(obj) as accounts:
        user = accounts.users.by_email(email)
        accounts.oidc_links.allow(user.id)
    click.echo(f"the next single sign-on as {user.email} links the account")


@users.command("reset-link")
@click.option("--email", required=True, help="The account whose password to reset.")
@click.pass_obj
def reset_link(obj: CliContext, email: str) -> None:
    """Make a one-time password-reset link (signs in even while password sign-in is paused
    for unrecognised browsers); prints the link as the last line."""
    with accounts_of(obj) as accounts:
        user = accounts.users.by_email(email)
        new = accounts.reset_link(user.id)
    click.echo(f"reset link for {user.email}, valid until {new.invitation.expires_at}")
    click.echo(new.link(base_url(obj.settings)))


@click.group()
def token() -> None:
    """Mint bearer tokens for existing users."""


@token.command("create")
@click.option("--email", required=True, help="The user the token is for.")
@click.option("--ttl", type=click.IntRange(min=60), default=None, help="Lifetime in seconds.")
@click.option("--org", default=None, help="Organisation id the token is scoped to.")
@click.option(
    "--mcp",
    is_flag=True,
    help="For an MCP client (server mode): applies a change only with the person's approval.",
)
@click.pass_obj
def create_token(obj: CliContext, email: str, ttl: int | None, org: str | None, mcp: bool) -> None:
    """Mint an HS256 bearer token; prints the token as the last line. Give an MCP client
    (and so a model's host) only a token made with --mcp."""
    with accounts_of(obj) as accounts:
        service: UserService = accounts.users
        user = service.by_email(email)
        role = service.role_in(user.id, org) if org else None
        value = mint(
            obj.settings,
            user.id,
            email=user.email,
            ttl_seconds=ttl,
            org=org if role else None,
            org_role=role,
            platform_admin=user.platform_admin,
            token_version=user.token_version,
            mcp=mcp,
            keys=accounts.keys,
        )
    lifetime = ttl or obj.settings.auth.default_token_ttl_seconds
    click.echo(f"token for {user.email}, valid {lifetime} s", err=True)
    click.echo(value)
