// The signed-in assistant panel: the caller's conversations, one conversation's messages,
// and a composer that streams the reply. mountAssistant() is also what an embedding app on
// the same origin calls with its own token (see docs/user-guide/assistant.md).
import { ApiError } from "./api.js";
import { AssistantApi } from "./assistant-api.js";
import { createHistory } from "./assistant-history.js";
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
  const search = el("input", "thread-search");
  Object.assign(search, { id: "thread-search", type: "search", placeholder: "Search conversations" });
  search.setAttribute("aria-label", "Search conversations");
  search.hidden = true;
  const shelf = el("button", "link-button thread-shelf", "Archived conversations");
  shelf.type = "button";
  shelf.id = "thread-shelf";
  shelf.setAttribute("aria-pressed", "false");
  const threads = el("nav", "threads");
  threads.id = "threads";
  threads.setAttribute("aria-label", "Conversations");
  threads.append(newThread, search, list, shelf);
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
  // Seed 002: opening the assistant says when another conversation is still waiting.
  const waiting = el("p", "waiting-hint");
  waiting.id = "waiting-hint";
  waiting.setAttribute("role", "status");
  waiting.hidden = true;
  const main = el("main", "conversation");
  main.id = "conversation";
  main.append(title, waiting, log, status, form);
  return {
    threads, list, search, shelf, newThread, scrim, main, title, waiting, log, status, input, send, form,
  };
}

function withExtra(context, extra) {
  if (!extra) return context;
  return { ...(context || {}), extra };
}

// The empty conversation: a greeting and, from welcome(), 2-4 suggestion chips.
function intro(welcome, ask) {
  const box = el("div", "chat-intro");
  const shown = welcome?.() || null;
  box.append(
    el("p", "", shown?.greeting || "Ask about the documentation, or ask for a change."),
    el("p", "muted", "Changes are only proposed: you see exactly what would change, and " +
      "nothing happens until you press Apply."),
  );
  const chips = (shown?.chips || []).slice(0, 4);
  if (chips.length) {
    const row = el("div", "suggestion-chips");
    for (const text of chips) {
      const chip = el("button", "suggestion-chip", text);
      chip.type = "button";
      chip.addEventListener("click", () => ask(text));
      row.append(chip);
    }
    box.append(row);
  }
  return box;
}

// root: where it mounts; token (or "" with the session cookie and csrf); siteId: new
// threads' site; toggle: the button that shows the conversation list (default
// #threads-toggle); pageContext(): the page being read, sent with every turn; welcome():
// {greeting, chips} for the empty conversation; navHost: where "threads-open" is toggled.
export function mountAssistant({
  root, token, csrf = "", siteId = null, maxChars = 32000, onUnauthorized,
  toggle = document.getElementById("threads-toggle"), pageContext = () => null,
  welcome = null, navHost = document.body,
}) {
  const api = new AssistantApi(token, csrf);
  const ui = layout(maxChars);
  root.replaceChildren(ui.threads, ui.scrim, ui.main);
  const state = {
    threads: [], current: null, running: null, signedOut: false, archived: false, extra: null,
  };
  const history = createHistory(ui.list, ui.search, {
    open: (threadId) => open(threadId),
    rename: (threadId, title) => change(threadId, { title }, "Renamed."),
    archive: (threadId, archived) => change(threadId, { archived }, archived ? "Archived." : "Restored."),
    remove: (threadId) => remove(threadId),
  });
  const conversation = createLog(ui.log, {
    apply: (proposal, sent) => api.applyProposal(proposal.id, sent),
    discard: (proposal) => api.discardProposal(proposal.id),
    onTitle: (threadId, title) => rename(threadId, title),
    rate: (messageId, rating, comment) => api.rateReply(messageId, rating, comment),
    ask: (text) => submit(text),
  });
  const fresh = () => intro(welcome, (text) => submit(text));
  conversation.clear(fresh());

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
    history.set(state.threads, { current: state.current, archived: state.archived });
  }

  async function change(threadId, changes, done) {
    try {
      await api.patchThread(threadId, changes);
      if (changes.title && threadId === state.current) ui.title.textContent = changes.title;
      if ("archived" in changes && threadId === state.current) startNew();
      setStatus(done);
    } catch (error) {
      if (!refused(error)) setStatus("That change could not be saved.");
    }
    await refresh();
  }

  async function remove(threadId) {
    try {
      await api.deleteThread(threadId);
      if (threadId === state.current) startNew();
      setStatus("Deleted.");
    } catch (error) {
      if (!refused(error)) setStatus("The conversation could not be deleted.");
    }
    await refresh();
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
      state.threads = await api.listThreads(undefined, state.archived);
      renderThreads();
    } catch (error) {
      if (!refused(error)) setStatus("The conversations could not be loaded.");
    }
  }

  // "<title> has no reply yet — Open" for a waiting conversation other than this one (its
  // newest message is the person's and nothing is answering it).
  function showWaiting() {
    const other = state.threads.find((t) => t.awaitingReply && !t.replyInProgress && t.id !== state.current);
    ui.waiting.replaceChildren();
    ui.waiting.hidden = !other;
    if (!other) return;
    const go = el("button", "link-button waiting-open", "Open");
    go.type = "button";
    go.addEventListener("click", () => open(other.id));
    ui.waiting.append(el("span", "", `“${other.title || NEW_TITLE}” has no reply yet — `), go);
  }

  async function opened() {
    await refresh();
    showWaiting();
  }

  function closeNav() {
    navHost.classList.remove("threads-open");
    ui.scrim.hidden = true;
    toggle?.setAttribute("aria-expanded", "false");
  }

  async function open(threadId) {
    if (busy()) return;
    closeNav();
    state.current = threadId;
    ui.waiting.hidden = true;
    conversation.clear();
    renderThreads();
    setStatus("");
    try {
      const detail = await api.getThread(threadId);
      ui.title.textContent = detail.title || NEW_TITLE;
      conversation.showMessages(detail.messages, detail.proposals || []);
      unanswered(detail);
    } catch (error) {
      if (!refused(error)) setStatus("This conversation could not be opened.");
    }
    ui.input.focus();
  }

  // A restored thread that ends in the person's message: still being answered, interrupted
  // (the server answering it stopped), or not answered.
  function unanswered(detail) {
    const last = detail.messages[detail.messages.length - 1];
    if (!last || last.role !== "user") return;
    if (detail.replyInProgress) {
      conversation.notice("Still working on your last message.", "Check again", () => open(detail.id));
      return;
    }
    const said = detail.replyInterrupted
      ? "The answer was interrupted: the server answering it stopped."
      : "No reply yet.";
    conversation.notice(said, "Ask again", () => submit(last.content, { again: true }));
  }

  function startNew() {
    if (busy()) return;
    closeNav();
    state.current = null;
    ui.title.textContent = NEW_TITLE;
    conversation.clear(fresh());
    renderThreads();
    setStatus("");
    ui.input.focus();
  }

  // Send a message; "again" re-asks the thread's unanswered last message (the server
  // reuses it rather than storing the question twice), so nothing is retyped.
  async function submit(message, { again = false } = {}) {
    if (busy()) return;
    if (!again) conversation.addUser(message);
    const controller = new AbortController();
    state.running = controller;
    ui.send.textContent = "Stop";
    setStatus("Thinking");
    let answer = null;
    try {
      if (!state.current) {
        state.current = await api.createThread(siteId);
        state.threads.unshift({ id: state.current, title: "", updatedAt: new Date().toISOString() });
        renderThreads();
      }
      answer = conversation.startAnswer(setStatus, () => submit(message, { again: true }), message);
      const extra = state.extra;
      state.extra = null; // what the page added goes with this one turn
      await api.chat({
        threadId: state.current,
        message,
        siteId,
        pageContext: withExtra(pageContext(), extra),
        signal: controller.signal,
        onFrame: (frame) => answer.onFrame(frame),
      });
      setStatus("");
    } catch (error) {
      if (refused(error)) return;
      const stopped = error?.name === "AbortError";
      const text = stopped ? "Stopped. The answer goes on in the background and is saved."
        : error?.message || "The assistant could not answer.";
      if (answer) answer.fail(text, !stopped);
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
  ui.shelf.addEventListener("click", () => {
    state.archived = !state.archived;
    ui.shelf.setAttribute("aria-pressed", String(state.archived));
    ui.shelf.textContent = state.archived ? "Back to conversations" : "Archived conversations";
    refresh();
  });
  ui.scrim.addEventListener("click", closeNav);
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const opening = !navHost.classList.contains("threads-open");
      navHost.classList.toggle("threads-open", opening);
      ui.scrim.hidden = !opening;
      toggle.setAttribute("aria-expanded", String(opening));
      if (opening) ui.newThread.focus();
    });
  }
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && navHost.classList.contains("threads-open")) {
      closeNav();
      toggle?.focus();
    }
  });

  opened();
  ui.input.focus();
  return {
    refresh,
    opened,
    open,
    startNew,
    // The empty conversation's greeting again (the page being read may have changed).
    welcomeAgain() {
      if (!state.current && !state.running) conversation.clear(fresh());
    },
    // Open with a prompt: fill the box (and send it with {send: true}); extraContext goes
    // with the next turn's page context (the server caps it at 2,000 characters).
    ask(text, { send = false, extraContext = null } = {}) {
      state.extra = extraContext ? String(extraContext).slice(0, 2000) : null;
      if (send && !state.running) {
        submit(String(text));
        return;
      }
      ui.input.value = String(text);
      ui.input.focus();
    },
    forget() {
      state.signedOut = true;
      state.running?.abort();
      conversation.clear();
    },
  };
}
