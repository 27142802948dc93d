// The bot check on this server's own pages: ALTCHA's proof of work, or Turnstile through
// /askdocs-turnstile (same origin). A token is good for one question.
import { t } from "./i18n.js";

const ALTCHA = "/static/vendor/altcha/"; // the npm altcha widget, served by askdocs itself
let altchaLoaded = null;

// The widget's script and style, once per page; the PBKDF2 worker is askdocs's copy too
// (no blob: workers, no inline styles: the pages' strict CSP holds).
function loadAltcha() {
  if (!altchaLoaded) {
    const style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = `${ALTCHA}altcha.css`;
    document.head.append(style);
    altchaLoaded = import(`${ALTCHA}altcha.js`).then(() => {
      const worker = () => new Worker(`${ALTCHA}pbkdf2.js`);
      globalThis.$altcha.algorithms.set("PBKDF2/SHA-256", worker);
    });
  }
  return altchaLoaded;
}

// ALTCHA: the widget fetches a challenge from /api/altcha/challenge, solves it in workers
// and hands over its payload, which the server accepts once.
export async function altchaToken(area, signal) {
  await loadAltcha();
  return new Promise((resolve, reject) => {
    const widget = document.createElement("altcha-widget");
    widget.setAttribute("challenge", "/api/altcha/challenge");
    widget.setAttribute("auto", "onload");
    widget.setAttribute("name", "askdocs-altcha");
    const note = document.createElement("p");
    note.className = "muted";
    note.textContent = t("botCheck");
    area.replaceChildren(note, widget);
    area.hidden = false;
    const cleanup = () => {
      area.replaceChildren();
      area.hidden = true;
    };
    widget.addEventListener("verified", (event) => {
      cleanup();
      resolve(event.detail.payload);
    });
    widget.addEventListener("statechange", (event) => {
      if (event.detail.state !== "error") return;
      cleanup();
      reject(new Error(t("askFailed")));
    });
    signal.addEventListener("abort", () => {
      cleanup();
      reject(new DOMException("Aborted", "AbortError"));
    });
  });
}

export function turnstileToken(area, signal) {
  return new Promise((resolve, reject) => {
    const frame = document.createElement("iframe");
    frame.className = "botcheck-frame";
    frame.title = t("botCheck");
    frame.src = `/askdocs-turnstile?origin=${encodeURIComponent(window.location.origin)}`;
    const note = document.createElement("p");
    note.className = "muted";
    note.textContent = t("botCheck");
    area.replaceChildren(note, frame);
    area.hidden = false;
    const cleanup = () => {
      window.removeEventListener("message", onMessage);
      area.replaceChildren();
      area.hidden = true;
    };
    const onMessage = (event) => {
      if (event.source !== frame.contentWindow || event.origin !== window.location.origin) return;
      const data = event.data || {};
      if (data.type === "askdocs-turnstile" && typeof data.token === "string") {
        cleanup();
        resolve(data.token);
      } else if (data.type === "askdocs-turnstile-error") {
        cleanup();
        reject(new Error(t("askFailed")));
      }
    };
    window.addEventListener("message", onMessage);
    signal.addEventListener("abort", () => {
      cleanup();
      reject(new DOMException("Aborted", "AbortError"));
    });
  });
}

// Inside the widget frame: the embedding page runs the bot check (on its own origin, as
// the custom-domain flow needs) and posts the token down to us.
export function tokenFromParent(area, signal, parentOrigin) {
  return new Promise((resolve, reject) => {
    const note = document.createElement("p");
    note.className = "muted";
    note.textContent = t("botCheck");
    area.replaceChildren(note);
    area.hidden = false;
    const cleanup = () => {
      window.removeEventListener("message", onMessage);
      area.replaceChildren();
      area.hidden = true;
    };
    const onMessage = (event) => {
      if (event.source !== window.parent) return;
      if (parentOrigin && event.origin !== parentOrigin) return;
      const data = event.data || {};
      if (data.type === "askdocs-widget-token" && typeof data.token === "string") {
        cleanup();
        resolve(data.token);
      } else if (data.type === "askdocs-widget-token-error") {
        cleanup();
        reject(new Error(t("askFailed")));
      }
    };
    window.addEventListener("message", onMessage);
    signal.addEventListener("abort", () => {
      cleanup();
      reject(new DOMException("Aborted", "AbortError"));
    });
    window.parent.postMessage({ type: "askdocs-widget-token-request" }, parentOrigin || "*");
  });
}
