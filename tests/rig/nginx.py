"""nginx (Debian's package) as the rig's TLS terminator and round-robin balancer, with a
self-signed certificate for 127.0.0.1 and localhost made at test time. One process
(``master_process off``), its every path (logs, temp files, pid) in its own folder."""

from __future__ import annotations

import datetime
import ipaddress
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

START_TIMEOUT = 30.0
CONFIG = """daemon off;
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log {folder}/access.log;
  client_body_temp_path {folder}/body;
  proxy_temp_path {folder}/proxy;
  fastcgi_temp_path {folder}/fastcgi;
  uwsgi_temp_path {folder}/uwsgi;
  scgi_temp_path {folder}/scgi;
  client_max_body_size 8m;
  upstream askdocs {{
{servers}
    keepalive 32;
  }}
  server {{
    listen 127.0.0.1:{port} ssl;
    ssl_certificate {folder}/cert.pem;
    ssl_certificate_key {folder}/key.pem;
    location / {{
      proxy_pass http://askdocs;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_read_timeout 300s;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout;
      add_header X-Rig-Upstream $upstream_addr always;
    }}
  }}
}}
"""


@dataclass
class Nginx:
    process: subprocess.Popen[bytes]
    port: int
    folder: Path

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"


def nginx_binary() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        raise RuntimeError("nginx is not installed: run scripts/install-test-deps")
    return found


def self_signed(folder: Path) -> None:
    """``cert.pem`` and ``key.pem`` for 127.0.0.1, ::1 and localhost, valid for two days."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "askdocs test rig")])
    now = datetime.datetime.now(datetime.UTC)
    names = [
        x509.DNSName("localhost"),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
        x509.IPAddress(ipaddress.ip_address("::1")),
    ]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(key, hashes.SHA256())
    )
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (folder / "key.pem").write_bytes(private)
    (folder / "key.pem").chmod(0o600)


def write_config(folder: Path, port: int, upstreams: Sequence[str]) -> Path:
    servers = "\n".join(f"    server {u} max_fails=1 fail_timeout=2s;" for u in upstreams)
    path = folder / "nginx.conf"
    path.write_text(CONFIG.format(folder=folder, port=port, servers=servers), encoding="utf-8")
    return path


@contextmanager
def running_nginx(folder: Path, port: int, upstreams: Sequence[str]) -> Iterator[Nginx]:
    """nginx on 127.0.0.1:``port`` (TLS) in front of ``upstreams`` until the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    self_signed(folder)
    config = write_config(folder, port, upstreams)
    binary = nginx_binary()
    errors = folder / "error.log"
    command = [binary, "-c", str(config), "-p", str(folder), "-e", str(errors)]
    with (folder / "stdout.log").open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=sink)
    try:
        _wait(process, port, folder)
        yield Nginx(process, port, folder)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _wait(process: subprocess.Popen[bytes], port: int, folder: Path) -> None:
    """Poll until nginx answers through TLS (it offers no readiness event)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = (
                (folder / "error.log").read_text(errors="replace")
                if (folder / "error.log").exists()
                else ""
            )
            raise RuntimeError(f"nginx exited with {process.returncode}: {log}")
        try:
            httpx.get(f"https://127.0.0.1:{port}/healthz", verify=False, timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError(f"nginx did not answer within {START_TIMEOUT} s")
