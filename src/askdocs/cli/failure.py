"""How a failed command ends: one message, a stable code, and an exit status.

Exit statuses: 2 for usage and configuration errors (bad option, missing folder, bad data
dir, port in use), 1 for every other error, 130 when interrupted. With ``--json`` the error
is one JSON object on stdout, ``{"error": {"code": ..., "message": ...}}``, and the exit
status is the same as without it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import click

from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, ConfigError


@dataclass(frozen=True)
class Failure:
    code: ErrorCode
    message: str
    exit_code: int


def failure_of(exc: BaseException) -> Failure:
    """The code, message and exit status for an error that ends a command."""
    if isinstance(exc, click.exceptions.Abort):
        return Failure(ErrorCode.INTERRUPTED, "interrupted", 130)
    if isinstance(exc, click.UsageError):
        return Failure(ErrorCode.USAGE_ERROR, exc.format_message(), exc.exit_code)
    if isinstance(exc, click.ClickException):
        return Failure(ErrorCode.INVALID_INPUT, exc.format_message(), exc.exit_code)
    if isinstance(exc, ConfigError):
        return Failure(exc.code, exc.message, 2)
    if isinstance(exc, AskDocsError):
        return Failure(exc.code, exc.message, 1)
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return Failure(ErrorCode.OS_ERROR, f"{exc.strerror or exc}{where}", 1)
    raise exc


def report(exc: BaseException, as_json: bool) -> int:
    """Print ``exc`` the way the command line reports errors; returns the exit status."""
    failure = failure_of(exc)
    if as_json:
        body = {"error": {"code": failure.code, "message": failure.message}}
        click.echo(json.dumps(body, ensure_ascii=False))
    elif isinstance(exc, click.ClickException):
        exc.show()  # click's own text, with the usage line for usage errors
    elif isinstance(exc, click.exceptions.Abort):
        click.echo("Aborted.", err=True)
    elif isinstance(exc, AskDocsError) and not isinstance(exc, ConfigError):
        click.echo(f"error [{failure.code}]: {failure.message}", err=True)
    else:  # a configuration error: one line per problem, each read alone
        for line in failure.message.splitlines():
            click.echo(f"error: {line}", err=True)
    return failure.exit_code
