/*
 * askdocs Ask AI widget. Add to any page:
 *   <script src="https://ASKDOCS-HOST/widget.js" data-site="SITE-ID"
 *           data-launcher-text="Ask AI" async></script>
 * Optional: data-locale="en|cs|sk", data-position="right|left".
 * It adds a launcher button; the panel itself is an iframe served by askdocs, so questions
 * go to /api/ask on askdocs's own origin (no CORS). When askdocs runs a bot check, this
 * page frames /askdocs-turnstile?origin=<this page's origin> and hands the token it posts
 * back to the panel (the custom-domain flow). Styles are set through the CSSOM inside a
 * shadow root, so a strict host CSP (no 'unsafe-inline') works.
 */
(function () {
  "use strict";
  if (window.__askdocsWidget) return;
  var script = document.currentScript || document.querySelector('script[src*="widget.js"][data-site]');
  if (!script) return;
  window.__askdocsWidget = true;

  var origin = new URL(script.src, window.location.href).origin;
  var data = script.dataset;
  var site = data.site || "";
  var label = (data.launcherText || "Ask AI").slice(0, 40);
  var lang = (data.locale || document.documentElement.lang || "en").slice(0, 2).toLowerCase();
  var side = data.position === "left" ? "left" : "right";
  var phone = window.matchMedia("(max-width: 48em)");

  function css(node, styles) {
    for (var key in styles) node.style.setProperty(key, styles[key]);
    return node;
  }

  var host = document.createElement("div");
  host.id = "askdocs-widget";
  var root = host.attachShadow ? host.attachShadow({ mode: "open" }) : host;

  var launcher = document.createElement("button");
  launcher.type = "button";
  launcher.textContent = label;
  launcher.setAttribute("aria-expanded", "false");
  launcher.setAttribute("aria-haspopup", "dialog");
  css(launcher, {
    position: "fixed", bottom: "20px", "z-index": "2147483000", padding: "12px 18px",
    border: "0", "border-radius": "999px", background: "#1d4ed8", color: "#ffffff",
    font: "600 15px/1.2 system-ui, -apple-system, 'Segoe UI', sans-serif",
    "box-shadow": "0 6px 20px rgba(15, 23, 42, 0.25)", cursor: "pointer",
  });
  css(launcher, side === "left" ? { left: "20px" } : { right: "20px" });
  launcher.addEventListener("focus", function () {
    css(launcher, { outline: "3px solid #93c5fd", "outline-offset": "2px" });
  });
  launcher.addEventListener("blur", function () { css(launcher, { outline: "none" }); });

  var panel = document.createElement("div");
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", label);
  panel.hidden = true;
  css(panel, {
    position: "fixed", "z-index": "2147483001", background: "#ffffff",
    "box-shadow": "0 8px 30px rgba(15, 23, 42, 0.3)", display: "none", "flex-direction": "column",
  });
  var check = document.createElement("div");
  css(check, { display: "none", height: "80px", "border-top": "1px solid #d0d7de", background: "#ffffff" });
  var frame = null;
  var ready = false;

  function shape() {
    var sheet = phone.matches;
    css(panel, {
      top: sheet ? "auto" : "0", bottom: "0",
      left: sheet || side === "left" ? "0" : "auto", right: sheet || side === "right" ? "0" : "auto",
      width: sheet ? "100%" : "min(560px, 100vw)", height: sheet ? "85vh" : "100vh",
      "border-radius": sheet ? "14px 14px 0 0" : "0", overflow: "hidden",
    });
  }

  function frameUrl() {
    var url = new URL("/widget/frame", origin);
    if (site) url.searchParams.set("site", site);
    url.searchParams.set("locale", lang);
    url.searchParams.set("parent", window.location.origin);
    return url.href;
  }

  function open() {
    if (!frame) {
      frame = document.createElement("iframe");
      frame.src = frameUrl();
      frame.title = label;
      frame.setAttribute("allow", "clipboard-write");
      css(frame, { border: "0", width: "100%", flex: "1 1 auto", display: "block" });
      panel.append(frame, check);
    }
    shape();
    panel.hidden = false;
    css(panel, { display: "flex" });
    launcher.setAttribute("aria-expanded", "true");
    css(launcher, { display: "none" });
    if (ready) focusFrame();
  }

  function close() {
    panel.hidden = true;
    css(panel, { display: "none" });
    launcher.setAttribute("aria-expanded", "false");
    css(launcher, { display: "block" });
    launcher.focus();
  }

  function focusFrame() {
    frame.focus();
    frame.contentWindow.postMessage({ type: "askdocs-widget-focus" }, origin);
  }

  // The bot check runs here, on the embedding page's origin, as seed 001's custom-domain
  // flow requires; the token goes down to the panel.
  function botCheck() {
    var challenge = document.createElement("iframe");
    challenge.src = origin + "/askdocs-turnstile?origin=" + encodeURIComponent(window.location.origin);
    challenge.title = "Bot check";
    css(challenge, { border: "0", width: "100%", height: "78px" });
    check.replaceChildren(challenge);
    css(check, { display: "block" });
    function done(message) {
      window.removeEventListener("message", onToken);
      check.replaceChildren();
      css(check, { display: "none" });
      if (frame) frame.contentWindow.postMessage(message, origin);
    }
    function onToken(event) {
      if (event.source !== challenge.contentWindow || event.origin !== origin) return;
      var message = event.data || {};
      if (message.type === "askdocs-turnstile" && typeof message.token === "string") {
        done({ type: "askdocs-widget-token", token: message.token });
      } else if (message.type === "askdocs-turnstile-error") {
        done({ type: "askdocs-widget-token-error" });
      }
    }
    window.addEventListener("message", onToken);
  }

  window.addEventListener("message", function (event) {
    if (!frame || event.source !== frame.contentWindow || event.origin !== origin) return;
    var type = (event.data || {}).type;
    if (type === "askdocs-widget-ready") {
      ready = true;
      if (!panel.hidden) focusFrame();
    } else if (type === "askdocs-widget-close") {
      close();
    } else if (type === "askdocs-widget-token-request") {
      botCheck();
    }
  });
  launcher.addEventListener("click", open);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !panel.hidden) close();
  });
  if (phone.addEventListener) phone.addEventListener("change", shape);

  root.append(launcher, panel);
  (document.body || document.documentElement).append(host);
})();
