// The Ask AI panel: a conversation that streams answers and lists sources first.
// Used by the reader (a side panel, or a bottom sheet on phones) and by the widget frame.
import { ask, askLimits, ApiError } from "./api.js";
import {
  copyButton, el, feedbackRow, followUps, paintAnswer, sourcesBlock, splitFollowUps,
} from "./answer-view.js";
import { t, locale } from "./i18n.js";

const MAX_MESSAGES = 8;
const MAX_QUESTION = 1000;
const DAILY_CODES = new Set(["visitor_daily_limit", "site_daily_limit", "global_daily_limit"]);

// "21:00", or "Wed 01:00" when the reset falls on another local day.
function resetTime(at) {
  const when = new Date(at);
  const sameDay = when.toDateString() === new Date().toDateString();
  const options = sameDay ? { hour: "2-digit", minute: "2-digit" }
    : { weekday: "short", hour: "2-digit", minute: "2-digit" };
  return when.toLocaleTimeString(locale(), options);
}

export function createAskPanel({ root, config, frame = false, onClose, onNavigate, getToken }) {
  const title = el("h2", { id: "ask-title", className: "ask-title" });
  const newChat = el("button", { type: "button", className: "text-button", id: "ask-new" });
  const close = el("button", { type: "button", className: "icon-button", id: "ask-close" });
  close.innerHTML =
    '<svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
  const intro = el("p", { className: "ask-intro" });
  // A focusable log, so keyboard users can scroll a long answer.
  const log = el("div", { className: "ask-log", id: "ask-log", role: "log", tabindex: "0" }, intro);
  const botArea = el("div", { className: "ask-botcheck", id: "ask-botcheck" });
  botArea.hidden = true;
  const label = el("label", { className: "visually-hidden", for: "ask-input" });
  const input = el("textarea", { id: "ask-input", rows: "2", maxlength: String(MAX_QUESTION) });
  const send = el("button", { type: "submit", className: "primary-button", id: "ask-send" });
  const form = el("form", { className: "ask-form", id: "ask-form" }, label, input, send);
  const footer = el("p", { className: "ask-footer", id: "ask-remaining", "aria-live": "polite" });
  const header = el("div", { className: "ask-header" }, title, newChat, close);
  const panel = el(
    "section",
    { className: frame ? "ask-panel ask-frame" : "ask-panel", id: "ask-panel", role: "dialog",
      "aria-labelledby": "ask-title" },
    header, log, botArea, form, footer,
  );
  panel.hidden = !frame;
  root.append(panel);

  let history = [];
  let running = null;
  let shown = false;

  function relabel() {
    title.textContent = t("askTitle");
    newChat.textContent = t("newChat");
    close.setAttribute("aria-label", t("close"));
    intro.textContent = t("askIntro");
    log.setAttribute("aria-label", t("askTitle"));
    label.textContent = t("askLabel");
    input.placeholder = t("askPlaceholder");
    send.textContent = running ? t("stop") : t("send");
  }

  // Wire a link inside the panel: the widget opens pages in a new tab; the reader
  // navigates in place for its own pages.
  function link(anchor, href) {
    if (frame) {
      anchor.target = "_blank";
      anchor.rel = "noopener";
    } else if (onNavigate && href.startsWith("/docs/")) {
      anchor.addEventListener("click", (event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        onNavigate(href);
      });
    }
  }

  let lockTimer = 0;
  // The daily limit is reached: say when it resets (local time) and disable the input.
  function lockUntil(at) {
    clearTimeout(lockTimer);
    input.disabled = true;
    send.disabled = true;
    footer.textContent = t("limitReached", resetTime(at));
    lockTimer = setTimeout(() => {
      input.disabled = false;
      send.disabled = false;
      showRemaining();
    }, Math.min(Math.max(at - Date.now(), 1000), 86_400_000));
  }

  function showCount(remaining, resetsAt) {
    if (remaining > 0) footer.textContent = t("remaining", remaining);
    else lockUntil(resetsAt);
  }

  // The counter, shown as soon as the panel opens (GET /api/ask/limits counts nothing).
  async function showRemaining() {
    try {
      const limits = await askLimits();
      showCount(limits.remaining, limits.resetsAt * 1000);
    } catch {
      footer.textContent = "";
    }
  }

  function trimmed(messages) {
    const result = messages.slice();
    while (result.length > MAX_MESSAGES) result.splice(0, 2);
    return result;
  }

  // One question: the user turn, then the answer turn (sources under the answer,
  // collapsed; actions once it is complete). `again` re-asks in place (retry, regenerate).
  async function submit(question, again = null) {
    const user = again?.user ?? el("div", { className: "turn turn-user" },
      el("p", { className: "turn-label", text: t("you") }), el("p", { text: question }));
    const status = el("p", { className: "muted ask-status", text: t("thinking") });
    const answer = el("div", { className: "turn turn-answer", "aria-busy": "true" },
      el("p", { className: "turn-label", text: t("assistant") }), status);
    if (again) again.answer.replaceWith(answer);
    else log.append(user, answer);
    answer.scrollIntoView({ block: "nearest" });
    const before = history;
    const messages = trimmed([...before, { role: "user", content: question }]);
    const controller = new AbortController();
    running = controller;
    relabel();
    const text = el("div", { className: "answer-text" });
    let sources = [];
    let answerId = null;
    let pending = false;
    let latest = "";
    const paint = () => {
      pending = false;
      paintAnswer(text, splitFollowUps(latest).body, sources, link);
    };
    try {
      const token = config.botCheck === "off" ? "" : await getToken(botArea, controller.signal);
      const full = await ask({
        messages,
        token,
        locale: locale(),
        signal: controller.signal,
        onStart: (start) => {
          sources = start.sources;
          answerId = start.answerId;
          status.remove();
          answer.append(text, sourcesBlock(sources, link));
          if (start.remaining === 0) showRemaining(); // locks, with the reset time
          else if (start.remaining !== null) footer.textContent = t("remaining", start.remaining);
        },
        onText: (_piece, all) => {
          latest = all;
          if (!pending) {
            pending = true;
            requestAnimationFrame(paint);
          }
        },
      });
      latest = full;
      paint();
      history = trimmed([...messages, { role: "assistant", content: full }]);
      answer.append(actions(question, full, sources, answerId, { user, answer, before }));
    } catch (error) {
      status.remove();
      if (error?.name !== "AbortError") failed(answer, error, question, { user, answer, before });
    } finally {
      answer.setAttribute("aria-busy", "false");
      running = null;
      relabel();
    }
  }

  function reask(question, turn) {
    if (running) return;
    history = turn.before;
    submit(question, turn);
  }

  // Copy, regenerate, and follow-up questions under a complete answer.
  function actions(question, full, sources, answerId, turn) {
    const row = el("div", { className: "answer-actions" },
      copyButton("copy-answer", t("copyAnswer"), () => splitFollowUps(full).body));
    if (answerId) row.append(feedbackRow(answerId));
    const regenerate = el("button", { type: "button", className: "text-button regenerate",
      text: t("regenerate") });
    regenerate.addEventListener("click", () => reask(question, turn));
    row.append(regenerate);
    const box = el("div", { className: "answer-footer" }, row);
    const next = followUps(full, sources, question);
    if (next.length) {
      const list = el("div", { className: "follow-ups", role: "group",
        "aria-label": t("followUps") });
      for (const suggestion of next) {
        const button = el("button", { type: "button", className: "follow-up", text: suggestion });
        button.addEventListener("click", () => {
          if (!running) submit(suggestion);
        });
        list.append(button);
      }
      box.append(list);
    }
    return box;
  }

  // A failed question, in words a visitor can act on: never the provider's error text.
  function failed(answer, error, question, turn) {
    const code = error instanceof ApiError ? error.code : "";
    if (DAILY_CODES.has(code)) {
      const at = Date.now() + (error.retryAfter ?? 3600) * 1000;
      answer.append(el("p", { className: "ask-error", role: "alert",
        text: t("limitReached", resetTime(at)) }));
      lockUntil(at);
      return;
    }
    if (error instanceof ApiError && error.status !== 429) showRemaining();
    let message = t("askFailed");
    if (code === "model_unavailable") message = t("modelUnavailable");
    else if (code === "burst_limit") message = t("burstLimit", error.retryAfter ?? 60);
    else if (error instanceof ApiError && error.status < 500 && error.message) {
      message = error.message;
    }
    answer.append(el("p", { className: "ask-error", role: "alert", text: message }));
    if (error instanceof ApiError && error.sources.length) {
      const box = sourcesBlock(error.sources, link);
      box.open = true;
      answer.append(box);
    }
    const retry = el("button", { type: "button", className: "text-button retry", text: t("retry") });
    retry.addEventListener("click", () => reask(question, turn));
    answer.append(el("div", { className: "answer-actions" }, retry));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (running) {
      running.abort();
      return;
    }
    const question = input.value.trim().slice(0, MAX_QUESTION);
    if (!question) return;
    input.value = "";
    submit(question);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose?.();
    }
  });
  close.addEventListener("click", () => onClose?.());
  newChat.addEventListener("click", () => {
    running?.abort();
    history = [];
    log.replaceChildren(intro);
    input.focus();
  });

  relabel();
  if (frame) {
    shown = true;
    showRemaining();
  }
  return {
    panel,
    input,
    relabel,
    show() {
      panel.hidden = false;
      if (!shown) {
        shown = true;
        showRemaining();
      }
      input.focus();
    },
    hide() {
      panel.hidden = true;
    },
    get open() {
      return !panel.hidden;
    },
    // Ask `question` now (the search box's "Ask AI about …"), unless one is running.
    submitQuestion(question) {
      const text = question.trim().slice(0, MAX_QUESTION);
      if (text && !running && !input.disabled) submit(text);
    },
  };
}
