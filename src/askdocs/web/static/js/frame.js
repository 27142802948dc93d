// The widget's panel page (/widget/frame), shown in an iframe by /widget.js.
import { createAskPanel } from "./ask.js";
import { altchaToken, tokenFromParent } from "./botcheck.js";
import { setLocale, translate } from "./i18n.js";

const config = JSON.parse(document.querySelector('meta[name="askdocs-config"]').content);
const params = new URLSearchParams(window.location.search);
const wanted = params.get("locale") || config.defaultLocale;
setLocale(config.locales.includes(wanted) ? wanted : "en");
translate();

function parentOrigin() {
  try {
    const origin = new URL(params.get("parent") || "").origin;
    return origin === "null" ? "" : origin;
  } catch {
    return "";
  }
}

const origin = parentOrigin();
const panel = createAskPanel({
  root: document.getElementById("ask-root"),
  config,
  frame: true,
  onClose: () => window.parent.postMessage({ type: "askdocs-widget-close" }, origin || "*"),
  // ALTCHA runs here, on askdocs's own origin; Turnstile on the embedding page's (the
  // custom-domain flow), which hands the token down.
  getToken:
    config.botCheck === "altcha" ? altchaToken : (area, signal) => tokenFromParent(area, signal, origin),
});

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  if (origin && event.origin !== origin) return;
  if (event.data?.type === "askdocs-widget-focus") panel.input.focus();
});
window.parent.postMessage({ type: "askdocs-widget-ready" }, origin || "*");
