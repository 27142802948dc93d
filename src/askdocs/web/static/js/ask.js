// The Ask AI panel: a conversation that streams answers and lists sources first.
// Used by the reader (a side panel, or a bottom sheet on phones) and by the widget frame.
import { ask, ApiError } from "./api.js";
import { renderMarkdown, safeHref } from "./markdown.js";
import { t, locale } from "./i18n.js";

const MAX_MESSAGES = 8;
const MAX_QUESTION = 1000;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

export function createAskPanel({ root, config, frame = false, onClose, onNavigate, getToken }) {
  const title = el("h2", { id: "ask-title", className: "ask-title" });
  const newChat = el("button", { type: "button", className: "text-button", id: "ask-new" });
  const close = el("button", { type: "button", className: "icon-button", id: "ask-close" });
  close.innerHTML =
    '<svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
  const intro = el("p", { className: "ask-intro" });
  const log = el("div", { className: "ask-log", id: "ask-log" }, intro);
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

  function relabel() {
    title.textContent = t("askTitle");
    newChat.textContent = t("newChat");
    close.setAttribute("aria-label", t("close"));
    intro.textContent = t("askIntro");
    label.textContent = t("askLabel");
    input.placeholder = t("askPlaceholder");
    send.textContent = running ? t("stop") : t("send");
  }

  function linkFor(url) {
    const link = el("a", { href: url });
    if (frame) {
      link.target = "_blank";
      link.rel = "noopener";
    } else if (onNavigate && url.startsWith("/docs/")) {
      link.addEventListener("click", (event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        onNavigate(url);
      });
    }
    return link;
  }

  function sourcesBlock(sources) {
    const box = el("div", { className: "ask-sources" }, el("h3", { text: t("sources") }));
    if (!sources.length) {
      box.append(el("p", { className: "muted", text: t("noSources") }));
      return box;
    }
    const list = el("ol");
    for (const source of sources) {
      const href = safeHref(source.url);
      const text = source.heading && source.heading !== source.title
        ? `${source.title} › ${source.heading}` : source.title;
      const item = el("li");
      if (href) {
        const link = linkFor(href);
        link.textContent = text;
        item.append(link);
      } else {
        item.textContent = text;
      }
      list.append(item);
    }
    box.append(list);
    return box;
  }

  function trimmed(messages) {
    const result = messages.slice();
    while (result.length > MAX_MESSAGES) result.splice(0, 2);
    return result;
  }

  async function submit(question) {
    const user = el("div", { className: "turn turn-user" },
      el("p", { className: "turn-label", text: t("you") }), el("p", { text: question }));
    const status = el("p", { className: "muted ask-status", text: t("thinking") });
    const answer = el("div", { className: "turn turn-answer", "aria-busy": "true" },
      el("p", { className: "turn-label", text: t("assistant") }), status);
    log.append(user, answer);
    answer.scrollIntoView({ block: "nearest" });
    const messages = trimmed([...history, { role: "user", content: question }]);
    const controller = new AbortController();
    running = controller;
    relabel();
    const text = el("div", { className: "answer-text" });
    let pending = false;
    let latest = "";
    const paint = () => {
      pending = false;
      renderMarkdown(text, latest, {
        onLink: (link, href) => {
          if (frame) {
            link.target = "_blank";
            link.rel = "noopener";
          } else if (onNavigate && href.startsWith("/docs/")) {
            link.addEventListener("click", (event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey) return;
              event.preventDefault();
              onNavigate(href);
            });
          }
        },
      });
    };
    try {
      const token = config.botCheck === "off" ? "" : await getToken(botArea, controller.signal);
      const full = await ask({
        messages,
        token,
        locale: locale(),
        signal: controller.signal,
        onStart: ({ sources, remaining }) => {
          status.remove();
          answer.append(sourcesBlock(sources), text);
          if (remaining !== null) footer.textContent = t("remaining", remaining);
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
    } catch (error) {
      status.remove();
      if (error?.name !== "AbortError") {
        const message = error instanceof ApiError && error.message ? error.message : t("askFailed");
        answer.append(el("p", { className: "ask-error", role: "alert", text: message }));
      }
    } finally {
      answer.setAttribute("aria-busy", "false");
      running = null;
      relabel();
    }
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
  return {
    panel,
    input,
    relabel,
    show() {
      panel.hidden = false;
      input.focus();
    },
    hide() {
      panel.hidden = true;
    },
    get open() {
      return !panel.hidden;
    },
  };
}
