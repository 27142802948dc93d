"""Translate the exception tree into HTTP: status, stable code, no stack traces, no secrets.

Every error body is ``{"error": {"code": ..., "message": ...}}``. Unknown routes are 404
``not_found``, wrong methods 405 ``method_not_allowed`` with an ``Allow`` header naming
every method the path answers (all its routes, not only the first one Starlette matched),
invalid parameters 400 ``invalid_request``, and anything unexpected 500
``internal_error`` with no detail.
"""

from __future__ import annotations

import functools
import logging
import re

from fastapi import FastAPI, Request, routing
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import compile_path

from askdocs.error_codes import ErrorCode
from askdocs.errors import AskDocsError, RateLimited

log = logging.getLogger(__name__)
NO_STORE = {"Cache-Control": "no-store"}
_HTTP_CODES = {
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    413: ErrorCode.BODY_TOO_LARGE,
    415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
}


def error_body(code: ErrorCode, message: str) -> dict[str, dict[str, str]]:
    return {"error": {"code": code, "message": message}}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AskDocsError)
    async def _askdocs_error(request: Request, exc: AskDocsError) -> JSONResponse:
        headers = dict(NO_STORE)
        if isinstance(exc, RateLimited):
            headers["Retry-After"] = str(exc.retry_after)
        if exc.status >= 500:
            log.warning("%s %s -> %s %s", request.method, request.url.path, exc.status, exc.code)
        return JSONResponse(error_body(exc.code, exc.message), exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid request')}"
        return JSONResponse(error_body(ErrorCode.INVALID_REQUEST, message), 400, headers=NO_STORE)

    @app.exception_handler(HTTPException)
    async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, ErrorCode.HTTP_ERROR)
        message = exc.detail if isinstance(exc.detail, str) else "request refused"
        headers = {**NO_STORE, **(exc.headers or {})}
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(request))
        return JSONResponse(error_body(code, message), exc.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse(
            error_body(ErrorCode.INTERNAL_ERROR, "internal error"), 500, headers=NO_STORE
        )


def allowed_methods(request: Request) -> list[str]:
    """Every method the path's routes answer (RFC 9110 ``Allow``), sorted: all the app's
    routes (included routers flattened, as ``/openapi.json`` lists them) of the most
    specific template that matches (``/invitations/accept`` rather than
    ``/invitations/{token}``)."""
    path = request.url.path
    by_template: dict[str, set[str]] = {}
    for context in routing.iter_route_contexts(request.app.routes):
        route = context.original_route
        template = context.path_format or getattr(route, "path_format", None)
        if template is not None and _pattern(template).match(path):
            by_template.setdefault(template, set()).update(getattr(route, "methods", None) or ())
    if not by_template:
        return []
    specific = min(by_template, key=lambda template: template.count("{"))
    return sorted(by_template[specific])


@functools.cache
def _pattern(template: str) -> re.Pattern[str]:
    return compile_path(template)[0]
