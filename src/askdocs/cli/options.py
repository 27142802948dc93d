"""Global options, accepted before or after the subcommand.

``askdocs --data-dir D search x`` and ``askdocs search x --data-dir D`` mean the same. The
group declares the options (with their environment variables); every subcommand gets a copy
without environment variables, whose values, when given, override the group's. A command
that has its own ``--json`` keeps it, and the global ``--json`` turns it on.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from askdocs.cli.context import CliContext

GLOBAL_NAMES = ("data_dir", "config_file", "json", "verbose", "quiet")


def global_options(*, with_env: bool) -> list[click.Option]:
    """The global options; the group's read the environment, subcommands' copies do not."""
    return [
        click.Option(
            ["--data-dir"],
            type=click.Path(path_type=Path),
            envvar="ASKDOCS_DATA_DIR" if with_env else None,
            help="Where indexes, databases and keys live (default ~/.local/share/askdocs).",
        ),
        click.Option(
            ["--config", "config_file"],
            type=click.Path(path_type=Path, dir_okay=False),
            envvar="ASKDOCS_CONFIG_FILE" if with_env else None,
            help="A TOML config file (see docs/configuration.md).",
        ),
        click.Option(
            ["--json", "json"],
            is_flag=True,
            default=False,
            help="Machine-readable output; errors as one JSON object on stdout.",
        ),
        click.Option(["-v", "--verbose"], count=True, help="More log output (-vv: debug records)."),
        click.Option(["-q", "--quiet"], count=True, help="Only warnings and errors; no progress."),
    ]


def add_global_options(command: click.Command) -> click.Command:
    """A copy of ``command`` (and, for a group, of its subcommands) with the global options.

    The command object its module defines is left as it is."""
    taken = {opt for param in command.params for opt in param.opts}
    added = [p for p in global_options(with_env=False) if not taken & set(p.opts)]
    clone = copy.copy(command)
    clone.short_help = command.short_help or summary(command.help)
    clone.params = [*command.params, *added]
    clone.callback = _merging(command.callback, {p.name for p in added if p.name}, taken)
    if isinstance(command, click.Group) and isinstance(clone, click.Group):
        clone.commands = {name: add_global_options(sub) for name, sub in command.commands.items()}
    return clone


def summary(help_text: str | None) -> str | None:
    """A command's first paragraph in one line: what ``--help`` lists, never cut with "…"."""
    if not help_text:
        return None
    first = inspect.cleandoc(help_text).split("\n\n", 1)[0]
    return " ".join(first.replace("\b", "").split())


def _merging(
    callback: Callable[..., Any] | None, added: set[str], taken: set[str]
) -> Callable[..., Any]:
    own_json = "--json" in taken

    def merged(*args: Any, **kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name in added if name in kwargs}
        ctx = click.get_current_context()
        obj = ctx.find_object(CliContext)
        if obj is None:
            obj = ctx.obj = CliContext()
        if own_json and kwargs.get("as_json"):
            values["json"] = True
        obj.apply(values)
        if own_json and obj.json:
            kwargs["as_json"] = True
        return callback(*args, **kwargs) if callback is not None else None

    if callback is not None:
        functools.update_wrapper(merged, callback)
    return merged


def wants_json(args: Sequence[str]) -> bool:
    """Whether ``--json`` is among the options (before a ``--``), wherever it stands."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False
