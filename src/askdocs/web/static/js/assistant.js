// The signed-in assistant panel: the caller's conversations, one conversation's messages,
// and a composer that streams the reply. mountAssistant() is also what an embedding app on
// the same origin calls with its own token (see docs/user-guide/assistant.md).
import { ApiError } from "./api.js";
import { AssistantApi } from "./assistant-api.js";
import { createLog } from "./assistant-turns.js";

const NEW_TITLE = "New conversation";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function layout(maxChars) {
  const newThread = el("button", "primary-button new-thread", "New conversation");
  newThread.type = "button";
  newThread.id = "new-thread";
  const list = el("ul", "thread-list");
  list.id = "thread-list";
  const threads = el("nav", "threads");
  threads.id = "threads";
  threads.setAttribute("aria-label", "Conversations");
  threads.append(newThread, list);
  const scrim = el("div", "scrim");
  scrim.hidden = true;
  const title = el("h1", "conversation-title", NEW_TITLE);
  title.id = "conversation-title";
  title.tabIndex = -1;
  const log = el("div", "chat-log");
  log.id = "chat-log";
  const status = el("p", "chat-status");
  status.id = "chat-status";
  status.setAttribute("role", "status");
  const label = el("label", "visually-hidden", "Message to the assistant");
  label.htmlFor = "composer-input";
  const input = el("textarea");
  input.id = "composer-input";
  input.rows = 2;
  input.maxLength = maxChars;
  input.placeholder = "Ask a question or describe a change…";
  const send = el("button", "primary-button", "Send");
  send.type = "submit";
  send.id = "composer-send";
  const form = el("form", "ask-form composer");
  form.id = "composer";
  form.append(label, input, send);
  const main = el("main", "conversation");
  main.id = "conversation";
  main.append(title, log, status, form);
  return { threads, list, newThread, scrim, main, title, log, status, input, send, form };
}

function intro() {
  const box = el("div", "chat-intro");
  box.append(
    el("p", "", "Ask about the documentation, or ask for a change."),
    el("p", "muted", "Changes are only proposed: you see exactly what would change, and " +
      "nothing happens until you press Apply."),
  );
  return box;
}

export function mountAssistant({ root, token, csrf = "", siteId = null, maxChars = 32000, onUnauthorized }) {
  const api = new AssistantApi(token, csrf);
  const ui = layout(maxChars);
  root.replaceChildren(ui.threads, ui.scrim, ui.main);
  const toggle = document.getElementById("threads-toggle");
  const state = { threads: [], current: null, running: null, signedOut: false };
  const conversation = createLog(ui.log, {
    apply: (proposal, sent) => api.applyProposal(proposal.id, sent),
    discard: (proposal) => api.discardProposal(proposal.id),
    onTitle: (threadId, title) => rename(threadId, title),
  });
  conversation.clear(intro());

  function setStatus(text) {
    ui.status.textContent = text;
  }

  function refused(error) {
    if (!(error instanceof ApiError) || error.status !== 401) return false;
    if (!state.signedOut) {
      state.signedOut = true;
      onUnauthorized?.();
    }
    return true;
  }

  function busy() {
    if (state.running) setStatus("Wait for the answer to finish, or press Stop.");
    return Boolean(state.running);
  }

  function renderThreads() {
    const items = state.threads.map((thread) => {
      const button = el("button", "thread-link", thread.title || NEW_TITLE);
      button.type = "button";
      button.dataset.thread = thread.id;
      if (thread.id === state.current) button.setAttribute("aria-current", "true");
      if (thread.replyInProgress) button.append(el("span", "thread-badge", "answering"));
      else if (thread.awaitingReply) button.append(el("span", "thread-badge", "no reply yet"));
      button.addEventListener("click", () => open(thread.id));
      const item = el("li");
      item.append(button);
      return item;
    });
    if (!items.length) items.push(el("li", "muted thread-empty", "No conversations yet."));
    ui.list.replaceChildren(...items);
  }

  function rename(threadId, title) {
    const thread = state.threads.find((t) => t.id === threadId);
    if (thread && title) thread.title = title;
    if (threadId === state.current && title) ui.title.textContent = title;
    renderThreads();
  }

  async function refresh() {
    if (state.signedOut) return;
    try {
      state.threads = await api.listThreads();
      renderThreads();
    } catch (error) {
      if (!refused(error)) setStatus("The conversations could not be loaded.");
    }
  }

  function closeNav() {
    document.body.classList.remove("threads-open");
    ui.scrim.hidden = true;
    toggle?.setAttribute("aria-expanded", "false");
  }

  async function open(threadId) {
    if (busy()) return;
    closeNav();
    state.current = threadId;
    conversation.clear();
    renderThreads();
    setStatus("");
    try {
      const detail = await api.getThread(threadId);
      ui.title.textContent = detail.title || NEW_TITLE;
      conversation.showMessages(detail.messages, detail.proposals || []);
    } catch (error) {
      if (!refused(error)) setStatus("This conversation could not be opened.");
    }
    ui.input.focus();
  }

  function startNew() {
    if (busy()) return;
    closeNav();
    state.current = null;
    ui.title.textContent = NEW_TITLE;
    conversation.clear(intro());
    renderThreads();
    setStatus("");
    ui.input.focus();
  }

  async function submit(message) {
    conversation.addUser(message);
    const controller = new AbortController();
    state.running = controller;
    ui.send.textContent = "Stop";
    setStatus("Thinking");
    let answer = null;
    try {
      if (!state.current) {
        state.current = await api.createThread(siteId);
        state.threads.unshift({ id: state.current, title: "" });
        renderThreads();
      }
      answer = conversation.startAnswer(setStatus);
      await api.chat({
        threadId: state.current,
        message,
        siteId,
        signal: controller.signal,
        onFrame: (frame) => answer.onFrame(frame),
      });
      setStatus("");
    } catch (error) {
      if (refused(error)) return;
      const stopped = error?.name === "AbortError";
      const text = stopped ? "Stopped. The answer goes on in the background and is saved."
        : error?.message || "The assistant could not answer.";
      if (answer) answer.fail(text);
      else setStatus(text);
      if (stopped) setStatus("");
    } finally {
      answer?.done();
      state.running = null;
      ui.send.textContent = "Send";
      refresh();
    }
  }

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (state.running) {
      state.running.abort();
      return;
    }
    const message = ui.input.value.trim();
    if (!message) return;
    ui.input.value = "";
    submit(message);
  });
  ui.input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.form.requestSubmit();
    }
  });
  ui.newThread.addEventListener("click", startNew);
  ui.scrim.addEventListener("click", closeNav);
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const opening = !document.body.classList.contains("threads-open");
      document.body.classList.toggle("threads-open", opening);
      ui.scrim.hidden = !opening;
      toggle.setAttribute("aria-expanded", String(opening));
      if (opening) ui.newThread.focus();
    });
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.body.classList.contains("threads-open")) {
      closeNav();
      toggle?.focus();
    }
  });

  refresh();
  ui.input.focus();
  return {
    refresh,
    open,
    startNew,
    forget() {
      state.signedOut = true;
      state.running?.abort();
      conversation.clear();
    },
  };
}
