// The widget's panel page (/widget/frame), shown in an iframe by /widget.js.
import { createAskPanel } from "./ask.js";
import { tokenFromParent } from "./botcheck.js";
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
  getToken: (area, signal) => tokenFromParent(area, signal, origin),
});

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  if (origin && event.origin !== origin) return;
  if (event.data?.type === "askdocs-widget-focus") panel.input.focus();
});
window.parent.postMessage({ type: "askdocs-widget-ready" }, origin || "*");
