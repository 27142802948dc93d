// The bot check on this server's own pages: frame /askdocs-turnstile (same origin) and
// wait for the token it posts back. A token is good for one question.
import { t } from "./i18n.js";

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
