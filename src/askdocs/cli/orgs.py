"""``askdocs orgs``: organisations and their members, from the command line (operator).

The first organisation whose owner is the instance's first platform admin owns the
configured sites (the bundled docs and the config file's ``[[sites]]``).
"""

from __future__ import annotations

import click

from askdocs.cli.context import CliContext
from askdocs.cli.users import accounts_of
from askdocs.users.orgs import OrgDirectory, parse_role
from askdocs.users.ownership import owns_configured_sites

ROLES = click.Choice(["owner", "admin", "member"])


@click.group()
def orgs() -> None:
    """Manage organisations and their members."""


@orgs.command("create")
@click.option("--name", required=True, help="The organisation's name.")
@click.option("--owner", "owner_email", required=True, help="Email of the owning account.")
@click.pass_obj
def create_org(obj: CliContext, name: str, owner_email: str) -> None:
    """Create an organisation owned by an existing account; prints its id as the last line."""
    with accounts_of(obj) as accounts:
        owner = accounts.users.by_email(owner_email)
        org = OrgDirectory(accounts.db).create(name, owner.id)
        owns = owns_configured_sites(accounts.db, org.id)
    note = " (it owns the configured sites)" if owns else ""
    click.echo(f"created organisation {org.name} owned by {owner.email}{note}")
    click.echo(org.id)


@orgs.command("list")
@click.pass_obj
def list_orgs(obj: CliContext) -> None:
    """One line per organisation: id, name, number of members."""
    with accounts_of(obj) as accounts:
        for org in OrgDirectory(accounts.db).visible(None):
            click.echo(f"{org.id}\t{org.name}\t{org.members} member(s)")


@orgs.command("members")
@click.argument("org_id")
@click.pass_obj
def members(obj: CliContext, org_id: str) -> None:
    """One line per member: user id, email, role."""
    with accounts_of(obj) as accounts:
        _, found = OrgDirectory(accounts.db).get(org_id, None)
    for member in found:
        click.echo(f"{member.user_id}\t{member.email}\t{member.role}")


@orgs.command("add-member")
@click.argument("org_id")
@click.option("--email", required=True, help="An existing account's email.")
@click.option("--role", type=ROLES, default="member", show_default=True)
@click.pass_obj
def add_member(obj: CliContext, org_id: str, email: str, role: str) -> None:
    """Add an account to an organisation (or change its role there)."""
    with accounts_of(obj) as accounts:
        member = OrgDirectory(accounts.db).add_member(org_id, email, parse_role(role), None)
    click.echo(f"{member.email} is {member.role} of {org_id}")


@orgs.command("set-role")
@click.argument("org_id")
@click.option("--email", required=True, help="A member's email.")
@click.option("--role", type=ROLES, required=True)
@click.pass_obj
def set_role(obj: CliContext, org_id: str, email: str, role: str) -> None:
    """Change a member's role (an organisation keeps at least one owner)."""
    with accounts_of(obj) as accounts:
        user = accounts.users.by_email(email)
        OrgDirectory(accounts.db).set_role(org_id, user.id, parse_role(role), None)
    click.echo(f"{user.email} is {role} of {org_id}")


@orgs.command("remove-member")
@click.argument("org_id")
@click.option("--email", required=True, help="A member's email.")
@click.pass_obj
def remove_member(obj: CliContext, org_id: str, email: str) -> None:
    """Remove a member (not the last owner)."""
    with accounts_of(obj) as accounts:
        user = accounts.users.by_email(email)
        OrgDirectory(accounts.db).remove_member(org_id, user.id, None)
    click.echo(f"removed {user.email} from {org_id}")
