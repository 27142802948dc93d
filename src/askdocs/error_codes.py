"""The error-code registry: every code askdocs can answer with, its HTTP status and what it
means, in one place. ``docs/errors.md``'s code table is generated from it
(``python -m askdocs.error_codes --write``), and a test checks that every code the source
raises is registered. Reader codes keep seed 003's kebab-case spelling.

Codes marked ``cli`` or ``mcp`` only reach the command line or MCP tools; the status is the
one their error class carries.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ErrorCode:
    code: str
    status: int
    meaning: str
    surface: str = "http"  # http, cli or mcp


def _c(code: str, status: int, meaning: str, surface: str = "http") -> ErrorCode:
    return ErrorCode(code, status, meaning, surface)


CODES: tuple[ErrorCode, ...] = (
    # -- families (the exception tree's default codes) --------------------------------------
    _c("config_error", 500, "askdocs is misconfigured (a setting, a root, a config file)"),
    _c("invalid_input", 400, "a request or argument failed validation"),
    _c("not_found", 404, "no such thing, or not yours to see"),
    _c("unauthorized", 401, "missing or invalid credentials"),
    _c("forbidden", 403, "signed in but not allowed"),
    _c("conflict", 409, "the thing is no longer in a state that allows this"),
    _c("rate_limited", 429, "a limit was reached; Retry-After says when to retry"),
    _c("corpus_error", 500, "a documentation file could not be used"),
    _c("unsafe_path", 500, "a symlink, a root escape or not a regular file"),
    _c("file_too_large", 500, "a documentation file is over corpus.max_markdown_bytes"),
    _c("decode_error", 500, "a documentation file is not strict UTF-8"),
    _c("frontmatter_invalid", 500, "invalid YAML or metadata in a page's front matter"),
    _c("unreadable", 500, "a documentation file could not be read"),
    _c("file_vanished", 500, "a documentation file was removed while it was read (left out)"),
    _c("embedding_unavailable", 503, "the embedding provider failed or timed out"),
    _c("vector_store_unavailable", 503, "the vector store failed"),
    _c("index_building", 503, "no complete search collection exists yet"),
    _c("service_unavailable", 503, "a dependency is down"),
    _c("model_error", 500, "the chat model failed before answering"),
    _c("internal_error", 500, "an unexpected error (no detail is given)"),
    # -- HTTP framing -----------------------------------------------------------------------
    _c(
        "invalid_request",
        400,
        "a query, path or body parameter failed validation, or a JSON body has an unknown field",
    ),
    _c("method_not_allowed", 405, "the route does not take this method"),
    _c("body_too_large", 413, "the request body is over the limit"),
    _c("unsupported_media_type", 415, "the body is not application/json"),
    _c("http_error", 400, "another HTTP-level refusal"),
    # -- sites, search, Ask AI --------------------------------------------------------------
    _c("site_not_found", 404, "no such site for this caller (unknown, private or not live)"),
    _c("no_documents", 404, "the site's docs roots hold no pages to search"),
    _c("invalid_query", 400, "q is blank or holds a NUL character"),
    _c("ask_unavailable", 404, "Ask AI is off, or the site is not public and live"),
    _c("invalid_since", 400, "the gaps report's since is not like 24h, 7d or 2w"),
    _c("invalid_feedback", 400, "an Ask AI feedback body was refused (shape, rating, comment)"),
    _c("answer_not_found", 404, "no answer with this id for this visitor on this site"),
    _c("message_not_found", 404, "no assistant reply with this id among the caller's threads"),
    _c("feedback_limit", 429, "too much feedback from this visitor in a minute"),
    _c("feedback_unavailable", 503, "feedback cannot be stored (recording off or no database)"),
    _c(
        "model_unavailable",
        503,
        "Ask AI's chat model failed before answering; the body lists the sources found",
    ),
    _c("invalid_json", 400, "the body is not valid JSON"),
    _c("invalid_body", 400, "the body is not the documented object (an unknown field too)"),
    _c("empty", 400, "no question, or an empty one"),
    _c("too_many_messages", 400, "more messages than ask.max_messages"),
    _c("must_start_with_user", 400, "the conversation does not start with a user message"),
    _c("must_end_with_user", 400, "the conversation does not end with a user message"),
    _c("question_too_long", 400, "the question is over ask.max_question_chars"),
    _c("message_too_long", 400, "a message is over its length limit"),
    _c("invalid_role", 400, "a role that is not allowed here"),
    _c("invalid_text", 400, "text holds a NUL or an unpaired surrogate"),
    _c("invalid_locale", 400, "locale does not look like en or pt-BR"),
    _c("burst_limit", 429, "too many questions from this visitor in a minute"),
    _c("visitor_daily_limit", 429, "this visitor's questions for today are used up"),
    _c("site_daily_limit", 429, "this site's questions for today are used up"),
    _c("global_daily_limit", 429, "all sites' questions for today are used up"),
    _c("limits_unavailable", 503, "the limits store cannot be reached (fails closed)"),
    _c("bot_check_failed", 403, "the bot-check token was missing or refused"),
    _c("bot_check_unavailable", 503, "the bot-check service cannot be reached"),
    _c("bot_check_off", 404, "the Turnstile page is asked for without Turnstile configured"),
    _c(
        "bot_check_required",
        403,
        "Ask AI from another machine needs a bot check, and none is configured",
    ),
    _c("invalid_origin", 400, "origin is not one of this site's hostnames"),
    _c("embedding_model_missing", 503, "the bundled embedding model is not installed"),
    _c("embedding_model_invalid", 503, "the embedding model files are damaged"),
    _c("embedding_bad_response", 503, "the embedding provider answered something unusable"),
    _c("embedding_dimension_mismatch", 503, "embeddings of another size than the collection's"),
    _c("embedding_auth_failed", 503, "the embedding provider refused the API key"),
    _c("embedding_rate_limited", 503, "the embedding provider rate-limited askdocs"),
    _c("embedding_http_error", 503, "the embedding provider answered an HTTP error"),
    _c("database_unavailable", 503, "the database cannot be reached in time"),
    # -- the docs reader (seed 003's kebab-case) ---------------------------------------------
    _c("article-not-found", 404, "no readable article with that slug"),
    _c("asset-not-found", 404, "no such image referenced by the article"),
    _c("invalid-slug", 400, "the slug is not a valid article id"),
    _c("invalid-locale", 400, "the locale is not one of corpus.locales"),
    _c("invalid-asset-id", 400, "the asset id is not a valid asset id"),
    _c("docs-unavailable", 503, "the documentation cannot be read or rendered right now"),
    # -- sign-in, users, organisations ------------------------------------------------------
    _c("missing_token", 401, "no bearer token or session"),
    _c("invalid_token", 401, "the token does not verify"),
    _c("approval_required", 403, "an MCP token applies a change only with the person's approval"),
    _c("approval_invalid", 403, "the approval proof is invalid, expired or for another change"),
    _c("token_expired", 401, "the token expired"),
    _c("unknown_user", 401, "the token names a user that no longer exists"),
    _c("session_expired", 401, "the session expired or was signed out"),
    _c("session_not_found", 404, "no such session of this user"),
    _c("csrf_failed", 403, "a cookie-authenticated change without the CSRF token"),
    _c("invalid_credentials", 401, "wrong email or password"),
    _c("sign_in_limited", 429, "too many sign-in attempts"),
    _c("weak_password", 400, "the password is too short or too common"),
    _c("invalid_email", 400, "not an email address"),
    _c("invalid_name", 400, "an empty or overlong name"),
    _c("user_exists", 400, "a user with that email exists"),
    _c("user_not_found", 404, "no such user in this organisation"),
    _c("member_not_found", 404, "no such member"),
    _c("last_owner", 400, "an organisation keeps at least one owner"),
    _c("organisation_not_found", 404, "no such organisation of the caller"),
    _c("invitation_invalid", 404, "the invitation is unknown, used or expired"),
    _c("invitation_sign_in_required", 401, "sign in as the invited email to accept"),
    _c("oidc_disabled", 404, "no OIDC provider is configured"),
    _c("oidc_unavailable", 503, "the OIDC provider cannot be reached"),
    _c("oidc_no_account", 401, "no account is linked to this OIDC identity"),
    # single sign-on failures reach the browser as /sign-in?error=<code> (a 303 redirect)
    _c("oidc_state_mismatch", 401, "the sign-on callback's state is missing, altered or expired"),
    _c("oidc_refused", 401, "the OpenID provider answered with an error"),
    _c("oidc_exchange_failed", 401, "the OpenID provider refused the code or its userinfo"),
    _c("oidc_invalid_token", 401, "the id token's signature, issuer, audience or nonce is wrong"),
    _c("oidc_token_expired", 401, "the id token has expired"),
    _c("oidc_no_email", 401, "the provider shared no verified email address"),
    _c(
        "oidc_domain_not_allowed",
        401,
        "the email's domain is not in auth.oidc.allowed_email_domains",
    ),
    # -- assistant and admin operations ----------------------------------------------------
    _c("empty_title", 400, "a thread title that is blank"),
    _c("thread_not_found", 404, "no such thread of this user"),
    _c("admin_required", 403, "the operation needs an (organisation or platform) admin"),
    _c("organisation_required", 400, "several organisations: name one with organisationId"),
    _c("tool_not_granted", 403, "the caller holds no grant for this tool"),
    _c("grant_not_held", 400, "a grant the assigner does not hold themselves"),
    _c("unknown_operation", 404, "no admin operation of that name"),
    _c("invalid_argument", 400, "an argument failed validation, or is an unknown field"),
    _c("confirmation_invalid", 403, "the confirmation token does not match this change"),
    _c("proposal_not_found", 404, "no such stored proposal of this user"),
    _c("proposal_expired", 404, "the stored proposal expired before it was applied"),
    _c("proposal_settled", 409, "the proposal was already applied or discarded"),
    _c("no_changes", 400, "every given field already has that value"),
    _c("site_exists", 400, "a site with that id exists"),
    _c("site_name_taken", 400, "another site of the organisation has that name"),
    _c("hostname_taken", 400, "another site answers on that hostname"),
    _c("invalid_path", 400, "a page path outside the site's roots or not Markdown"),
    _c("page_not_found", 404, "no such page"),
    _c("provider_exists", 400, "a provider with that name exists"),
    _c("provider_not_found", 404, "no such provider"),
    _c(
        "endpoint_not_allowed",
        400,
        "a provider test to a private, loopback or link-local address (SSRF guard)",
    ),
    _c("reindex_rate_limited", 429, "admin.max_executions_per_hour re-indexes reached"),
    # -- command line and MCP only --------------------------------------------------------
    _c("not_indexed", 404, "nothing indexed yet: run askdocs index PATH", "cli"),
    _c("port_unavailable", 500, "askdocs serve cannot bind its port", "cli"),
    _c("index_failed", 503, "MCP local mode's background index failed", "mcp"),
    _c("section_not_found", 404, "no such section in the page", "mcp"),
    _c("proposal_unknown", 400, "no pending proposal with that id", "mcp"),
    _c("ask_site_unsupported", 400, "server mode asks the server's own site only", "mcp"),
    _c("api_unreachable", 503, "the askdocs API cannot be reached", "mcp"),
    _c("api_timeout", 503, "the askdocs API did not answer in time", "mcp"),
    _c("api_bad_response", 503, "the askdocs API answered something unusable", "mcp"),
    _c("api_error", 503, "the askdocs API failed", "mcp"),
)
BY_CODE = {entry.code: entry for entry in CODES}
assert len(BY_CODE) == len(CODES), "a code is registered twice"

# The codes each part of the HTTP app can answer with. ``/openapi.json`` declares, for every
# operation, the statuses of the parts it uses (``askdocs.server.openapi``): "parameters" and
# "body" by the operation's shape, the others by the route's dependencies.
PARTS: dict[str, tuple[str, ...]] = {
    "parameters": ("invalid_request",),
    "body": (
        "invalid_request",
        "invalid_json",
        "invalid_body",
        "body_too_large",
        "unsupported_media_type",
    ),
    "signed_in": (
        "missing_token",
        "invalid_token",
        "token_expired",
        "unknown_user",
        "session_expired",
        "csrf_failed",
        "database_unavailable",
    ),
    "credentials": (
        "invalid_token",
        "token_expired",
        "unknown_user",
        "session_expired",
        "database_unavailable",
    ),
    "site": ("site_not_found", "invalid_origin"),
    "engine": (
        "no_documents",
        "invalid_query",
        "index_building",
        "embedding_unavailable",
        "embedding_model_missing",
        "vector_store_unavailable",
        "service_unavailable",
    ),
    "ask": (
        "ask_unavailable",
        "empty",
        "too_many_messages",
        "must_start_with_user",
        "must_end_with_user",
        "question_too_long",
        "message_too_long",
        "invalid_role",
        "invalid_text",
        "invalid_locale",
        "model_unavailable",
    ),
    "limits": (
        "burst_limit",
        "visitor_daily_limit",
        "site_daily_limit",
        "global_daily_limit",
        "limits_unavailable",
    ),
    "bot_check": (
        "bot_check_failed",
        "bot_check_required",
        "bot_check_off",
        "bot_check_unavailable",
    ),
    "feedback": ("invalid_feedback", "answer_not_found", "feedback_limit", "feedback_unavailable"),
    "reader": (
        "site_not_found",
        "article-not-found",
        "asset-not-found",
        "invalid-slug",
        "invalid-locale",
        "invalid-asset-id",
        "docs-unavailable",
    ),
    "assistant": (
        "invalid_argument",
        "empty_title",
        "invalid_text",
        "message_too_long",
        "too_many_messages",
        "invalid_role",
        "thread_not_found",
        "message_not_found",
        "forbidden",
        "admin_required",
        "tool_not_granted",
        "model_unavailable",
        "database_unavailable",
    ),
    "admin": (
        "invalid_argument",
        "organisation_required",
        "grant_not_held",
        "no_changes",
        "site_exists",
        "site_name_taken",
        "hostname_taken",
        "invalid_path",
        "provider_exists",
        "endpoint_not_allowed",
        "invalid_since",
        "admin_required",
        "tool_not_granted",
        "confirmation_invalid",
        "forbidden",
        "unknown_operation",
        "organisation_not_found",
        "site_not_found",
        "page_not_found",
        "provider_not_found",
        "proposal_not_found",
        "proposal_expired",
        "not_found",
        "proposal_settled",
        "reindex_rate_limited",
        "database_unavailable",
    ),
    "accounts": (
        "invalid_argument",
        "weak_password",
        "invalid_email",
        "invalid_name",
        "user_exists",
        "last_owner",
        "invalid_credentials",
        "invitation_sign_in_required",
        "oidc_no_account",
        "admin_required",
        "forbidden",
        "user_not_found",
        "member_not_found",
        "organisation_not_found",
        "invitation_invalid",
        "session_not_found",
        "oidc_disabled",
        "sign_in_limited",
        "oidc_unavailable",
        "database_unavailable",
    ),
}
_UNKNOWN = {code for codes in PARTS.values() for code in codes} - BY_CODE.keys()
assert not _UNKNOWN, f"parts name unregistered codes: {sorted(_UNKNOWN)}"

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "errors.md"
BEGIN = "<!-- BEGIN generated by `python -m askdocs.error_codes --write` -->"
END = "<!-- END generated -->"


def table() -> str:
    rows = [
        f"| `{e.code}` | {e.status} | {e.meaning}"
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
