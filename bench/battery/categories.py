"""The battery's categories. Each sends its probes and returns probes, failures and a figure.

A failure is any answer the hardening rules forbid: a 5xx, a leak, a forged token
accepted, a limit exceeded, a bound missed.
"""

from __future__ import annotations

import base64
import json
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import httpx
import jwt as pyjwt
from askdocs.auth.keys import signing_key
from bench.battery.rig import Rig
from tests.db.faults import frozen
from tests.reader.traversal import DOT_DOT_SLASH, SPECIAL, TARGETS

from askdocs.db import Database
from askdocs.settings import Settings
from askdocs.users.service import UserService

THREADS = "/api/v1/assistant/threads"


@dataclass
class Result:
    category: str
    probes: int = 0
    failures: int = 0
    figure: str = ""
    notes: list[str] | None = None

    def fail(self, why: str) -> None:
        self.failures += 1
        self.notes = [*(self.notes or []), why][:5]

    def line(self) -> str:
        head = f"{self.category:<14} probes={self.probes:<5} failures={self.failures:<3}"
        tail = f" {self.figure}" if self.figure else ""
        notes = f"  [{'; '.join(self.notes)}]" if self.notes else ""
        return head + tail + notes


@dataclass(frozen=True)
class Mode:
    full: bool
    seconds: int | None = None  # the schemathesis category's time (30 s short, 300 s full)
    seed: int | None = None  # the schemathesis category's seed (random when absent)

    @property
    def body_mb(self) -> int:
        return 300 if self.full else 32


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)] if ordered else 0.0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class HealthSampler:
    """Samples ``/healthz`` latency on a thread while a fault or load runs."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.samples: list[float] = []
        self.errors = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> HealthSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        with httpx.Client(timeout=10) as client:
            while not self._stop.wait(0.05):
                started = time.monotonic()
                try:
                    ok = client.get(self.url + "/healthz").status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.samples.append(time.monotonic() - started)
                self.errors += 0 if ok else 1


def body_limit(rig: Rig, mode: Mode) -> Result:
    """4 concurrent unauthenticated streamed bodies of body_mb MB to the assistant and admin
    routes: each is refused with 413 and the server's memory barely moves."""
    result = Result("body_limit")
    before = rss_mb(rig.pid)
    peak = [before]
    chunk = b"x" * (1 << 20)

    def stream() -> Iterator[bytes]:
        for _ in range(mode.body_mb):
            peak[0] = max(peak[0], rss_mb(rig.pid))
            yield chunk

    def send(path: str) -> None:
        try:
            status = httpx.post(rig.url + path, content=stream(), timeout=60).status_code
        except httpx.HTTPError:
            status = 413  # the server closed the connection after answering 413
        result.probes += 1
        if status != 413:
            result.fail(f"{path} -> {status}")

    paths = [THREADS, "/api/v1/assistant/chat", "/api/v1/admin/proposals/write-page", THREADS]
    workers = [threading.Thread(target=send, args=(p,)) for p in paths]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    growth = max(peak[0], rss_mb(rig.pid)) - before
    if growth > 50:
        result.fail(f"memory grew {growth:.0f} MB")
    result.figure = f"memory_growth_mb={growth:.1f} (4 x {mode.body_mb} MB)"
    return result


def headers(rig: Rig, mode: Mode) -> Result:
    result = Result("headers")
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        answers = {
            "json": http.get("/api/search", params={"q": "install"}),
            "html": http.get("/"),
            "error": http.get("/nowhere"),
            "401": http.get(THREADS),
            "authed": http.get(THREADS, headers=rig.headers),
        }
    for name, response in answers.items():
        result.probes += 1
        if response.headers.get("x-content-type-options") != "nosniff":
            result.fail(f"{name}: no nosniff")
    if "bearer" not in answers["401"].headers.get("www-authenticate", "").lower():
        result.fail("401 without WWW-Authenticate")
    if answers["authed"].headers.get("cache-control") != "no-store":
        result.fail("authenticated response cacheable")
    return result


def _b64(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def jwt_cases(rig: Rig, mode: Mode) -> Result:
    """Tokens signed with the rig's own key for a real user, each with one claim wrong, so
    the claim check is what answers (a wrong key would be refused before any claim is
    read): each must get the documented status and code; the control and a fractional
    ``exp`` (a JSON NumericDate) are accepted. Plus unsigned, malformed, HS512 and
    wrong-key tokens."""
    result = Result("jwt")
    settings, key = _signing(rig)
    user = _battery_user(rig, settings)
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        for name, token, expected in _tokens(settings, key, user):
            response = http.get(THREADS, headers={"Authorization": f"Bearer {token}"})
            result.probes += 1
            code = _error_code(response)
            if (response.status_code, code if expected[1] else None) != expected:
                result.fail(f"{name}: {response.status_code} {code}, not {expected}")
    result.figure = f"cases={result.probes} (signed with the server's key)"
    return result


Expected = tuple[int, str | None]


def _tokens(settings: Settings, key: str, user: str) -> list[tuple[str, str, Expected]]:
    now = int(time.time())
    base = {"sub": user, "iat": now, "exp": now + 600, "iss": settings.auth.jwt_issuer,
            "aud": settings.auth.jwt_audience}  # fmt: skip
    invalid, expired = (401, "invalid_token"), (401, "token_expired")
    claims: list[tuple[str, dict[str, object], Expected]] = [
        ("control", {}, (200, None)),
        ("fractional exp", {"exp": now + 600.5}, (200, None)),
        ("expired", {"exp": now - 10}, expired),
        ("exp a string", {"exp": str(now + 600)}, invalid),
        ("no exp", {"exp": None}, invalid),
        ("no iat", {"iat": None}, invalid),
        ("iat a string", {"iat": "now"}, invalid),
        ("nbf in an hour", {"nbf": now + 3600}, invalid),
        ("other audience", {"aud": "other"}, invalid),
        ("audience list without ours", {"aud": ["other", "else"]}, invalid),
        ("other issuer", {"iss": "evil"}, invalid),
        ("issuer prefix", {"iss": settings.auth.jwt_issuer[:-1]}, invalid),
        ("empty sub", {"sub": ""}, invalid),
        ("sub a number", {"sub": 42}, invalid),
        ("no sub", {"sub": None}, invalid),
        ("unknown user", {"sub": "no-such-user"}, (401, "unknown_user")),
    ]
    tokens = [(n, _signed({**base, **c}, key), e) for n, c, e in claims]
    return [
        *tokens,
        ("HS512", pyjwt.encode(base, key, algorithm="HS512"), invalid),
        ("another key", pyjwt.encode(base, "another-key-" + "k" * 32, algorithm="HS256"), invalid),
        ("unknown crit header", pyjwt.encode(base, key, headers={"crit": ["exp2"], "exp2": 1}),
         invalid),
        ("alg none", f"{_b64({'alg': 'none'})}.{_b64(base)}.", invalid),
        ("malformed", "a.b.c", invalid),
        ("oversized", "x" * 5000, invalid),
        ("empty JSON parts", "e30.e30.e30", invalid),
    ]  # fmt: skip


def _signed(claims: dict[str, object], key: str) -> str:
    return pyjwt.encode({k: v for k, v in claims.items() if v is not None}, key)


def _signing(rig: Rig) -> tuple[Settings, str]:
    settings = Settings.model_validate(
        {"data_dir": rig.data_dir, "database_url": rig.env["ASKDOCS_DATABASE_URL"]}
    )
    return settings, signing_key(settings)


def _battery_user(rig: Rig, settings: Settings) -> str:
    db = Database.open(settings)
    try:
        return UserService(db).by_email("battery@example.com").id
    finally:
        db.close()


def _error_code(response: httpx.Response) -> str | None:
    try:
        error = response.json().get("error")
    except ValueError:
        return None
    return str(error.get("code")) if isinstance(error, dict) else None


def traversal(rig: Rig, mode: Mode) -> Result:
    """Path traversal through the reader's article and asset routes: nothing outside the
    docs root is ever served."""
    result = Result("traversal")
    variants = [p + t for p in DOT_DOT_SLASH for t in TARGETS] + list(SPECIAL)
    if not mode.full:
        variants = variants[:120]
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        for variant in variants:
            for path in (f"/api/docs/articles/{variant}", f"/api/docs/assets/index/{variant}"):
                response = http.get(path, params={"locale": "en"})
                result.probes += 1
                if response.status_code >= 500 or "root:x:" in response.text:
                    result.fail(f"{path} -> {response.status_code}")
    return result


class _Executable(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "iframe", "object", "embed", "svg", "math"):
            self.found.append(tag)
        for name, value in attrs:
            text = (value or "").strip().lower()
            if name.startswith("on") or text.startswith(("javascript:", "data:text/html")):
                self.found.append(f"{tag}[{name}]")
            if tag == "img" and name == "src" and text.startswith(("http:", "https:", "//")):
                self.found.append("external img")


def xss(rig: Rig, mode: Mode) -> Result:
    """The XSS page of the corpus, rendered by the reader: no executable vector and no
    external image survives sanitising (the Chromium execution check runs in
    tests/browser)."""
    result = Result("xss")
    response = httpx.get(f"{rig.url}/api/docs/articles/guide/xss", params={"locale": "en"})
    result.probes += 1
    if response.status_code != 200:
        result.fail(f"xss page -> {response.status_code}")
        return result
    parser = _Executable()
    parser.feed(response.json()["html"])
    result.probes += 4
    for found in parser.found:
        result.fail(found)
    return result


BAD_BODIES: list[tuple[str, str, str]] = [
    ("POST", THREADS, '{"title": "\\ud83d"}'),
    ("POST", THREADS, '{"title": "a\\u0000b"}'),
    ("POST", THREADS, '{"title": 5}'),
    ("POST", THREADS, "[" * 5000),
    ("POST", THREADS, "not json"),
    ("POST", "/api/v1/assistant/chat", '{"threadId": "x", "message": "\\udc00"}'),
    ("POST", "/api/v1/assistant/chat", '{"threadId": "' + "x" * 100 + '", "message": "hi"}'),
    ("PATCH", THREADS + "/nope", '{"title": "\\u0000"}'),
    ("POST", "/api/v1/admin/proposals/write-page", '{"path": "' + "n" * 300 + '.md"}'),
    ("POST", "/api/v1/admin/apply/write-page", '{"confirmationToken": "x", "extra": 1}'),
    ("POST", "/api/ask", '{"messages": [{"role": "user", "content": "\\ud83d"}]}'),
    ("POST", "/api/ask", '{"messages": "x"}'),
]  # fmt: skip


def bad_inputs(rig: Rig, mode: Mode) -> Result:
    """Malformed bodies on every POST/PATCH family: a 4xx with a stable code, never a 5xx."""
    result = Result("bad_inputs")
    headers = {**rig.headers, "content-type": "application/json"}
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        for method, path, body in BAD_BODIES:
            response = http.request(method, path, content=body, headers=headers)
            result.probes += 1
            code = response.json().get("error", {}).get("code") if response.content else None
            if response.status_code >= 500 or not 400 <= response.status_code < 500 or not code:
                result.fail(f"{method} {path[:40]} -> {response.status_code}")
    return result


def limits(rig: Rig, mode: Mode) -> Result:
    """The burst limit (5 in any 60 s) across a minute boundary: never more than 5 admitted
    in the 2 s around it."""
    result = Result("limits")
    wait = 60 - time.time() % 60 - 1.0
    if wait < 0:
        wait += 60
    time.sleep(wait)  # to one second before the minute boundary
    admitted = 0
    started = time.monotonic()
    with httpx.Client(base_url=rig.url, timeout=30) as http:
        while time.monotonic() - started < 2.0:
            response = http.post("/api/ask", json={"messages": "x"})  # invalid: still counted
            result.probes += 1
            admitted += response.status_code != 429
    if admitted > 5:
        result.fail(f"{admitted} admitted within 2 s at limit 5")
    result.figure = f"admitted_in_2s_across_boundary={admitted} (limit 5)"
    return result


def postgres_hang(rig: Rig, mode: Mode) -> Result:
    """PostgreSQL SIGSTOP'd under 45 concurrent signed-in requests: each answers 503
    database_unavailable within 2 s; /healthz p95 <= 100 ms meanwhile."""
    result = Result("postgres_hang")
    times: list[float] = []
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    client = httpx.Client(base_url=rig.url, timeout=30, limits=limits)
    client.get("/healthz")

    def one() -> None:
        started = time.monotonic()
        try:
            response = client.get(THREADS, headers=rig.headers)
            code = response.json().get("error", {}).get("code")
            ok = (response.status_code, code) == (503, "database_unavailable")
        except httpx.HTTPError:
            ok = False
        times.append(time.monotonic() - started)
        result.probes += 1
        if not ok:
            result.fail("not 503 database_unavailable")

    with frozen(rig.postgres), HealthSampler(rig.url) as sampler:
        workers = [threading.Thread(target=one) for _ in range(45)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        time.sleep(1.0)  # keep sampling health while the database stays hung
    client.close()
    slowest, health = max(times), p95(sampler.samples) * 1000
    if slowest > 2.0:
        result.fail(f"slowest 503 took {slowest:.2f} s")
    if health > 100:
        result.fail(f"healthz p95 {health:.0f} ms")
    result.figure = (
        f"time_to_503_max_s={slowest:.2f} p50_s={statistics.median(times):.2f} "
        f"healthz_p95_ms={health:.0f}"
    )
    return result


def bad_files(rig: Rig, mode: Mode) -> Result:
    """A symlink, a FIFO and a 1 MiB+ file in the docs root: good pages served, the bad
    ones listed in /readyz."""
    result = Result("bad_files")
    with httpx.Client(base_url=rig.url, timeout=60) as http:
        catalog = http.get("/api/docs/catalog", params={"locale": "en"})
        article = http.get("/api/docs/articles/guide/install", params={"locale": "en"})
        ready = http.get("/readyz").json()
    result.probes += 3
    if catalog.status_code != 200 or article.status_code != 200:
        result.fail(f"good pages: {catalog.status_code}/{article.status_code}")
    listed = {f["path"] for site in ready["sites"] for f in site.get("bad_files", [])}
    if not {"guide/linked.md", "guide/pipe.md", "guide/huge.md"} <= listed:
        result.fail(f"readyz lists {sorted(listed)}")
    return result


Category = Callable[[Rig, Mode], Result]
SERVER_CATEGORIES: list[Category] = [
    headers, jwt_cases, bad_inputs, traversal, xss, bad_files, body_limit, limits,
    postgres_hang,
]  # fmt: skip
