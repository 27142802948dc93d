"""The error-code registry: every code askdocs can answer with, its HTTP status and what it
means, in one place. Code raises an error through a member of ``ErrorCode``, never a string:

    raise NotFound("no such proposal", code=ErrorCode.PROPOSAL_NOT_FOUND)

A new code is one new member here (``NAME = "code", status, "meaning"``; the name is the
code in capitals, ``READER_`` before seed 003's kebab-case reader codes), raised through an
exception class of the same status (``askdocs.errors``), and documented by regenerating
``docs/errors.md`` (``python -m askdocs.error_codes --write``). ``tests/test_error_codes.py``
fails on a code written as a string and on a raise whose class status differs from the
registered one.

Codes marked ``cli`` or ``mcp`` only reach the command line or MCP tools; the status is the
one their error class carries.
"""

from __future__ import annotations

import sys
from enum import StrEnum, unique
from pathlib import Path
from typing import Literal

Surface = Literal["http", "cli", "mcp"]


@unique
class ErrorCode(StrEnum):
    """One registered code: the string itself (a ``str``, so it compares, formats and
    serialises as the code), its HTTP ``status``, its ``meaning`` and its ``surface``."""

    _value_: str
    status: int
    meaning: str
    surface: Surface

    def __new__(cls, code: str, status: int, meaning: str, surface: Surface = "http") -> ErrorCode:
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        member.meaning = meaning
        member.surface = surface
        return member

    # -- families (the exception tree's default codes) --------------------------------------
    CONFIG_ERROR = (
        "config_error",
        500,
        "askdocs is misconfigured (a setting, a root, a config file)",
    )
    INVALID_INPUT = "invalid_input", 400, "a request or argument failed validation"
    NOT_FOUND = "not_found", 404, "no such thing, or not yours to see"
    UNAUTHORIZED = "unauthorized", 401, "missing or invalid credentials"
    FORBIDDEN = "forbidden", 403, "signed in but not allowed"
    CONFLICT = "conflict", 409, "the thing is no longer in a state that allows this"
    RATE_LIMITED = "rate_limited", 429, "a limit was reached; Retry-After says when to retry"
    CORPUS_ERROR = "corpus_error", 500, "a documentation file could not be used"
    UNSAFE_PATH = "unsafe_path", 500, "a symlink, a root escape or not a regular file"
    FILE_TOO_LARGE = "file_too_large", 500, "a documentation file is over corpus.max_markdown_bytes"
    DECODE_ERROR = "decode_error", 500, "a documentation file is not strict UTF-8"
    FRONTMATTER_INVALID = (
        "frontmatter_invalid",
        500,
        "invalid YAML or metadata in a page's front matter",
    )
    UNREADABLE = "unreadable", 500, "a documentation file could not be read"
    FILE_VANISHED = (
        "file_vanished",
        500,
        "a documentation file was removed while it was read (left out)",
    )
    EMBEDDING_UNAVAILABLE = (
        "embedding_unavailable",
        503,
        "the embedding provider failed or timed out",
    )
    VECTOR_STORE_UNAVAILABLE = "vector_store_unavailable", 503, "the vector store failed"
    INDEX_BUILDING = "index_building", 503, "no complete search collection exists yet"
    SERVICE_UNAVAILABLE = "service_unavailable", 503, "a dependency is down"
    MODEL_ERROR = "model_error", 500, "the chat model failed before answering"
    INTERNAL_ERROR = "internal_error", 500, "an unexpected error (no detail is given)"
    # -- HTTP framing -----------------------------------------------------------------------
    INVALID_REQUEST = (
        "invalid_request",
        400,
        "a query, path or body parameter failed validation, or a JSON body has an unknown field",
    )
    METHOD_NOT_ALLOWED = "method_not_allowed", 405, "the route does not take this method"
    BODY_TOO_LARGE = "body_too_large", 413, "the request body is over the limit"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", 415, "the body is not application/json"
    HTTP_ERROR = "http_error", 400, "another HTTP-level refusal"
    # -- sites, search, Ask AI --------------------------------------------------------------
    SITE_NOT_FOUND = (
        "site_not_found",
        404,
        "no such site for this caller (unknown, private or not live)",
    )
    NO_DOCUMENTS = "no_documents", 404, "the site's docs roots hold no pages to search"
    DOCS_ROOT_MISSING = (
        "docs_root_missing",
        503,
        "a docs root of the site is missing or cannot be read",
    )
    INVALID_QUERY = "invalid_query", 400, "q is blank or holds a NUL character"
    SEARCH_CONCURRENCY_LIMIT = (
        "search_concurrency_limit",
        429,
        "this account already runs search.max_concurrent_per_account searches; retry at once",
    )
    SEARCH_BUDGET_EXCEEDED = (
        "search_budget_exceeded",
        429,
        "this account spent its daily search budget (search.daily_budget_per_account)",
    )
    SEARCH_TIMEOUT = (
        "search_timeout",
        503,
        "the search outlived search.timeout_seconds and was stopped",
    )
    CLIENT_CLOSED_REQUEST = (
        "client_closed_request",
        499,
        "the caller went away before the answer; its work stopped (logs and metrics only)",
    )
    ASK_UNAVAILABLE = "ask_unavailable", 404, "Ask AI is off, or the site is not public and live"
    INVALID_SINCE = "invalid_since", 400, "the gaps report's since is not like 24h, 7d or 2w"
    INVALID_FEEDBACK = (
        "invalid_feedback",
        400,
        "an Ask AI feedback body was refused (shape, rating, comment)",
    )
    ANSWER_NOT_FOUND = (
        "answer_not_found",
        404,
        "no answer with this id for this visitor on this site",
    )
    MESSAGE_NOT_FOUND = (
        "message_not_found",
        404,
        "no assistant reply with this id among the caller's threads",
    )
    FEEDBACK_LIMIT = "feedback_limit", 429, "too much feedback from this visitor in a minute"
    FEEDBACK_UNAVAILABLE = (
        "feedback_unavailable",
        503,
        "feedback cannot be stored (recording off or no database)",
    )
    MODEL_UNAVAILABLE = (
        "model_unavailable",
        503,
        "Ask AI's chat model failed before answering; the body lists the sources found",
    )
    INVALID_JSON = "invalid_json", 400, "the body is not valid JSON"
    INVALID_BODY = (
        "invalid_body",
        400,
        "the body is not the documented object (an unknown field too)",
    )
    EMPTY = "empty", 400, "no question, or an empty one"
    TOO_MANY_MESSAGES = "too_many_messages", 400, "more messages than ask.max_messages"
    MUST_START_WITH_USER = (
        "must_start_with_user",
        400,
        "the conversation does not start with a user message",
    )
    MUST_END_WITH_USER = (
        "must_end_with_user",
        400,
        "the conversation does not end with a user message",
    )
    QUESTION_TOO_LONG = "question_too_long", 400, "the question is over ask.max_question_chars"
    MESSAGE_TOO_LONG = "message_too_long", 400, "a message is over its length limit"
    INVALID_ROLE = "invalid_role", 400, "a role that is not allowed here"
    INVALID_TEXT = "invalid_text", 400, "text holds a NUL or an unpaired surrogate"
    INVALID_LOCALE = "invalid_locale", 400, "locale does not look like en or pt-BR"
    BURST_LIMIT = "burst_limit", 429, "too many questions from this visitor in a minute"
    VISITOR_DAILY_LIMIT = (
        "visitor_daily_limit",
        429,
        "this visitor's questions for today are used up",
    )
    SITE_DAILY_LIMIT = "site_daily_limit", 429, "this site's questions for today are used up"
    GLOBAL_DAILY_LIMIT = "global_daily_limit", 429, "all sites' questions for today are used up"
    LIMITS_UNAVAILABLE = (
        "limits_unavailable",
        503,
        "the limits store cannot be reached (fails closed)",
    )
    BOT_CHECK_FAILED = "bot_check_failed", 403, "the bot-check token was missing or refused"
    BOT_CHECK_UNAVAILABLE = "bot_check_unavailable", 503, "the bot-check service cannot be reached"
    BOT_CHECK_OFF = (
        "bot_check_off",
        404,
        "the Turnstile page or an ALTCHA challenge is asked for without it",
    )
    BOT_CHECK_REQUIRED = (
        "bot_check_required",
        403,
        "Ask AI from another machine needs a bot check, and none is configured",
    )
    INVALID_ORIGIN = "invalid_origin", 400, "origin is not one of this site's hostnames"
    EMBEDDING_MODEL_MISSING = (
        "embedding_model_missing",
        503,
        "the local embedding model's package is not installed (the message gives the pip command)",
    )
    EMBEDDING_MODEL_UNKNOWN = (
        "embedding_model_unknown",
        500,
        "embedding.model names no model the local provider runs (the message lists them)",
    )
    EMBEDDING_MODEL_INVALID = (
        "embedding_model_invalid",
        503,
        "the embedding model files are damaged",
    )
    EMBEDDING_BAD_RESPONSE = (
        "embedding_bad_response",
        503,
        "the embedding provider answered something unusable",
    )
    EMBEDDING_DIMENSION_MISMATCH = (
        "embedding_dimension_mismatch",
        503,
        "embeddings of another size than the collection's",
    )
    EMBEDDING_AUTH_FAILED = (
        "embedding_auth_failed",
        503,
        "the embedding provider refused the API key",
    )
    EMBEDDING_RATE_LIMITED = (
        "embedding_rate_limited",
        503,
        "the embedding provider rate-limited askdocs",
    )
    EMBEDDING_UNREACHABLE = "embedding_unreachable", 503, "the embedding provider cannot be reached"
    EMBEDDING_TIMEOUT = "embedding_timeout", 503, "the embedding provider did not answer in time"
    EMBEDDING_HTTP_ERROR = (
        "embedding_http_error",
        503,
        "the embedding provider answered an HTTP error",
    )
    DATABASE_UNAVAILABLE = "database_unavailable", 503, "the database cannot be reached in time"
    # -- the docs reader (seed 003's kebab-case) ---------------------------------------------
    READER_ARTICLE_NOT_FOUND = "article-not-found", 404, "no readable article with that slug"
    READER_ASSET_NOT_FOUND = "asset-not-found", 404, "no such image referenced by the article"
    READER_INVALID_SLUG = "invalid-slug", 400, "the slug is not a valid article id"
    READER_INVALID_LOCALE = "invalid-locale", 400, "the locale is not one of corpus.locales"
    READER_INVALID_ASSET_ID = "invalid-asset-id", 400, "the asset id is not a valid asset id"
    READER_DOCS_UNAVAILABLE = (
        "docs-unavailable",
        503,
        "the documentation cannot be read or rendered right now",
    )
    # -- sign-in, users, organisations ------------------------------------------------------
    MISSING_TOKEN = "missing_token", 401, "no bearer token or session"
    INVALID_TOKEN = "invalid_token", 401, "the token does not verify"
    APPROVAL_REQUIRED = (
        "approval_required",
        403,
        "an MCP token applies a change only with the person's approval",
    )
    APPROVAL_INVALID = (
        "approval_invalid",
        403,
        "the approval proof is invalid, expired or for another change",
    )
    TOKEN_EXPIRED = "token_expired", 401, "the token expired"
    UNKNOWN_USER = "unknown_user", 401, "the token names a user that no longer exists"
    TOKEN_REVOKED = (
        "token_revoked",
        401,
        "the token predates a password change or an end of all sign-ins",
    )
    SESSION_EXPIRED = "session_expired", 401, "the session expired or was signed out"
    SESSION_NOT_FOUND = "session_not_found", 404, "no such session of this user"
    CSRF_FAILED = "csrf_failed", 403, "a cookie-authenticated change without the CSRF token"
    INVALID_CREDENTIALS = "invalid_credentials", 401, "wrong email or password"
    SIGN_IN_LIMITED = "sign_in_limited", 429, "too many sign-in attempts"
    WEAK_PASSWORD = "weak_password", 400, "the password is too short or too common"
    INVALID_EMAIL = "invalid_email", 400, "not an email address"
    INVALID_NAME = "invalid_name", 400, "an empty or overlong name"
    USER_EXISTS = "user_exists", 400, "a user with that email exists"
    USER_NOT_FOUND = "user_not_found", 404, "no such user in this organisation"
    MEMBER_NOT_FOUND = "member_not_found", 404, "no such member"
    LAST_OWNER = "last_owner", 400, "an organisation keeps at least one owner"
    ORGANISATION_NOT_FOUND = "organisation_not_found", 404, "no such organisation of the caller"
    INVITATION_INVALID = "invitation_invalid", 404, "the invitation is unknown, used or expired"
    RESET_LINK_INVALID = (
        "reset_link_invalid",
        404,
        "the password-reset link is unknown, used or expired",
    )
    INVITATION_SIGN_IN_REQUIRED = (
        "invitation_sign_in_required",
        401,
        "sign in as the invited email to accept",
    )
    OIDC_DISABLED = "oidc_disabled", 404, "no OIDC provider is configured"
    OIDC_UNAVAILABLE = "oidc_unavailable", 503, "the OIDC provider cannot be reached"
    OIDC_NO_ACCOUNT = "oidc_no_account", 401, "no account is linked to this OIDC identity"
    OIDC_NOT_LINKED = (
        "oidc_not_linked",
        401,
        "an account has this email but is not linked to this sign-on",
    )
    # single sign-on failures reach the browser as /sign-in?error=<code> (a 303 redirect)
    OIDC_STATE_MISMATCH = (
        "oidc_state_mismatch",
        401,
        "the sign-on callback's state is missing, altered or expired",
    )
    OIDC_REFUSED = "oidc_refused", 401, "the OpenID provider answered with an error"
    OIDC_EXCHANGE_FAILED = (
        "oidc_exchange_failed",
        401,
        "the OpenID provider refused the code or its userinfo",
    )
    OIDC_INVALID_TOKEN = (
        "oidc_invalid_token",
        401,
        "the id token's signature, issuer, audience or nonce is wrong",
    )
    OIDC_TOKEN_EXPIRED = "oidc_token_expired", 401, "the id token has expired"
    OIDC_NO_EMAIL = "oidc_no_email", 401, "the provider shared no verified email address"
    OIDC_DOMAIN_NOT_ALLOWED = (
        "oidc_domain_not_allowed",
        401,
        "the email's domain is not in auth.oidc.allowed_email_domains",
    )
    # -- assistant and admin operations ----------------------------------------------------
    EMPTY_TITLE = "empty_title", 400, "a thread title that is blank"
    EMPTY_MESSAGE = "empty_message", 400, "an assistant message that is blank"
    THREAD_NOT_FOUND = "thread_not_found", 404, "no such thread of this user"
    ADMIN_REQUIRED = (
        "admin_required",
        403,
        "the operation needs an (organisation or platform) admin",
    )
    ORGANISATION_REQUIRED = (
        "organisation_required",
        400,
        "several organisations: name one with organisationId",
    )
    TOOL_NOT_GRANTED = "tool_not_granted", 403, "the caller holds no grant for this tool"
    GRANT_NOT_HELD = "grant_not_held", 400, "a grant the assigner does not hold themselves"
    UNKNOWN_OPERATION = "unknown_operation", 404, "no admin operation of that name"
    INVALID_ARGUMENT = (
        "invalid_argument",
        400,
        "an argument failed validation, or is an unknown field",
    )
    CONFIRMATION_INVALID = (
        "confirmation_invalid",
        403,
        "the confirmation token does not match this change",
    )
    PROPOSAL_NOT_FOUND = "proposal_not_found", 404, "no such stored proposal of this user"
    PROPOSAL_EXPIRED = "proposal_expired", 404, "the stored proposal expired before it was applied"
    PROPOSAL_SETTLED = "proposal_settled", 409, "the proposal was already applied or discarded"
    NO_CHANGES = "no_changes", 400, "every given field already has that value"
    SITE_EXISTS = "site_exists", 400, "a site with that id exists"
    SITE_NAME_TAKEN = "site_name_taken", 400, "another site of the organisation has that name"
    HOSTNAME_TAKEN = "hostname_taken", 400, "another site answers on that hostname"
    INVALID_PATH = "invalid_path", 400, "a page path outside the site's roots or not Markdown"
    PAGE_NOT_FOUND = "page_not_found", 404, "no such page"
    PROVIDER_EXISTS = "provider_exists", 400, "a provider with that name exists"
    PROVIDER_NOT_FOUND = "provider_not_found", 404, "no such provider"
    ENDPOINT_NOT_ALLOWED = (
        "endpoint_not_allowed",
        400,
        "a provider test to a private, loopback or link-local address (SSRF guard)",
    )
    REINDEX_RATE_LIMITED = (
        "reindex_rate_limited",
        429,
        "admin.max_executions_per_hour re-indexes reached",
    )
    # -- command line and MCP only --------------------------------------------------------
    NOT_INDEXED = "not_indexed", 404, "nothing indexed yet: run askdocs index PATH", "cli"
    PORT_UNAVAILABLE = "port_unavailable", 500, "askdocs serve cannot bind its port", "cli"
    SECRETS_KEY_MISMATCH = (
        "secrets_key_mismatch",
        500,
        "the keys in the database were encrypted with another secrets key (give every replica "
        "the same admin.secrets_key)",
        "cli",
    )
    KEY_CONFIGURED = (
        "key_configured",
        500,
        "askdocs keys rotate of a key the configuration sets",
        "cli",
    )
    UNKNOWN_KEY = "unknown_key", 400, "askdocs keys names no such key", "cli"
    HOST_UNAVAILABLE = (
        "host_unavailable",
        500,
        "askdocs serve's address is not one of this machine's",
        "cli",
    )
    INDEX_FAILED = "index_failed", 503, "MCP local mode's background index failed", "mcp"
    SECTION_NOT_FOUND = "section_not_found", 404, "no such section in the page", "mcp"
    PROPOSAL_UNKNOWN = "proposal_unknown", 400, "no pending proposal with that id", "mcp"
    ASK_SITE_UNSUPPORTED = (
        "ask_site_unsupported",
        400,
        "server mode asks the server's own site only",
        "mcp",
    )
    API_UNREACHABLE = "api_unreachable", 503, "the askdocs API cannot be reached", "mcp"
    API_TIMEOUT = "api_timeout", 503, "the askdocs API did not answer in time", "mcp"
    API_BAD_RESPONSE = "api_bad_response", 503, "the askdocs API answered something unusable", "mcp"
    API_ERROR = "api_error", 503, "the askdocs API failed", "mcp"
    USAGE_ERROR = "usage_error", 400, "a bad command-line option or argument (exit 2)", "cli"
    INTERRUPTED = "interrupted", 500, "the command was interrupted (exit 130)", "cli"
    OS_ERROR = "os_error", 500, "the operating system refused a file operation", "cli"


CODES: tuple[ErrorCode, ...] = tuple(ErrorCode)
BY_CODE: dict[str, ErrorCode] = {entry.value: entry for entry in CODES}

# The codes each part of the HTTP app can answer with. ``/openapi.json`` declares, for every
# operation, the statuses of the parts it uses (``askdocs.server.openapi``): "parameters" and
# "body" by the operation's shape, the others by the route's dependencies.
PARTS: dict[str, tuple[ErrorCode, ...]] = {
    "parameters": (ErrorCode.INVALID_REQUEST,),
    "body": (
        ErrorCode.INVALID_REQUEST,
        ErrorCode.INVALID_JSON,
        ErrorCode.INVALID_BODY,
        ErrorCode.BODY_TOO_LARGE,
        ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ),
    "signed_in": (
        ErrorCode.MISSING_TOKEN,
        ErrorCode.INVALID_TOKEN,
        ErrorCode.TOKEN_EXPIRED,
        ErrorCode.UNKNOWN_USER,
        ErrorCode.TOKEN_REVOKED,
        ErrorCode.SESSION_EXPIRED,
        ErrorCode.CSRF_FAILED,
        ErrorCode.DATABASE_UNAVAILABLE,
    ),
    "credentials": (
        ErrorCode.INVALID_TOKEN,
        ErrorCode.TOKEN_EXPIRED,
        ErrorCode.UNKNOWN_USER,
        ErrorCode.TOKEN_REVOKED,
        ErrorCode.SESSION_EXPIRED,
        ErrorCode.DATABASE_UNAVAILABLE,
    ),
    "site": (ErrorCode.SITE_NOT_FOUND, ErrorCode.INVALID_ORIGIN),
    "engine": (
        ErrorCode.NO_DOCUMENTS,
        ErrorCode.DOCS_ROOT_MISSING,
        ErrorCode.INVALID_QUERY,
        ErrorCode.INDEX_BUILDING,
        ErrorCode.EMBEDDING_UNAVAILABLE,
        ErrorCode.EMBEDDING_MODEL_MISSING,
        ErrorCode.VECTOR_STORE_UNAVAILABLE,
        ErrorCode.SERVICE_UNAVAILABLE,
    ),
    "search_execution": (
        ErrorCode.SEARCH_CONCURRENCY_LIMIT,
        ErrorCode.SEARCH_BUDGET_EXCEEDED,
        ErrorCode.LIMITS_UNAVAILABLE,
        ErrorCode.SEARCH_TIMEOUT,
        ErrorCode.CLIENT_CLOSED_REQUEST,
    ),
    "ask": (
        ErrorCode.ASK_UNAVAILABLE,
        ErrorCode.EMPTY,
        ErrorCode.TOO_MANY_MESSAGES,
        ErrorCode.MUST_START_WITH_USER,
        ErrorCode.MUST_END_WITH_USER,
        ErrorCode.QUESTION_TOO_LONG,
        ErrorCode.MESSAGE_TOO_LONG,
        ErrorCode.INVALID_ROLE,
        ErrorCode.INVALID_TEXT,
        ErrorCode.INVALID_LOCALE,
        ErrorCode.MODEL_UNAVAILABLE,
    ),
    "limits": (
        ErrorCode.BURST_LIMIT,
        ErrorCode.VISITOR_DAILY_LIMIT,
        ErrorCode.SITE_DAILY_LIMIT,
        ErrorCode.GLOBAL_DAILY_LIMIT,
        ErrorCode.LIMITS_UNAVAILABLE,
    ),
    "bot_check": (
        ErrorCode.BOT_CHECK_FAILED,
        ErrorCode.BOT_CHECK_REQUIRED,
        ErrorCode.BOT_CHECK_OFF,
        ErrorCode.BOT_CHECK_UNAVAILABLE,
    ),
    "feedback": (
        ErrorCode.INVALID_FEEDBACK,
        ErrorCode.ANSWER_NOT_FOUND,
        ErrorCode.FEEDBACK_LIMIT,
        ErrorCode.FEEDBACK_UNAVAILABLE,
    ),
    "reader": (
        ErrorCode.SITE_NOT_FOUND,
        ErrorCode.READER_ARTICLE_NOT_FOUND,
        ErrorCode.READER_ASSET_NOT_FOUND,
        ErrorCode.READER_INVALID_SLUG,
        ErrorCode.READER_INVALID_LOCALE,
        ErrorCode.READER_INVALID_ASSET_ID,
        ErrorCode.READER_DOCS_UNAVAILABLE,
    ),
    "assistant": (
        ErrorCode.INVALID_ARGUMENT,
        ErrorCode.EMPTY_TITLE,
        ErrorCode.EMPTY_MESSAGE,
        ErrorCode.INVALID_TEXT,
        ErrorCode.MESSAGE_TOO_LONG,
        ErrorCode.TOO_MANY_MESSAGES,
        ErrorCode.INVALID_ROLE,
        ErrorCode.THREAD_NOT_FOUND,
        ErrorCode.MESSAGE_NOT_FOUND,
        ErrorCode.FORBIDDEN,
        ErrorCode.ADMIN_REQUIRED,
        ErrorCode.TOOL_NOT_GRANTED,
        ErrorCode.MODEL_UNAVAILABLE,
        ErrorCode.DATABASE_UNAVAILABLE,
    ),
    "admin": (
        ErrorCode.INVALID_ARGUMENT,
        ErrorCode.ORGANISATION_REQUIRED,
        ErrorCode.GRANT_NOT_HELD,
        ErrorCode.NO_CHANGES,
        ErrorCode.SITE_EXISTS,
        ErrorCode.SITE_NAME_TAKEN,
        ErrorCode.HOSTNAME_TAKEN,
        ErrorCode.INVALID_PATH,
        ErrorCode.PROVIDER_EXISTS,
        ErrorCode.ENDPOINT_NOT_ALLOWED,
        ErrorCode.INVALID_SINCE,
        ErrorCode.ADMIN_REQUIRED,
        ErrorCode.TOOL_NOT_GRANTED,
        ErrorCode.CONFIRMATION_INVALID,
        ErrorCode.APPROVAL_REQUIRED,
        ErrorCode.APPROVAL_INVALID,
        ErrorCode.FORBIDDEN,
        ErrorCode.UNKNOWN_OPERATION,
        ErrorCode.ORGANISATION_NOT_FOUND,
        ErrorCode.SITE_NOT_FOUND,
        ErrorCode.PAGE_NOT_FOUND,
        ErrorCode.PROVIDER_NOT_FOUND,
        ErrorCode.PROPOSAL_NOT_FOUND,
        ErrorCode.PROPOSAL_EXPIRED,
        ErrorCode.NOT_FOUND,
        ErrorCode.PROPOSAL_SETTLED,
        ErrorCode.REINDEX_RATE_LIMITED,
        ErrorCode.DATABASE_UNAVAILABLE,
    ),
    "accounts": (
        ErrorCode.INVALID_ARGUMENT,
        ErrorCode.WEAK_PASSWORD,
        ErrorCode.INVALID_EMAIL,
        ErrorCode.INVALID_NAME,
        ErrorCode.USER_EXISTS,
        ErrorCode.LAST_OWNER,
        ErrorCode.INVALID_CREDENTIALS,
        ErrorCode.INVITATION_SIGN_IN_REQUIRED,
        ErrorCode.OIDC_NO_ACCOUNT,
        ErrorCode.OIDC_NOT_LINKED,
        ErrorCode.ADMIN_REQUIRED,
        ErrorCode.FORBIDDEN,
        ErrorCode.USER_NOT_FOUND,
        ErrorCode.MEMBER_NOT_FOUND,
        ErrorCode.ORGANISATION_NOT_FOUND,
        ErrorCode.INVITATION_INVALID,
        ErrorCode.RESET_LINK_INVALID,
        ErrorCode.SESSION_NOT_FOUND,
        ErrorCode.OIDC_DISABLED,
        ErrorCode.SIGN_IN_LIMITED,
        ErrorCode.OIDC_UNAVAILABLE,
        ErrorCode.DATABASE_UNAVAILABLE,
    ),
}

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "errors.md"
BEGIN = "<!-- BEGIN generated by `python -m askdocs.error_codes --write` -->"
END = "<!-- END generated -->"


def table() -> str:
    rows = [
        f"| `{e.value}` | {e.status} | {e.meaning}"
        + (f" ({e.surface} only)" if e.surface != "http" else "")
        + " |"
        for e in CODES
    ]
    return "\n".join(["| code | status | meaning |", "|---|---|---|", *rows])


def render(current: str) -> str:
    """``current`` with the generated block replaced (appended when absent)."""
    block = f"{BEGIN}\n\n{table()}\n\n{END}"
    if BEGIN in current and END in current:
        head, rest = current.split(BEGIN, 1)
        return head + block + rest.split(END, 1)[1]
    return current.rstrip("\n") + "\n\n## Every error code\n\n" + block + "\n"


def main(argv: list[str]) -> int:
    text = render(DOC.read_text(encoding="utf-8"))
    if "--write" in argv:
        DOC.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
