// One assistant on every signed-in page (seed 002): the server includes this script in the
// reader, /admin, /account and /proposals/<id> alike (server/routes/web.py, with_assistant).
// For a signed-in person it adds the Assistant trigger to the page's header and one drawer
// (a bottom sheet below 48em); for anyone else it adds nothing. The trigger and
// Alt+Shift+A open it; every turn carries the page being read (url, title, path, section);
// the empty conversation greets with suggestions for this kind of page. Other scripts call
// window.askdocsAssistant.openWithPrompt(text, { extraContext, send }) (or the seed's
// openWithPrompt(text, extraContext, { send })) or dispatch the "askdocs:assistant" event
// with {detail: {prompt, extraContext, send}} to open it pre-filled.
import { Session } from "./account-api.js";
import { mountAssistant } from "./assistant.js";

const config = JSON.parse(document.querySelector('meta[name="askdocs-config"]').content);
const STYLES = ["/static/assistant.css", "/static/assistant-drawer.css"];
const state = { session: null, drawer: null, body: null, mounted: null, history: null, returnTo: null };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function clip(text, max) {
  const value = String(text || "").replace(/\s+/g, " ").trim();
  return value ? value.slice(0, max) : undefined;
}

// The heading the person is reading: the address's anchor, else the last section heading
// above the top third of the window.
function currentSection(article) {
  const anchor = decodeURIComponent(window.location.hash.slice(1));
  const target = anchor ? document.getElementById(anchor) : null;
  const heading = target?.closest("h2, h3, h4") || (target?.matches?.("h2, h3, h4") ? target : null);
  if (heading) return clip(heading.textContent, 300);
  let found = null;
  for (const candidate of article?.querySelectorAll("h2, h3") || []) {
    if (candidate.getBoundingClientRect().top > window.innerHeight / 3) break;
    found = candidate;
  }
  return found ? clip(found.textContent, 300) : undefined;
}

export function pageContext() {
  const article = document.getElementById("article");
  const heading = (article || document.querySelector("main") || document.body).querySelector("h1, h2");
  const title = clip(heading?.textContent || document.title, 300);
  const { pathname, search, hash } = window.location;
  return {
    url: `${pathname}${search}${hash}`.slice(0, 2000),
    title,
    path: pathname.slice(0, 1000),
    section: currentSection(article),
  };
}

// The empty conversation of a page that is not an article: 2-4 chips for its kind.
const KINDS = [
  ["/admin", "You are in the admin area. Ask how to do something here.",
    ["How do I add a documentation site?", "How do I invite someone?", "How do I change the chat provider?"]],
  ["/account", "This is your account. Ask about it, or anything else.",
    ["What can my role do?", "How do I change my password?", "How do I use askdocs from an MCP client?"]],
  ["/proposals/", "This is a proposed change. Ask what it does before you apply it.",
    ["What would this change do?", "How do I apply or discard a proposal?"]],
];

function welcome() {
  const { title, section, path } = pageContext();
  const kind = KINDS.find(([prefix]) => path.startsWith(prefix));
  if (kind) return { greeting: kind[1], chips: kind[2] };
  if (!path.startsWith("/docs/") || !title) {
    return {
      greeting: "Ask anything about this documentation.",
      chips: ["Where do I start?", "How do I install it?", "What can I configure?"],
    };
  }
  const chips = [`Summarise “${title}”`, `Show me an example from “${title}”`];
  if (section) chips.splice(1, 0, `Explain “${section}”`);
  chips.push(`What should I read after “${title}”?`);
  return { greeting: `You are reading “${title}”. Ask about it, or anything else.`, chips: chips.slice(0, 4) };
}

function loadStyles() {
  for (const href of STYLES) {
    if (document.querySelector(`link[href="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
}

function build() {
  const drawer = el("aside", "assistant-drawer");
  drawer.id = "assistant-drawer";
  drawer.setAttribute("role", "dialog");
  drawer.setAttribute("aria-labelledby", "assistant-drawer-title");
  drawer.hidden = true;
  const head = el("div", "assistant-drawer-head");
  const title = el("h2", "assistant-drawer-title", "Assistant");
  title.id = "assistant-drawer-title";
  const history = el("button", "secondary-button assistant-history", "History");
  Object.assign(history, { type: "button", id: "assistant-history" });
  history.setAttribute("aria-controls", "threads");
  history.setAttribute("aria-expanded", "false");
  const full = el("a", "secondary-button assistant-full", "Full screen");
  full.href = "/assistant";
  const close = el("button", "icon-button assistant-close", "×");
  Object.assign(close, { type: "button", id: "assistant-close" });
  close.setAttribute("aria-label", "Close the assistant");
  close.addEventListener("click", () => hide(true));
  head.append(title, history, full, close);
  const body = el("div", "assistant-root assistant-drawer-body");
  drawer.append(head, body);
  document.body.append(drawer);
  return { drawer, body, history };
}

function mount() {
  const built = build();
  Object.assign(state, built);
  state.mounted = mountAssistant({
    root: built.body,
    token: "",
    csrf: state.session.csrf,
    siteId: config.site || null,
    toggle: built.history,
    navHost: built.drawer,
    pageContext,
    welcome,
    onUnauthorized: () => {
      hide(false);
      document.getElementById("assistant-open").hidden = true;
    },
  });
}

function show() {
  if (!state.session) return;
  if (!state.mounted) mount();
  else {
    state.mounted.welcomeAgain();
    state.mounted.opened(); // the list again, and the "has no reply yet" hint
  }
  state.returnTo = document.activeElement;
  state.drawer.hidden = false;
  document.body.classList.add("assistant-open");
  document.getElementById("assistant-open").setAttribute("aria-expanded", "true");
  document.getElementById("composer-input")?.focus();
}

function hide(returnFocus) {
  if (!state.drawer || state.drawer.hidden) return;
  state.drawer.hidden = true;
  document.body.classList.remove("assistant-open");
  const trigger = document.getElementById("assistant-open");
  trigger.setAttribute("aria-expanded", "false");
  const back = state.returnTo;
  const usable = back?.isConnected && back !== document.body && !state.drawer.contains(back);
  if (returnFocus) (usable ? back : trigger).focus();
}

function toggle() {
  if (state.drawer && !state.drawer.hidden) hide(true);
  else show();
}

// openWithPrompt(prompt, { extraContext, send }), or seed 002's
// openWithPrompt(prompt, extraContext, { send }).
export function openWithPrompt(text, second = {}, third = {}) {
  const options = typeof second === "string" ? { ...third, extraContext: second } : second || {};
  show();
  state.mounted?.ask(String(text || ""), {
    send: Boolean(options.send),
    extraContext: options.extraContext || null,
  });
}

// The header trigger: the page's own #assistant-open, else one added to its header (next to
// the sign-out button when there is one).
function triggerButton() {
  const found = document.getElementById("assistant-open");
  if (found) return found;
  const button = el("button", "secondary-button assistant-trigger");
  Object.assign(button, { type: "button", id: "assistant-open", title: "Assistant (Alt+Shift+A)" });
  button.setAttribute("aria-controls", "assistant-drawer");
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-keyshortcuts", "Alt+Shift+A");
  button.setAttribute("aria-label", "Assistant");
  const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  icon.setAttribute("viewBox", "0 0 24 24");
  icon.setAttribute("width", "18");
  icon.setAttribute("height", "18");
  icon.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M4 5h16v11H9l-5 4z");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "2");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke-linejoin", "round");
  icon.append(path);
  button.append(icon, el("span", "", "Assistant"));
  button.hidden = true;
  const header = document.querySelector("header.topbar") || document.body;
  const signOut = header.querySelector("#sign-out");
  if (signOut) signOut.before(button);
  else header.append(button);
  return button;
}

async function main() {
  state.session = await Session.current().catch(() => null);
  if (!state.session) return;
  const trigger = triggerButton();
  loadStyles();
  trigger.hidden = false;
  trigger.addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    if (event.altKey && event.shiftKey && event.code === "KeyA") {
      event.preventDefault();
      toggle();
    } else if (event.key === "Escape" && state.drawer && !state.drawer.hidden &&
      !state.drawer.classList.contains("threads-open") && state.drawer.contains(document.activeElement)) {
      hide(true);
    }
  });
  window.addEventListener("askdocs:assistant", (event) => openWithPrompt(event.detail?.prompt, event.detail || {}));
  window.askdocsAssistant = { openWithPrompt, open: show, close: () => hide(true) };
}

main().finally(() => {
  document.body.dataset.assistantReady = "true";
});
