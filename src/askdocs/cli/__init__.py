"""The ``askdocs`` command line: one module per command group, loaded on demand."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from askdocs.cli.context import CliContext
from askdocs.cli.failure import report
from askdocs.cli.options import add_global_options, global_options, wants_json
from askdocs.errors import AskDocsError

# command name -> "module:attribute"; each module owns one command or group.
COMMANDS: dict[str, str] = {
    "corpus": "askdocs.cli.corpus:corpus",
    "index": "askdocs.cli.engine:index",
    "search": "askdocs.cli.engine:search",
    "eval": "askdocs.cli.engine:eval_command",
    "serve": "askdocs.cli.serve:serve",
    "init": "askdocs.cli.init:init",
    "sites": "askdocs.cli.sites:sites",
    "users": "askdocs.cli.users:users",
    "orgs": "askdocs.cli.orgs:orgs",
    "token": "askdocs.cli.users:token",
    "keys": "askdocs.cli.keys:keys",
    "mcp": "askdocs.cli.mcp:mcp",
    "report": "askdocs.cli.gaps:report",
    "config": "askdocs.cli.config:config",
}


class LazyGroup(click.Group):
    """Imports a command's module only when that command runs (fast ``--help``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name in COMMANDS if self._load(name) is not None)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name)

    @staticmethod
    def _load(name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None  # command group not built yet
            raise
        command = getattr(module, attr)
        assert isinstance(command, click.Command)
        return add_global_options(command)


ENVIRONMENT = """\b
Environment variables (every setting has one; see docs/configuration.md):
  ASKDOCS_DATA_DIR        the data dir (as --data-dir)
  ASKDOCS_CONFIG_FILE     a TOML config file (as --config)
  ASKDOCS_SITES           the sites, as JSON (as [[sites]] in the config file)
  ASKDOCS_SERVER__HOST    address `askdocs serve` binds (as --host)
  ASKDOCS_SERVER__PORT    port `askdocs serve` listens on (as --port)
  ASKDOCS_PORT            port scripts/run serves on (default 8000)
  ASKDOCS_SECTION__KEY    any other setting, e.g. ASKDOCS_ASK__DAILY_VISITOR_LIMIT=30
  ASKDOCS_DATABASE_URL    PostgreSQL for accounts and threads (default SQLite)
  ASKDOCS_REDIS_URL       Redis for rate limits (default SQLite)
  ASKDOCS_INDEX__QDRANT_URL  a Qdrant server instead of the embedded store
  ASKDOCS_JWT_SIGNING_KEY    bearer-token signing key (else one in the database)
  ASKDOCS_MCP_TOKEN       the bearer token `askdocs mcp` sends in server mode
  ASKDOCS_API_URL         the askdocs HTTP API `askdocs mcp` calls in server mode
"""


def _global_group(function: Callable[..., None]) -> click.Group:
    command = click.pass_context(function)
    for option in reversed(global_options(with_env=True)):
        command = _attach(command, option)
    command = click.version_option(package_name="askdocs")(command)
    return click.group(cls=LazyGroup, epilog=ENVIRONMENT)(command)


def _attach(function: Callable[..., None], option: click.Option) -> Callable[..., None]:
    params: list[click.Parameter] = getattr(function, "__click_params__", [])
    params.append(option)
    function.__click_params__ = params  # type: ignore[attr-defined]
    return function


@_global_group
def cli(
    ctx: click.Context,
    data_dir: Path | None,
    config_file: Path | None,
    json: bool,
    verbose: int,
    quiet: int,
) -> None:
    """askdocs: search, Ask AI, an assistant and an MCP server over your Markdown docs.

    Global options may come before or after the command:
    `askdocs search hello --data-dir D` is `askdocs --data-dir D search hello`.
    """
    ctx.obj = CliContext(data_dir=data_dir, config_file=config_file)
    ctx.obj.apply({"json": json, "verbose": verbose, "quiet": quiet})


def main(argv: Sequence[str] | None = None) -> None:
    """The ``askdocs`` entry point: run the command; report an error in one place."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        cli.main(args, prog_name="askdocs", standalone_mode=False)
    except (click.ClickException, click.exceptions.Abort, AskDocsError, OSError) as exc:
        sys.exit(report(exc, wants_json(args)))
