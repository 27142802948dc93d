// One answer's view, shared by the Ask AI panel, the widget and the assistant (drawer and
// full screen): Markdown with inline [n] citation markers tied to the numbered sources, copy
// buttons (the whole answer, each code block), the sources collapsed to one line under the
// answer, and a row of actions. Everything is built with DOM calls (the CSP forbids eval
// and inline styles).
import { sendFeedback } from "./api.js";
import { renderMarkdown, safeHref } from "./markdown.js";
import { t } from "./i18n.js";

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "className") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

export function sourceLabel(source) {
  return source.heading && source.heading !== source.title
    ? `${source.title} › ${source.heading}`
    : source.title;
}

// Copy text to the clipboard; the button says "Copied" for a moment.
export function copyButton(className, label, getText) {
  const button = el("button", { type: "button", className: `text-button ${className}`, text: label });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(getText());
      button.textContent = t("copied");
    } catch {
      button.textContent = t("copyFailed");
    }
    setTimeout(() => (button.textContent = label), 1500);
  });
  return button;
}

// Render `text` into `target`: citation markers become links to their source, and every
// code block gets a copy button. `link(anchor, href)` wires navigation for a link.
export function paintAnswer(target, text, sources, link) {
  renderMarkdown(target, text, {
    onLink: (anchor, href) => link(anchor, href),
    citation: (n) => citationNode(n, sources, link),
  });
  for (const pre of target.querySelectorAll("pre")) {
    const code = pre.querySelector("code");
    const wrap = el("div", { className: "code-block" });
    pre.replaceWith(wrap);
    wrap.append(copyButton("copy-code", t("copyCode"), () => code?.textContent ?? ""), pre);
  }
}

function citationNode(n, sources, link) {
  const source = sources[n - 1];
  const href = source ? safeHref(source.url) : null;
  if (!href) return null;
  const anchor = el("a", {
    className: "cite",
    href,
    title: sourceLabel(source),
    "aria-label": t("citation", n, sourceLabel(source)),
  });
  anchor.textContent = String(n);
  link(anchor, href);
  return el("sup", {}, anchor);
}

// The sources under the answer, collapsed to one line: "Sources: 1 Title · 2 Title".
export function sourcesBlock(sources, link) {
  if (!sources.length) {
    return el("p", { className: "ask-sources muted", text: t("noSources") });
  }
  const summary = el("summary", { className: "ask-sources-line" });
  summary.append(el("span", { className: "ask-sources-label", text: t("sources") }));
  summary.append(el("span", {
    className: "ask-sources-names",
    text: sources.map((s, i) => `${i + 1} ${s.title}`).join(" · "),
  }));
  const list = el("ol");
  sources.forEach((source, index) => {
    const item = el("li", { id: "" });
    item.dataset.n = String(index + 1);
    const href = safeHref(source.url);
    if (href) {
      const anchor = el("a", { href, text: sourceLabel(source) });
      link(anchor, href);
      item.append(anchor);
    } else {
      item.textContent = sourceLabel(source);
    }
    list.append(item);
  });
  return el("details", { className: "ask-sources" }, summary, list);
}

// A model answer ends with "Follow-up questions:" and a bulleted list (answer/prompt.py).
// While it streams in, a heading with no list yet is hidden too.
const FOLLOW_UPS = /(?:^|\n+)\**Follow-up questions:\**[ \t]*((?:\n[ \t]*[-*+][ \t]+.*)*)\s*$/;

// The answer without its follow-up block, and the model's follow-up questions.
export function splitFollowUps(text) {
  const found = text.match(FOLLOW_UPS);
  if (!found) return { body: text, asked: [] };
  const asked = found[1].split("\n").map((line) => line.replace(/^\s*[-*+]\s+/, "").trim())
    .filter(Boolean).slice(0, 3);
  return { body: text.slice(0, found.index), asked };
}

// Suggested follow-ups: the model's (when it wrote them), else from the headings of the
// sources the answer cites (else all of them), one per section not already asked about.
export function followUps(text, sources, question, limit = 3) {
  const fromModel = splitFollowUps(text).asked;
  if (fromModel.length) return fromModel;
  const cited = new Set([...text.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1])));
  const pool = sources.filter((_, i) => !cited.size || cited.has(i + 1));
  const asked = question.toLowerCase();
  const seen = new Set();
  const out = [];
  for (const source of [...pool, ...sources]) {
    const topic = source.heading || source.title;
    const key = topic.toLowerCase();
    if (!topic || seen.has(key) || asked.includes(key)) continue;
    seen.add(key);
    out.push(t("followUp", topic));
    if (out.length >= limit) break;
  }
  return out;
}

const THUMB =
  '<svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16"><path d="M7 11v9H4v-9h3zm2 9h8.3a2 2 0 0 0 2-1.6l1.3-6.4A2 2 0 0 0 18.6 10H14l.8-4a1.7 1.7 0 0 0-3-1.4L9 9.5V20z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/></svg>';

// Thumbs up / down for one answer; "down" opens an optional comment box. Sent once per
// choice (choosing again changes the rating). `send(answerId, rating, comment)` stores it
// (Ask AI's visitor feedback by default; the assistant rates its replies per user);
// `given` ("up" | "down") is a rating stored before (a restored reply).
export function feedbackRow(answerId, { send: store = sendFeedback, given = null } = {}) {
  const row = el("div", { className: "feedback", role: "group", "aria-label": t("feedbackLabel") });
  const up = el("button", { type: "button", className: "thumb thumb-up", "aria-pressed": "false",
    "aria-label": t("helpful"), title: t("helpful") });
  up.innerHTML = THUMB; // a static icon, no answer text
  const down = el("button", { type: "button", className: "thumb thumb-down", "aria-pressed": "false",
    "aria-label": t("notHelpful"), title: t("notHelpful") });
  down.innerHTML = THUMB;
  const status = el("span", { className: "feedback-status muted", role: "status" });
  const reason = el("form", { className: "feedback-reason" });
  reason.hidden = true;
  const label = el("label", { className: "visually-hidden", for: `reason-${answerId}`, text: t("feedbackReason") });
  const box = el("input", { id: `reason-${answerId}`, type: "text", maxlength: "500", placeholder: t("feedbackReason") });
  const submit = el("button", { type: "submit", className: "text-button", text: t("feedbackSend") });
  reason.append(label, box, submit);
  row.append(up, down, status);
  up.setAttribute("aria-pressed", String(given === "up"));
  down.setAttribute("aria-pressed", String(given === "down"));
  // Sends go one after another, so a comment sent while the thumb's own send is still on its
  // way is stored last and never overwritten by it.
  let queue = Promise.resolve();
  const send = (rating, comment) => {
    up.setAttribute("aria-pressed", String(rating === "up"));
    down.setAttribute("aria-pressed", String(rating === "down"));
    status.textContent = "";
    queue = queue.then(async () => {
      try {
        await store(answerId, rating, comment);
        status.textContent = t("feedbackThanks");
      } catch {
        status.textContent = t("feedbackFailed");
      }
    });
    return queue;
  };
  up.addEventListener("click", () => {
    reason.hidden = true;
    send("up", "");
  });
  down.addEventListener("click", () => {
    reason.hidden = false;
    box.focus();
    send("down", "");
  });
  reason.addEventListener("submit", (event) => {
    event.preventDefault();
    reason.hidden = true;
    send("down", box.value.trim().slice(0, 500));
  });
  return el("div", { className: "feedback-box" }, row, reason);
}
