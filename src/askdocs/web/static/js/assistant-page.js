// /assistant: the signed-in person's session (cookie) when there is one; else a bearer
// token (pasted, or left in sessionStorage by the app that opened this page). The token
// lives in this tab's sessionStorage only: never in a URL, a cookie or localStorage.
import { ApiError } from "./api.js";
import { Session } from "./account-api.js";
import { AssistantApi } from "./assistant-api.js";
import { mountAssistant } from "./assistant.js";

export const TOKEN_KEY = "askdocs.assistant.token";
const config = JSON.parse(document.querySelector('meta[name="askdocs-config"]').content);
const root = document.getElementById("assistant-root");
const signOut = document.getElementById("sign-out");
let mounted = null;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function storedToken() {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

function store(token) {
  try {
    if (token) window.sessionStorage.setItem(TOKEN_KEY, token);
    else window.sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage disabled: the token lives in this page only
  }
}

function signInView(message = "") {
  mounted?.forget(); // pending proposals drop their tokens
  mounted = null;
  signOut.hidden = true;
  document.getElementById("threads-toggle").hidden = true;
  const heading = el("h1", "", "Sign in to the assistant");
  heading.id = "signin-title";
  const signInLink = el("a", "primary-button sso-button", "Sign in with your account");
  signInLink.id = "signin-account";
  signInLink.href = `/sign-in?${new URLSearchParams({ next: "/assistant" })}`;
  const help = el("p", "", "Or paste an access token. An operator creates one on the server with ");
  help.append(el("code", "", "askdocs token create --email you@example.com"), ".");
  const label = el("label", "signin-label", "Access token");
  label.htmlFor = "signin-token";
  const input = el("input", "signin-input");
  Object.assign(input, { id: "signin-token", type: "password", autocomplete: "off", spellcheck: false });
  const note = el("p", "muted signin-note",
    "The token stays in this browser tab only and is forgotten when you close the tab.");
  const error = el("p", "ask-error", message);
  error.id = "signin-error";
  error.setAttribute("role", "alert");
  const button = el("button", "primary-button", "Sign in");
  button.type = "submit";
  const form = el("form", "signin-card");
  form.setAttribute("aria-labelledby", "signin-title");
  form.append(heading, signInLink, help, label, input, note, error, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = input.value.trim().replace(/^Bearer\s+/i, "");
    if (!JWT.test(token)) {
      error.textContent = "That does not look like an access token (three parts joined by dots).";
      input.focus();
      return;
    }
    button.disabled = true;
    error.textContent = "";
    try {
      await new AssistantApi(token).listThreads();
      store(token);
      start(token);
    } catch (failure) {
      const refused = failure instanceof ApiError && failure.status === 401;
      error.textContent = refused
        ? "This token was not accepted: it may have expired. Ask for a new one."
        : "The assistant cannot be reached right now. Try again.";
      button.disabled = false;
      input.focus();
    }
  });
  const main = el("main", "signin");
  main.append(form);
  root.replaceChildren(main);
  input.focus();
}

let session = null;

function start(token) {
  signOut.hidden = false;
  mounted = mountAssistant({
    root,
    token,
    csrf: session ? session.csrf : "",
    siteId: config.site || null,
    maxChars: config.maxMessageChars || 32000,
    onUnauthorized: () => {
      store("");
      session = null;
      signInView("Your session has ended. Sign in again.");
    },
  });
}

signOut.addEventListener("click", async () => {
  store("");
  document.body.classList.remove("threads-open");
  if (session) {
    await session.signOut().catch(() => {});
    session = null;
  }
  signInView();
});

async function main() {
  session = await Session.current().catch(() => null);
  const token = storedToken();
  if (session) start("");
  else if (token) start(token);
  else signInView();
  document.body.dataset.ready = "true";
}

main();
