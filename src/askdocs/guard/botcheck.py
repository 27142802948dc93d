"""The bot check behind a protocol: Cloudflare Turnstile, ALTCHA proof of work (self-hosted,
``askdocs.guard.altcha``), or off (loopback clients only, unless the operator opts out
explicitly). ``auto`` (the default) picks one (``chosen_provider``).

``verify`` raises ``Forbidden`` (403, ``bot_check_failed``) for a missing, invalid, expired
or replayed token, or one issued for another action or hostname, and ``ServiceUnavailable``
(503, ``bot_check_unavailable``) when siteverify cannot be reached within the timeout.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import urlsplit

from askdocs.error_codes import ErrorCode
from askdocs.errors import ConfigError, Forbidden, ServiceUnavailable
from askdocs.guard.limits import RateLimitStore, guard_seconds
from askdocs.settings import Settings

if TYPE_CHECKING:  # the key ring needs the database layer: MCP local mode never loads it
    from askdocs.keys import KeyRing

log = logging.getLogger(__name__)
MAX_TOKEN_CHARS = 2048  # Turnstile tokens are at most 2048 characters
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
Provider = Literal["off", "turnstile", "altcha"]


class BotCheck(Protocol):
    name: str

    async def verify(
        self, token: str, *, action: str, hostnames: Collection[str], remote_ip: str | None
    ) -> None: ...


class NoBotCheck:
    """Accepts requests from loopback clients; a request from any other client (directly,
    or named by a trusted proxy) is ``403 bot_check_required``, unless the
    operator opted out with ``bot_check.allow_public_ask_without_bot_check``."""

    name = "off"

    def __init__(self, allow_remote: bool = False) -> None:
        self.allow_remote = allow_remote

    async def verify(
        self, token: str, *, action: str, hostnames: Collection[str], remote_ip: str | None
    ) -> None:
        if self.allow_remote or (remote_ip is not None and is_loopback(remote_ip)):
            return
        raise Forbidden(
            "Ask AI needs a bot check for visitors from other machines; the operator has "
            "not configured one",
            code=ErrorCode.BOT_CHECK_REQUIRED,
        )


class TurnstileCheck:
    name = "turnstile"

    def __init__(self, secret: str, verify_url: str, timeout: float) -> None:
        self._secret = secret
        self._url = verify_url
        self._timeout = timeout

    async def verify(
        self, token: str, *, action: str, hostnames: Collection[str], remote_ip: str | None
    ) -> None:
        """``remote_ip`` is never sent to Cloudflare."""
        if not token or len(token) > MAX_TOKEN_CHARS:
            raise _failed("missing or malformed bot-check token")
        result = await self._siteverify(token)
        if result.get("success") is not True:
            raise _failed("the bot check did not pass")
        if result.get("action") != action:
            raise _failed("the bot-check token was issued for another action")
        if str(result.get("hostname", "")).lower() not in {h.lower() for h in hostnames}:
            raise _failed("the bot-check token was issued for another site")

    async def _siteverify(self, token: str) -> dict[str, Any]:
        import httpx  # here: the site catalog imports this module, MCP stdio needs no httpx

        form = {"secret": self._secret, "response": token}
        try:
            async with httpx.AsyncClient(timeout=self._timeout) as client:
                response = await client.post(self._url, data=form)
            response.raise_for_status()
            body = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            log.warning("turnstile siteverify failed: %s", type(exc).__name__)
            raise ServiceUnavailable(
                "the bot check cannot be completed right now", code=ErrorCode.BOT_CHECK_UNAVAILABLE
            ) from None
        return body if isinstance(body, dict) else {}


def chosen_provider(settings: Settings, host: str | None = None) -> Provider:
    """The bot check in force: the configured one; for ``auto``, Turnstile when its keys
    are set, else ALTCHA when the server is reachable beyond loopback (a non-loopback
    address, or behind a proxy) and the operator did not opt out, else off."""
    bot = settings.bot_check
    if bot.provider != "auto":
        return bot.provider
    if bot.secret is not None and bot.secret.get_secret_value() and bot.site_key:
        return "turnstile"
    if bot.allow_public_ask_without_bot_check:
        return "off"
    return "altcha" if beyond_loopback(settings, host or settings.server.host) else "off"


def beyond_loopback(settings: Settings, host: str) -> bool:
    return behind_a_proxy(settings) or not is_loopback(host)


def create_bot_check(
    settings: Settings, store: RateLimitStore, keys: KeyRing | None = None
) -> BotCheck:
    """The bot check in force (``chosen_provider``); ALTCHA remembers used solutions in
    ``store``, the limits store every replica shares, and signs with keys derived from the
    install's ``jwt`` key in ``keys`` (read when the first challenge is made)."""
    bot = settings.bot_check
    provider = chosen_provider(settings)
    if provider == "off":
        return NoBotCheck(allow_remote=bot.allow_public_ask_without_bot_check)
    if provider == "altcha":
        if keys is None:
            raise ConfigError("the ALTCHA bot check signs with the install's keys: pass them")
        return _altcha(settings, store, keys)
    if bot.secret is None or not bot.secret.get_secret_value():
        raise ConfigError("bot_check.provider is 'turnstile' but bot_check.secret is not set")
    return TurnstileCheck(bot.secret.get_secret_value(), bot.verify_url, bot.timeout_seconds)


def _altcha(settings: Settings, store: RateLimitStore, ring: KeyRing) -> BotCheck:
    from askdocs.guard.altcha import AltchaCheck, AltchaKeys, AltchaPolicy  # altcha: on use

    bot = settings.bot_check

    def keys() -> AltchaKeys:
        return AltchaKeys(
            ring.derived("askdocs altcha challenge"), ring.derived("askdocs altcha solution")
        )

    policy = AltchaPolicy(
        bot.altcha_cost,
        bot.altcha_max_number,
        bot.altcha_expire_seconds,
        guard_seconds(settings.ask.limits_timeout_seconds),
    )
    return AltchaCheck(keys, policy, store)


def require_bot_check_for_public_binding(settings: Settings, host: str) -> None:
    """Refuse to serve Ask AI to non-loopback clients without a bot check: on a
    non-loopback address, or behind a proxy (``server.trusted_proxies`` or a
    ``server.public_url`` on another host). The explicit opt-out starts anyway and says so
    loudly in the log."""
    if chosen_provider(settings, host) != "off":
        return
    asking = [s.id for s in settings.sites if s.ask_enabled and s.public and s.live]
    if settings.sites and not asking:
        return
    proxied = behind_a_proxy(settings)
    if is_loopback(host) and not proxied:
        return
    where = "behind a proxy" if proxied else f"on {host}"
    if settings.bot_check.allow_public_ask_without_bot_check:
        log.warning(
            "UNPROTECTED: Ask AI is served %s with NO bot check "
            "(bot_check.allow_public_ask_without_bot_check = true); every visitor's question "
            "costs money and only the rate limits stand in the way",
            where,
        )
        return
    raise ConfigError(
        f"refusing to serve Ask AI {where} without a bot check: Ask AI is public and costs "
        "money per question. Configure Cloudflare Turnstile (ASKDOCS_BOT_CHECK__PROVIDER="
        "turnstile, ASKDOCS_BOT_CHECK__SECRET, ASKDOCS_BOT_CHECK__SITE_KEY), turn Ask AI "
        "off for every site (ask_enabled = false), or, knowingly, set "
        "ASKDOCS_BOT_CHECK__ALLOW_PUBLIC_ASK_WITHOUT_BOT_CHECK=true."
    )


def behind_a_proxy(settings: Settings) -> bool:
    """Trusted proxies are named, or the public address is not this machine's loopback."""
    public = urlsplit(settings.server.public_url or "").hostname
    return bool(settings.server.trusted_proxies) or (public is not None and not is_loopback(public))


def is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _failed(message: str) -> Forbidden:
    return Forbidden(message, code=ErrorCode.BOT_CHECK_FAILED)
