// The signed-in person's HTTP API from the browser: the session cookie travels on its own
// (HttpOnly, never readable here); changes carry the session's CSRF token in X-CSRF-Token.
import { failure } from "./api.js";

export class Session {
  constructor(me) {
    this.me = me;
    this.csrf = me.csrfToken || "";
  }

  // The signed-in person, or null (asked without a 401, which browsers log as an error).
  static async current() {
    const state = await request("GET", "/api/v1/auth/session");
    return state.signedIn ? new Session(state.me) : null;
  }

  get user() {
    return this.me.user;
  }

  call(method, path, body) {
    return request(method, path, body, this.csrf);
  }

  async signOut() {
    await this.call("POST", "/api/v1/auth/sign-out");
  }
}

export async function request(method, path, body, csrf = "") {
  const headers = { Accept: "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const init = { method, headers, cache: "no-store", credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await failure(response);
  return response.status === 204 ? null : response.json();
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function field(labelText, input) {
  const label = el("label", "signin-label", labelText);
  label.htmlFor = input.id;
  return [label, input];
}

export function input(id, type, autocomplete) {
  const node = el("input", "signin-input");
  Object.assign(node, { id, name: id, type, autocomplete, required: true });
  return node;
}
