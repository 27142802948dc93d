"""The Node OpenID provider (``tests/node/oidc-provider.mjs``, the ``oidc-provider`` npm
package) as a subprocess on a free loopback port."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.support.process import free_port

NODE_DIR = Path(__file__).resolve().parent.parent / "node"
SCRIPT = NODE_DIR / "oidc-provider.mjs"
CLIENT_ID = "askdocs-test"
CLIENT_SECRET = "askdocs-test-secret-0123456789abcdef"
START_TIMEOUT = 30.0


@dataclass
class OidcProvider:
    issuer: str

    def tamper(
        self,
        mode: str = "",
        *,
        claims: dict[str, object] | None = None,
        without: tuple[str, ...] = (),
    ) -> None:
        """The next id token comes back with ``mode`` applied (wrong-aud, expired,
        bad-nonce), with ``claims`` and without the claims named in ``without``, re-signed
        with the provider's key."""
        body = {"mode": mode, "set": claims or {}, "drop": list(without)}
        httpx.post(self.issuer + "/test/tamper", json=body).raise_for_status()

    def accounts_claim(
        self, claims: dict[str, object] | None = None, without: tuple[str, ...] = ()
    ) -> None:
        """Every account's claims (id token and userinfo alike) change until the next call."""
        body = {"set": claims or {}, "drop": list(without)}
        httpx.post(self.issuer + "/test/account", json=body).raise_for_status()

    def settings(self, domains: list[str]) -> dict[str, object]:
        return {
            "issuer": self.issuer,
            "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET,
            "allowed_email_domains": domains,
            "display_name": "Test provider",
        }


def node_ready() -> bool:
    return (
        shutil.which("node") is not None and (NODE_DIR / "node_modules" / "oidc-provider").is_dir()
    )


@contextmanager
def oidc_provider(redirect_uri: str, log: Path) -> Iterator[OidcProvider]:
    """The provider until the block ends; its output goes to ``log``."""
    port = free_port()
    command = ["node", str(SCRIPT), str(port), CLIENT_ID, CLIENT_SECRET, redirect_uri]
    provider = OidcProvider(f"http://127.0.0.1:{port}")
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=NODE_DIR, stdout=sink, stderr=sink)
        try:
            _wait(process, provider.issuer + "/.well-known/openid-configuration", log)
            yield provider
        finally:
            process.terminate()
            process.wait(10)


def _wait(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the OpenID provider exited: {log.read_text(errors='replace')}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError("the OpenID provider did not start")
