"""The ``askdocs`` command line: one module per command group, loaded on demand."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import click

from askdocs.cli.context import CliContext
from askdocs.errors import AskDocsError, ConfigError

# command name -> "module:attribute"; each module owns one command or group.
COMMANDS: dict[str, str] = {
    "corpus": "askdocs.cli.corpus:corpus",
    "index": "askdocs.cli.engine:index",
    "search": "askdocs.cli.engine:search",
    "eval": "askdocs.cli.engine:eval_command",
    "serve": "askdocs.cli.serve:serve",
    "users": "askdocs.cli.users:users",
    "token": "askdocs.cli.users:token",
    "mcp": "askdocs.cli.mcp:mcp",
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
        return command


@click.group(cls=LazyGroup)
@click.option(
    "--data-dir",
    type=click.Path(path_type=Path, file_okay=False),
    envvar="ASKDOCS_DATA_DIR",
    help="Where indexes, databases and keys live (default ~/.local/share/askdocs).",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, dir_okay=False),
    envvar="ASKDOCS_CONFIG_FILE",
    help="A TOML config file (see docs/configuration.md).",
)
@click.version_option(package_name="askdocs")
@click.pass_context
def cli(ctx: click.Context, data_dir: Path | None, config_file: Path | None) -> None:
    """askdocs: search, Ask AI, an assistant and an MCP server over your Markdown docs."""
    ctx.obj = CliContext(data_dir=data_dir, config_file=config_file)


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except AskDocsError as exc:
        click.echo(f"error [{exc.code}]: {exc}", err=True)
        sys.exit(1)
