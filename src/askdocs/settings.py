"""The one settings object, built at the edges (CLI, server start-up) and injected.

Sources, later ones winning: defaults < config file (TOML) < ``ASKDOCS_*`` environment
variables (nested with ``__``, e.g. ``ASKDOCS_ASK__DAILY_VISITOR_LIMIT=30``) < explicit
arguments. Nothing here reads the environment at import time.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from askdocs.config.origins import Origins, validation_problems
from askdocs.config.strict import Problem, env_problems, file_problems
from askdocs.config.toml_lines import key_lines
from askdocs.errors import ConfigError
from askdocs.types import Audience

DEFAULT_EXCLUDE: tuple[str, ...] = (
    "archive/**",
    "design/**",
    "marketing/**",
    "screenshots/**",
    "README.md",
    "**/README.md",
    "SOURCE.md",  # provenance notes of an imported docs tree, like README.md: not a page
    "LICENSE.md",
    ".*/**",
    "**/.*/**",
    ".*",
    "**/.*",
)
DEFAULT_INCLUDE: tuple[str, ...] = ("**/*.md", "**/*.mdx")


class Section(BaseModel):
    """A table of settings: an unknown key in it is an error, never silently ignored."""

    model_config = ConfigDict(extra="forbid")


class RootConfig(Section):
    """One docs root of a site: a folder of Markdown with include/exclude globs."""

    path: Path
    audience: Audience = "user"
    include: list[str] = Field(default_factory=lambda: list(DEFAULT_INCLUDE))
    exclude: list[str] = Field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    required: bool = True
    url_template: str | None = None  # overrides the site's template for this root
    # The Markdown dialect of this root; None: the site's, else detected (docs/corpus.md)
    dialect: Literal["mkdocs", "docusaurus", "vitepress", "myst", "gfm"] | None = None
    # glob -> page kind ("guide" | "changelog"), before automatic detection (corpus.pagekind)
    page_kinds: dict[str, Literal["guide", "changelog"]] = Field(default_factory=dict)


class SiteConfig(Section):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_-]{0,62}$")
    name: str = ""
    roots: list[RootConfig]
    hostnames: list[str] = Field(default_factory=list)
    public: bool = True
    live: bool = True
    ask_enabled: bool = True
    default_locale: str = "en"
    default_address: str | None = None  # e.g. "https://docs.example.com"
    user_url_template: str = "/docs/{slug}#{anchor}"
    developer_url_template: str = "/docs/developer/{slug}#{anchor}"
    # The Markdown dialect of every root; None: detected per root (docs/corpus.md)
    dialect: Literal["mkdocs", "docusaurus", "vitepress", "myst", "gfm"] | None = None


class CorpusSettings(Section):
    max_markdown_bytes: int = 1024 * 1024
    max_image_bytes: int = 10 * 1024 * 1024
    parse_timeout_seconds: float = Field(default=5.0, gt=0)  # per page over 8 KiB
    split_level: int = Field(default=3, ge=1, le=6)
    max_chars: int = Field(default=1500, ge=200)
    min_chars: int = Field(default=0, ge=0)  # 0 (default): never merge; see docs/search.md
    locales: list[str] = Field(
        default_factory=lambda: ["en", "cs", "sk"], min_length=1
    )  # page.cs.md siblings and i18n/<locale>/ mirrors


class EmbeddingSettings(Section):
    provider: Literal["local", "local-int8", "openai-compatible", "gemini", "none"] = "local"
    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = None
    dimension: int | None = Field(default=None, ge=1)
    request_dimensions: bool = True  # send dimensions / outputDimensionality when set
    batch_size: int = Field(default=32, ge=1, le=2048)
    timeout_seconds: float = Field(default=30.0, gt=0)
    query_timeout_seconds: float = Field(default=5.0, gt=0)
    threads: int | None = None
    # hosted providers (embeddings/remote_retry.py): retries with jittered back-off
    max_retries: int = Field(default=4, ge=0, le=20)
    retry_base_seconds: float = Field(default=1.0, ge=0)
    retry_max_seconds: float = Field(default=30.0, ge=0)
    max_concurrent_requests: int = Field(default=2, ge=1, le=64)
    cache_dir: Path | None = None  # compiled local model files; None: <data_dir>/models
    query_cache_size: int = Field(default=1024, ge=0, le=1_000_000)  # query vectors kept; 0: off
    # the local providers' query session (embeddings/local.py): weights and threads
    query_precision: Literal["auto", "fp32", "int8"] = "auto"
    query_threads: int | None = Field(default=None, ge=1, le=64)


class SearchSettings(Section):
    """Retrieval and the match decision (docs/search.md). Fusion is Qdrant's weighted RRF:
    a hit at 0-based position p of one side scores 1 / ((p + 1) / weight + k - 1)."""

    limit: int = Field(default=10, ge=1, le=100)
    rrf_k: int = Field(default=5, ge=1)
    dense_weight: float = Field(default=1.0, gt=0)
    lexical_weight: float = Field(default=0.25, gt=0)
    keyword_rrf_k: int = Field(default=2, ge=1)  # queries of <= 3 words
    keyword_dense_weight: float = Field(default=0.2, gt=0)
    keyword_lexical_weight: float = Field(default=1.0, gt=0)
    mixed_rrf_k: int = Field(default=6, ge=1)  # longer questions naming an identifier
    mixed_dense_weight: float = Field(default=0.4, gt=0)
    mixed_lexical_weight: float = Field(default=1.0, gt=0)
    prefetch: int = Field(default=50, ge=1, le=1000)
    candidates_factor: int = Field(default=4, ge=1, le=20)  # fetch limit x this before dedupe
    match_threshold: float | None = None  # None: the calibrated value for the model
    match_top_k: int = Field(default=5, ge=1, le=100)  # hits whose best cosine decides match
    unknown_name_check: bool = True  # unknown names / mostly unknown words: no match
    unknown_terms_ratio: float = Field(default=0.34, gt=0, le=1)
    followup_join: Literal["always", "short"] = "always"  # join the previous question
    followup_min_words: int = 5  # "short": join questions of fewer words
    followup_fuse: bool = False  # fuse the joined search with the follow-up searched alone
    intro_top: int = Field(default=5, ge=0, le=100)  # intro sections that pull up a sub-section
    dense_margin: float = Field(default=0.08, ge=0, le=1)  # clear dense winner leads; 0: off
    demote_changelogs: bool = True  # changelog sections below guides unless asked about versions
    max_per_page: int = Field(default=0, ge=0, le=100)  # sections of one page in place; 0: any
    # search execution (search/execution.py): per account, before any work; a whole-search deadline
    max_concurrent_per_account: int = Field(default=8, ge=1, le=256)  # at once, per process
    daily_budget_per_account: int = Field(default=2000, ge=0)  # paid query embeddings; 0: off
    timeout_seconds: float = Field(default=10.0, gt=0, le=300)  # admission to answer


Quantization = Literal["int8", "none"]


class IndexSettings(Section):
    qdrant_url: str | None = None
    qdrant_api_key: SecretStr | None = None
    first_run_delay_seconds: float = 1.0
    recheck_seconds: float = 600.0
    retry_seconds: float = 120.0
    interactive_yield_seconds: float = 15.0
    qdrant_timeout_seconds: float = Field(default=10.0, gt=0)
    # dense vectors: int8 copies in memory, float32 originals on disk, results rescored with
    # them (docs/indexing.md, "Quantization"); "none": float32 in memory, as before
    quantization: Quantization = "int8"
    # names this install's collections on a shared Qdrant server; None: kept in the database
    install_id: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]{0,62}$")


class ServerSettings(Section):
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    # the origin visitors use, e.g. "https://docs.example" (guard/proxies.py, docs/deployment.md)
    public_url: str | None = None
    # addresses or CIDRs whose Forwarded / X-Forwarded-* headers are believed; none by default
    trusted_proxies: list[str] = Field(default_factory=list)
    trusted_proxy_header: str | None = None  # replaced by trusted_proxies: refused when set
    # searches run at once; None: one per CPU core the process may use (blocking.usable_cpus)
    search_concurrency: int | None = Field(default=None, ge=1, le=64)
    # retrieval in this many worker processes (search/processes.py); 0: in the server process
    search_processes: int = Field(default=0, ge=0, le=32)
    index_in_background: bool = True  # serve indexes configured sites at start-up
    max_body_bytes: int = Field(default=2 * 1024 * 1024, ge=1024)  # any route; 413 above
    # how often a replica checks the database for another replica's admin changes
    change_poll_seconds: float = Field(default=2.0, gt=0, le=60)

    @field_validator("public_url")
    @classmethod
    def _origin(cls, value: str | None) -> str | None:
        return origin_of_url(value)

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        return [str(proxy_network(entry)) for entry in value]

    @field_validator("trusted_proxy_header")
    @classmethod
    def _replaced(cls, value: str | None) -> None:
        if value is not None:
            raise ValueError(TRUSTED_PROXY_HEADER_REPLACED)


TRUSTED_PROXY_HEADER_REPLACED = (
    "server.trusted_proxy_header was replaced by server.trusted_proxies: list the addresses "
    '(or CIDRs) of your reverse proxies, e.g. trusted_proxies = ["127.0.0.1"], and askdocs '
    "reads X-Forwarded-For/-Proto/-Host or Forwarded from them only; set server.public_url "
    "to the address visitors use (docs/deployment.md, Behind a reverse proxy)"
)


def origin_of_url(value: str | None) -> str | None:
    """``scheme://host[:port]`` of ``value`` (lower case, no default port, no trailing
    slash); a path, query, fragment or user name is refused (askdocs serves at the root)."""
    if value is None or not value.strip():
        return None
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"public_url must be http(s)://host[:port], not {value!r}")
    if parts.path.strip("/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"public_url must be an origin with no path: {value!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = {"http": 80, "https": 443}[parts.scheme]
    port = f":{parts.port}" if parts.port not in (None, default) else ""
    return f"{parts.scheme}://{host}{port}"


def proxy_network(entry: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """One ``trusted_proxies`` entry: an address (a network of one) or a CIDR."""
    try:
        return ipaddress.ip_network(entry.strip(), strict=False)
    except ValueError:
        raise ValueError(f"trusted_proxies: {entry!r} is not an address or CIDR") from None


class DatabaseSettings(Section):
    """PostgreSQL bounds (docs/deployment.md): every wait ends within ``timeout_seconds``."""

    timeout_seconds: float = Field(default=1.0, gt=0, le=60)  # connect + checkout + statement
    retry_seconds: float = Field(default=2.0, ge=0)  # 503 at once for this long after a timeout
    pool_size: int = Field(default=5, ge=1, le=100)
    max_overflow: int = Field(default=10, ge=0, le=100)


class AskSettings(Section):
    burst_per_minute: int = 20
    daily_visitor_limit: int = 15
    daily_site_limit: int = 500
    daily_global_limit: int = 5000
    max_messages: int = 8
    max_message_chars: int = 4000
    max_question_chars: int = 1000
    chunks_per_question: int = 8
    limits_timeout_seconds: float = 0.5
    visitor_hash_key: SecretStr | None = None
    max_body_bytes: int = Field(default=256 * 1024, ge=1024)
    record_questions: bool = True  # keep questions for feedback and the gaps report
    record_retention_days: int = Field(default=90, ge=1, le=3650)
    feedback_per_minute: int = Field(default=10, ge=1)


class ChatSettings(Section):
    provider: Literal["none", "openai-compatible", "anthropic", "gemini"] = "none"
    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = None
    max_output_tokens: int = Field(default=1024, ge=1)
    timeout_seconds: float = Field(default=60.0, gt=0)  # total time one reply may stream
    connect_timeout_seconds: float = Field(default=5.0, gt=0)
    idle_timeout_seconds: float = Field(default=30.0, gt=0)  # longest silence mid-stream
    temperature: float | None = Field(default=None, ge=0, le=2)


class AssistantSettings(Section):
    """The signed-in assistant (seed 002 ``Assistant:*``, seed 000 ``PlatformDocs:Inject*``)."""

    max_output_tokens: int | None = Field(default=None, ge=1)  # unset: no ceiling sent
    default_answer_tokens: int = Field(default=16384, ge=1)  # Anthropic/Gemini when unset
    reasoning_headroom_tokens: int = Field(default=8192, ge=0)
    max_message_chars: int = Field(default=32000, ge=100)
    max_replay_messages: int = Field(default=40, ge=1)
    max_tool_rounds: int = Field(default=6, ge=1, le=20)
    detached_turn_seconds: float = Field(default=300.0, gt=0)
    turn_heartbeat_seconds: float = Field(default=5.0, gt=0, le=60)  # a running turn's pulse
    turn_lost_seconds: float = Field(default=20.0, gt=0)  # no pulse this long: interrupted
    title_timeout_seconds: float = Field(default=10.0, gt=0)
    docs_site: str | None = None  # None: the request's site, else the first configured one
    docs_enabled: bool = True  # seed 000 PlatformDocs:Enabled: injection and search_docs
    inject_top_k: int = Field(default=4, ge=0, le=20)
    inject_max_chars: int = Field(default=7000, ge=0)
    inject_timeout_seconds: float = Field(default=5.0, gt=0)
    inject_min_score: float = Field(default=0.35, ge=-1.0, le=1.0)
    user_guide_boost: float = Field(default=0.1, ge=0.0, le=1.0)
    search_timeout_seconds: float = Field(default=15.0, gt=0)
    system_prompt: str | None = None  # replaces the built-in prompt's opening paragraph

    @model_validator(mode="after")
    def _pulse_within_bound(self) -> AssistantSettings:
        if self.turn_lost_seconds < 2 * self.turn_heartbeat_seconds:
            raise ValueError("assistant.turn_lost_seconds must be at least twice the heartbeat")
        return self


class AdminSettings(Section):
    """Assistant admin tools and ``/api/v1/admin`` (docs/admin-tools.md)."""

    confirmation_token_key: SecretStr | None = None  # hex or base64, >= 32 bytes
    confirmation_token_key_file: Path | None = None  # <data_dir>/assistant-confirmation-token
    # Fernet keys that encrypt stored secrets (provider API keys, signing keys); newest first
    secrets_key: SecretStr | None = None
    secrets_key_file: Path | None = None  # else this file's keys; default in the data dir
    sites_dir: Path | None = None  # where organisation sites keep their pages; <data_dir>/sites
    max_executions_per_hour: int = Field(default=10, ge=1)  # ReindexSite, per user and site
    provider_test_timeout_seconds: float = Field(default=15.0, gt=0)
    # the connection test may reach private, loopback and link-local addresses (SSRF guard)
    provider_test_allow_private: bool = False
    max_page_bytes: int = Field(default=512 * 1024, ge=1024)  # largest page a tool writes
    proposal_ttl_seconds: int = Field(default=86400, ge=60)  # a stored proposal's lifetime


class BotCheckSettings(Section):
    """Ask AI's bot check (docs/deployment.md). ``auto``: Turnstile when its keys are set,
    else ALTCHA when the server is reachable beyond loopback, else off."""

    provider: Literal["auto", "off", "turnstile", "altcha"] = "auto"
    # The loud opt-out: serve Ask AI to non-loopback clients with no bot check at all.
    allow_public_ask_without_bot_check: bool = False
    secret: SecretStr | None = None
    site_key: str | None = None
    verify_url: str = "https://challenges.cloudflare.com/turnstile/v0/siteverify"
    timeout_seconds: float = 3.0
    # ALTCHA proof of work: PBKDF2/SHA-256 iterations per try, and the counter to find is
    # below altcha_max_number (the expected work is half of it times altcha_cost)
    altcha_cost: int = Field(default=1000, ge=1, le=1_000_000)
    altcha_max_number: int = Field(default=10_000, ge=1, le=10_000_000)
    altcha_expire_seconds: int = Field(default=300, ge=10, le=3600)


class OidcSettings(Section):
    """Single sign-on through one OpenID Connect provider (docs/sign-in.md)."""

    issuer: str | None = None  # unset: single sign-on is off
    client_id: str | None = None
    client_secret: SecretStr | None = None
    allowed_email_domains: list[str] = Field(default_factory=list)  # "*" allows every domain
    # domains this provider owns: an address there signs in without email_verified (never "*")
    trusted_email_domains: list[str] = Field(default_factory=list)
    scopes: list[str] = Field(default_factory=lambda: ["openid", "email", "profile"])
    display_name: str = "single sign-on"  # the button reads "Sign in with <display_name>"
    create_users: bool = True  # first sign-in from an allowed domain creates the account
    timeout_seconds: float = Field(default=10.0, gt=0)
    state_ttl_seconds: int = Field(default=600, ge=60)  # from redirect to callback

    @field_validator("trusted_email_domains")
    @classmethod
    def _named_domains(cls, value: list[str]) -> list[str]:
        names = [d.strip().lower().lstrip("@") for d in value]
        if any(not d or "*" in d for d in names):
            raise ValueError("trusted_email_domains names domains; a wildcard trusts nothing")
        return names


class AuthSettings(Section):
    jwt_signing_key: SecretStr | None = None  # >= 32 chars; else stored in the database
    jwt_issuer: str = "askdocs"
    jwt_audience: str = "askdocs-api"
    default_token_ttl_seconds: int = Field(default=3600, ge=60)
    session_cookie: str = Field(default="askdocs_session", pattern=r"^[A-Za-z0-9_-]{1,64}$")
    session_idle_seconds: int = Field(default=8 * 3600, ge=60)
    session_absolute_seconds: int = Field(default=14 * 86400, ge=300)
    cookie_secure: Literal["auto", "always", "never"] = "auto"  # auto: when served over HTTPS
    min_password_chars: int = Field(default=10, ge=8, le=128)
    sign_in_window_seconds: int = Field(default=900, ge=60)
    # wrong passwords per window, from browsers without the account's device cookie, together
    sign_in_attempts_per_email: int = Field(default=10, ge=1)
    sign_in_attempts_per_visitor: int = Field(default=30, ge=1)  # per window, any account
    sign_in_attempts_per_account_client: int = Field(default=5, ge=1)  # wrong ones, per window
    sign_in_attempts_per_device: int = Field(default=10, ge=1)  # per window, recognised browser
    device_cookie_days: int = Field(default=180, ge=1)  # how long a browser stays recognised
    invitation_ttl_seconds: int = Field(default=7 * 86400, ge=300)
    reset_link_ttl_seconds: int = Field(default=3600, ge=300)  # a password-reset link
    public_url: str | None = None  # deprecated: read as server.public_url
    oidc: OidcSettings = Field(default_factory=OidcSettings)


class McpSettings(Section):
    """``askdocs mcp``: transport, where the HTTP transport listens, and call bounds."""

    transport: Literal["stdio", "http"] = "stdio"
    host: str = "127.0.0.1"
    port: int = Field(default=3002, ge=0, le=65535)
    api_url: str | None = None  # server mode: the askdocs HTTP API the tools call
    allowed_hosts: list[str] = Field(default_factory=list)  # extra Host values (DNS rebinding)
    allowed_origins: list[str] = Field(default_factory=list)  # extra Origin values
    tool_timeout_seconds: float = Field(default=30.0, gt=0)
    api_timeout_seconds: float = Field(default=15.0, gt=0)
    index_wait_seconds: float = Field(default=10.0, ge=0)


class ReaderSettings(Section):
    """The docs reader: article rendering bounds (see docs/reader-api.md)."""

    render_timeout_seconds: float = Field(default=2.0, gt=0)  # per article render
    render_workers: int = Field(default=2, ge=1, le=16)  # render worker processes
    max_html_bytes: int = Field(default=2 * 1024 * 1024, ge=64 * 1024)
    html_amplification: int = Field(default=10, ge=2)  # HTML <= N x Markdown (64 KiB min)
    read_budget_seconds: float = Field(default=10.0, gt=0)  # one whole read, wall clock
    read_budget_cpu_seconds: float = Field(default=10.0, gt=0)  # parsing a read starts


class Settings(BaseSettings):
    """Everything askdocs can be told. See docs/configuration.md."""

    model_config = SettingsConfigDict(
        env_prefix="ASKDOCS_",
        env_nested_delimiter="__",
        extra="forbid",
    )

    data_dir: Path = Field(default_factory=lambda: default_data_dir())
    config_file: Path | None = None
    sites: list[SiteConfig] = Field(default_factory=list)
    corpus: CorpusSettings = Field(default_factory=CorpusSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    search: SearchSettings = Field(default_factory=SearchSettings)
    index: IndexSettings = Field(default_factory=IndexSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    ask: AskSettings = Field(default_factory=AskSettings)
    chat: ChatSettings = Field(default_factory=ChatSettings)
    bot_check: BotCheckSettings = Field(default_factory=BotCheckSettings)
    redis_url: str | None = None
    database_url: str | None = None
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    auth: AuthSettings = Field(default_factory=lambda: AuthSettings())
    reader: ReaderSettings = Field(default_factory=ReaderSettings)
    assistant: AssistantSettings = Field(default_factory=lambda: AssistantSettings())
    mcp: McpSettings = Field(default_factory=McpSettings)
    admin: AdminSettings = Field(default_factory=AdminSettings)

    @field_validator("data_dir")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser()

    @model_validator(mode="after")
    def _fold_public_url(self) -> Settings:
        """The old ``auth.public_url`` is read as ``server.public_url`` when that is unset;
        ``askdocs serve`` says so at start-up (``guard.proxies.start_up_warnings``)."""
        old = origin_of_url(self.auth.public_url)
        if old is not None and self.server.public_url is None:
            self.server = self.server.model_copy(update={"public_url": old})
        elif old is not None and old != self.server.public_url:
            raise ValueError(
                f"auth.public_url ({old}) and server.public_url ({self.server.public_url}) "
                "differ: remove auth.public_url, server.public_url replaces it"
            )
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings)


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "askdocs"


def load_settings(config_file: Path | None = None, **overrides: Any) -> Settings:
    """Build settings: defaults < TOML file < ``ASKDOCS_*`` environment < ``overrides``."""
    return load_with_origins(config_file, **overrides)[0]


def load_with_origins(
    config_file: Path | None = None, **overrides: Any
) -> tuple[Settings, Origins]:
    """``load_settings``, and where each value came from (``askdocs config check``).

    Unknown keys in the file or in ``ASKDOCS_*`` variables and invalid values are one
    ``ConfigError`` with one line per problem, each naming where it is written."""
    path = config_file or _env_config_file()
    text = _read_text(path) if path is not None else ""
    file_values: dict[str, Any] = _parse_toml(path, text) if path is not None else {}
    explicit = {k: v for k, v in overrides.items() if v is not None}
    environment = {k: v for k, v in os.environ.items() if k.upper().startswith("ASKDOCS_")}
    origins = Origins(
        file=str(path) if path is not None else None,
        file_values=file_values,
        lines=key_lines(text),
        env=environment,
        arguments=frozenset([*explicit, *(["config_file"] if config_file is not None else [])]),
    )
    problems = env_problems(environment, Settings)
    if path is not None:
        problems = file_problems(file_values, Settings, str(path), origins.lines) + problems
        file_values = {**file_values, "config_file": path}
        _anchor_root_paths(file_values, Path(os.path.abspath(path.parent)))
    _raise(problems)
    return _build(file_values, explicit, origins), origins


def _build(file_values: dict[str, Any], explicit: dict[str, Any], origins: Origins) -> Settings:
    class _Loaded(Settings):
        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            return (init_settings, env_settings, _DictSource(settings_cls, file_values))

    try:
        return _Loaded(**explicit)
    except ValidationError as exc:
        _raise(validation_problems(exc, origins))
        raise  # unreachable: a ValidationError always has at least one problem


def _raise(problems: list[Problem]) -> None:
    if problems:
        raise ConfigError("\n".join(str(problem) for problem in problems))


class _DictSource(PydanticBaseSettingsSource):
    """Values read from the config file, below the environment in priority."""

    def __init__(self, settings_cls: type[BaseSettings], values: dict[str, Any]) -> None:
        super().__init__(settings_cls)
        self._values = values

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self._values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(self._values)


def _anchor_root_paths(values: dict[str, Any], folder: Path) -> None:
    """A relative ``[[sites.roots]] path`` in a config file is relative to the file's folder."""
    for site in values.get("sites") or []:
        if not isinstance(site, dict):
            continue
        for root in site.get("roots") or []:
            if isinstance(root, dict) and isinstance(root.get("path"), str):
                path = Path(root["path"]).expanduser()
                root["path"] = str(path if path.is_absolute() else folder / path)


def _env_config_file() -> Path | None:
    value = os.environ.get("ASKDOCS_CONFIG_FILE")
    return Path(value) if value else None


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from None


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        where = f"{path}:{found.group(1)}" if found else str(path)
        message = str(exc).split(" (at ")[0]
        raise ConfigError(f"{where}: not valid TOML: {message}") from None
