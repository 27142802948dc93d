// The signed-in assistant's HTTP API: threads, the chat stream (the AI SDK UI message
// stream, parsed frame by frame), and applying a proposal. Same-origin only; the bearer
// token travels in the Authorization header, never in a URL. Without a token the session
// cookie signs the requests, and changes carry the session's CSRF token.
import { failure } from "./api.js";

const THREADS = "/api/v1/assistant/threads";
const CHAT = "/api/v1/assistant/chat";
const APPLY = "/api/v1/admin/apply/";
const PROPOSALS = "/api/v1/proposals/";

export class AssistantApi {
  constructor(token, csrf = "") {
    this.token = token;
    this.csrf = csrf;
  }

  headers(extra = {}) {
    const auth = this.token ? { Authorization: `Bearer ${this.token}` } : { "X-CSRF-Token": this.csrf };
    return { ...auth, Accept: "application/json", ...extra };
  }

  async request(method, path, body, signal) {
    const init = { method, signal, headers: this.headers(), cache: "no-store" };
    if (body !== undefined) {
      init.headers = this.headers({ "Content-Type": "application/json" });
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    if (!response.ok) throw await failure(response);
    return response.status === 204 ? null : response.json();
  }

  async listThreads(signal, archived = false) {
    const path = archived ? `${THREADS}?archived=true` : THREADS;
    return (await this.request("GET", path, undefined, signal)).threads;
  }

  patchThread(id, changes) {
    return this.request("PATCH", `${THREADS}/${encodeURIComponent(id)}`, changes);
  }

  deleteThread(id) {
    return this.request("DELETE", `${THREADS}/${encodeURIComponent(id)}`);
  }

  async createThread(siteId) {
    const body = siteId ? { siteId } : {};
    return (await this.request("POST", THREADS, body)).id;
  }

  getThread(id, signal) {
    return this.request("GET", `${THREADS}/${encodeURIComponent(id)}`, undefined, signal);
  }

  // POST /chat, then onFrame(frame) for every frame of the stream, in order.
  async chat({ threadId, message, siteId, pageContext, signal, onFrame }) {
    const body = { threadId, message };
    if (siteId) body.siteId = siteId;
    if (pageContext) body.pageContext = pageContext;
    const response = await fetch(CHAT, {
      method: "POST",
      signal,
      cache: "no-store",
      headers: this.headers({ "Content-Type": "application/json", Accept: "text/event-stream" }),
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await failure(response);
    await readFrames(response.body, onFrame);
  }

  // Rate one of the caller's replies: "up" | "down", with an optional comment.
  rateReply(messageId, rating, comment) {
    const body = comment ? { rating, comment } : { rating };
    return this.request("POST", `/api/v1/assistant/messages/${encodeURIComponent(messageId)}/feedback`, body);
  }

  // Apply one proposal: its arguments plus the token, to the operation's apply endpoint.
  apply(operation, args, token) {
    return this.request("POST", APPLY + operationSlug(operation), { ...args, confirmationToken: token });
  }

  // Stored proposals (every assistant proposal is one): shown, applied once, discarded.
  getProposal(id) {
    return this.request("GET", PROPOSALS + encodeURIComponent(id));
  }

  applyProposal(id, token) {
    return this.request("POST", `${PROPOSALS}${encodeURIComponent(id)}/apply`, { confirmationToken: token });
  }

  discardProposal(id) {
    return this.request("POST", `${PROPOSALS}${encodeURIComponent(id)}/discard`);
  }
}

// "WritePage" -> "write-page"; anything that is not a plain operation name is refused.
export function operationSlug(operation) {
  if (!/^[A-Z][A-Za-z]{1,63}$/.test(String(operation))) throw new Error("not an operation");
  return operation.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
}

// Split a UI message stream into frames: "data: <json>" blocks, ending at "data: [DONE]".
export function parseFrames(buffer) {
  const frames = [];
  let rest = buffer;
  let done = false;
  for (let end = rest.indexOf("\n\n"); end !== -1; end = rest.indexOf("\n\n")) {
    const block = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (!data) continue;
    if (data === "[DONE]") {
      done = true;
      break;
    }
    try {
      const frame = JSON.parse(data);
      if (frame && typeof frame.type === "string") frames.push(frame);
    } catch {
      // a malformed frame is skipped, never fatal
    }
  }
  return { frames, rest, done };
}

async function readFrames(body, onFrame) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    const parsed = parseFrames(buffer.replace(/\r\n/g, "\n"));
    buffer = parsed.rest;
    for (const frame of parsed.frames) onFrame(frame);
    if (parsed.done) {
      await reader.cancel().catch(() => {});
      return;
    }
    if (done) return;
  }
}
