// The HTTP API the reader and the Ask AI panel use. Everything is same-origin.

export class ApiError extends Error {
  constructor(status, code, message, extra = {}) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.retryAfter = extra.retryAfter ?? null; // seconds, from Retry-After
    this.sources = extra.sources ?? []; // Ask AI's 503 model_unavailable lists them
  }
}

// The error of a failed response: its status, the body's error code and message, the
// Retry-After seconds and (Ask AI's model_unavailable) the sources retrieval found.
export async function failure(response) {
  let code = "";
  let message = "";
  let sources = [];
  try {
    const body = await response.json();
    code = body?.error?.code || "";
    message = body?.error?.message || "";
    if (Array.isArray(body?.sources)) sources = cleanSources(body.sources);
  } catch {
    // not JSON: keep the status only
  }
  const wait = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
  return new ApiError(response.status, code, message, {
    retryAfter: Number.isFinite(wait) ? wait : null,
    sources,
  });
}

async function getJson(path, params, signal) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") query.set(key, value);
  }
  const response = await fetch(`${path}?${query}`, { signal, headers: { Accept: "application/json" } });
  if (!response.ok) throw await failure(response);
  return response.json();
}

export function fetchCatalog(site, locale, signal) {
  return getJson("/api/docs/catalog", { site, locale }, signal);
}

export function fetchArticle(site, slug, locale, signal) {
  const path = slug.split("/").map(encodeURIComponent).join("/");
  return getJson(`/api/docs/articles/${path}`, { site, locale }, signal);
}

export function search(site, q, locale, signal) {
  return getJson("/api/search", { q, site, locale, audience: "user", limit: 8 }, signal);
}

// Sources arrive in the X-Ask-Sources header (URL-encoded JSON), before the first word.
export function parseSources(header) {
  if (!header) return [];
  try {
    const items = JSON.parse(decodeURIComponent(header));
    return Array.isArray(items) ? cleanSources(items) : [];
  } catch {
    return [];
  }
}

function cleanSources(items) {
  return items
    .filter((item) => item && typeof item.title === "string" && typeof item.url === "string")
    .map((item) => ({
      title: item.title,
      url: item.url,
      heading: typeof item.heading === "string" ? item.heading : "",
    }));
}

// GET /api/ask/limits: {remaining, limit, resetsAt} for the counter shown before a question.
export async function askLimits(signal) {
  const response = await fetch("/api/ask/limits", {
    signal,
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}

// POST /api/ask; calls onStart({sources, remaining}) when the headers arrive, then
// onText(chunk) for each piece of the streamed answer. Resolves with the whole text.
let sessionCsrf = null;

// The signed-in person's CSRF token ("" for visitors): a signed-in member may ask about
// their organisation's private site, and a cookie request that changes state carries it.
async function csrfToken() {
  if (sessionCsrf === null) {
    try {
      const response = await fetch("/api/v1/auth/session", { headers: { Accept: "application/json" }, cache: "no-store" });
      const state = response.ok ? await response.json() : {};
      sessionCsrf = state.signedIn ? state.me.csrfToken || "" : "";
    } catch {
      sessionCsrf = "";
    }
  }
  return sessionCsrf;
}

export async function ask({ messages, token, locale, signal, onStart, onText }) {
  const headers = { "Content-Type": "application/json", Accept: "text/plain" };
  const csrf = await csrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch("/api/ask", {
    method: "POST",
    signal,
    headers,
    body: JSON.stringify({ token: token || "", messages, locale }),
  });
  if (!response.ok) throw await failure(response);
  const remaining = Number.parseInt(response.headers.get("X-Ask-Remaining") ?? "", 10);
  onStart({
    sources: parseSources(response.headers.get("X-Ask-Sources")),
    remaining: Number.isFinite(remaining) ? remaining : null,
    answerId: response.headers.get("X-Ask-Id") || null,
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const piece = decoder.decode(value, { stream: true });
    text += piece;
    onText(piece, text);
  }
  const rest = decoder.decode();
  if (rest) {
    text += rest;
    onText(rest, text);
  }
  return text;
}

// POST /api/ask/feedback: the asking visitor's rating ("up" | "down") of one answer.
export async function sendFeedback(answerId, rating, comment) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  const csrf = await csrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const body = { answerId, rating };
  if (comment) body.comment = comment;
  const response = await fetch("/api/ask/feedback", {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
}
