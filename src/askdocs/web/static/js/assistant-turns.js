// The conversation log of the assistant: past messages, and a live answer built from the
// UI message stream's frames (text deltas, sources, tool captions, proposals, the finish).
// Replies render through the answer view Ask AI uses (answer-view.js): inline [n] citations
// of the sections the reply was given, copy buttons, the sources collapsed under the reply,
// thumbs up/down and suggested follow-ups.
import {
  copyButton, feedbackRow, followUps, paintAnswer, sourcesBlock, splitFollowUps,
} from "./answer-view.js";
import { t } from "./i18n.js";
import { proposalCard } from "./proposal.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Links in a reply open as ordinary links (the reader's pages load in place).
const link = () => {};

function userTurn(text) {
  const turn = el("article", "turn turn-user");
  turn.append(el("p", "turn-label", "You"), el("p", "turn-text", text));
  return turn;
}

function validSources(list) {
  return (Array.isArray(list) ? list : [])
    .filter((s) => s && typeof s.url === "string" && typeof s.title === "string")
    .map((s) => ({ url: s.url, title: s.title, heading: typeof s.heading === "string" ? s.heading : "" }));
}

function paint(body, text, sources) {
  paintAnswer(body, splitFollowUps(text).body, sources, link);
}

// A proposal outline kept in a message whose stored proposal is gone (thread from before
// proposals were stored): it can only be described.
function pastProposal(proposal) {
  const note = el("p", "proposal-past");
  note.append(el("strong", "", "Proposed: "), String(proposal?.summary ?? ""));
  note.append(el("span", "muted", " No longer open here: if you did not apply it then, ask again."));
  return note;
}

export function createLog(log, { apply, discard, onTitle, rate = null, ask = null }) {
  const cards = [];

  // Under a complete reply: the sources (collapsed), copy, thumbs (a stored reply only) and,
  // for the latest reply, suggested follow-ups that ask at once.
  function footer(turn, { id, text, sources, question, given = null, suggest = true }) {
    if (sources.length) turn.append(sourcesBlock(sources, link));
    const row = el("div", "answer-actions");
    row.append(copyButton("copy-answer", t("copyAnswer"), () => splitFollowUps(text).body));
    if (id && rate) row.append(feedbackRow(id, { send: rate, given }));
    const box = el("div", "answer-footer");
    box.append(row);
    const next = suggest && ask ? followUps(text, sources, question || "") : [];
    if (next.length) {
      const list = el("div", "follow-ups");
      list.setAttribute("role", "group");
      list.setAttribute("aria-label", t("followUps"));
      for (const suggestion of next) {
        const button = el("button", "follow-up", suggestion);
        button.type = "button";
        button.addEventListener("click", () => ask(suggestion));
        list.append(button);
      }
      box.append(list);
    }
    turn.append(box);
  }

  function replyTurn(message, question, latest) {
    const turn = el("article", "turn turn-answer");
    const body = el("div", "answer-text");
    turn.append(el("p", "turn-label", "Assistant"), body);
    const sources = validSources(message.metadata?.sources);
    paint(body, message.content, sources);
    const rating = message.metadata?.feedback?.rating;
    const given = rating === 1 ? "up" : rating === -1 ? "down" : null;
    footer(turn, { id: message.id, text: message.content, sources, question, given, suggest: latest });
    return turn;
  }

  function scroll(node) {
    node.scrollIntoView({ block: "nearest" });
  }

  function clear(intro) {
    for (const card of cards.splice(0)) card.drop();
    log.replaceChildren(...(intro ? [intro] : []));
  }

  function addCard(turn, data) {
    const made = proposalCard(data, { apply, discard });
    if (!made) return;
    cards.push(made);
    turn.append(made.card);
  }

  // Past messages, each reply followed by its stored proposals (pending ones can still be
  // applied); proposals no message names (a reply that failed after proposing) come last.
  function showMessages(messages, stored = []) {
    const byId = new Map(stored.map((proposal) => [proposal.id, proposal]));
    let last = null;
    let question = "";
    const shown = messages.filter((m) => m.role === "user" || m.role === "assistant");
    shown.forEach((message, index) => {
      if (message.role === "user") {
        question = message.content;
        last = userTurn(message.content);
      } else {
        last = replyTurn(message, question, index === shown.length - 1);
      }
      log.append(last);
      const outlines = message.metadata?.proposals;
      for (const outline of Array.isArray(outlines) ? outlines : []) {
        const found = byId.get(outline?.id);
        byId.delete(outline?.id);
        if (found) addCard(last, found);
        else last.append(pastProposal(outline));
      }
    });
    if (byId.size) {
      const turn = el("article", "turn turn-answer");
      turn.append(el("p", "turn-label", "Assistant"));
      for (const found of byId.values()) addCard(turn, found);
      log.append(turn);
    }
    if (log.lastElementChild) scroll(log.lastElementChild);
  }

  function addUser(text) {
    const turn = userTurn(text);
    log.append(turn);
    scroll(turn);
  }

  // A line under the conversation with one action ("No reply yet." + "Ask again").
  function notice(text, label, action) {
    const box = el("div", "turn-notice");
    box.setAttribute("role", "status");
    const go = el("button", "secondary-button turn-notice-action", label);
    go.type = "button";
    go.addEventListener("click", () => {
      box.remove();
      action();
    });
    box.append(el("span", "", `${text} `), go);
    log.append(box);
    scroll(box);
  }

  // One streamed answer: returns {onFrame, fail, done}. A failed answer (the model failed,
  // or the request did) offers "Ask again", which calls retry().
  function startAnswer(setStatus, retry, question = "") {
    const turn = el("article", "turn turn-answer");
    turn.setAttribute("aria-busy", "true");
    const body = el("div", "answer-text");
    turn.append(el("p", "turn-label", "Assistant"), body);
    log.append(turn);
    scroll(turn);
    let text = "";
    let pending = false;
    let failed = false;
    let broken = false; // failed, stopped or cut: no actions under it
    let messageId = null;
    let sources = [];
    const repaint = () => {
      pending = false;
      paint(body, text, sources);
    };
    const frames = {
      start: (frame) => {
        messageId = typeof frame.messageId === "string" ? frame.messageId : null;
      },
      "data-sources": (frame) => {
        sources = validSources(frame.data?.sources);
      },
      "text-delta": (frame) => {
        text += String(frame.delta ?? "");
        if (!pending) {
          pending = true;
          requestAnimationFrame(repaint);
        }
      },
      "data-toolStatus": (frame) => setStatus(String(frame.data?.caption ?? "")),
      "data-threadTitle": (frame) => onTitle(frame.data?.threadId, String(frame.data?.title ?? "")),
      "data-proposal": (frame) => {
        const made = proposalCard(frame.data, { apply, discard });
        if (!made) return;
        cards.push(made);
        turn.append(made.card);
        scroll(made.card);
      },
      error: (frame) => {
        failed = true;
        broken = true;
        turn.append(el("p", "ask-error", String(frame.errorText ?? "Error")));
      },
      finish: (frame) => {
        if (frame.finishReason === "error") {
          failed = true;
          broken = true;
        }
      },
    };
    return {
      onFrame(frame) {
        frames[frame.type]?.(frame);
      },
      fail(message, retryable = true) {
        failed = retryable;
        broken = true;
        turn.append(el("p", "ask-error", message));
      },
      done() {
        repaint();
        turn.setAttribute("aria-busy", "false");
        if (!broken && text.trim()) {
          footer(turn, { id: messageId, text, sources, question });
        }
        if (failed && retry) {
          const again = el("button", "secondary-button ask-again", "Ask again");
          again.type = "button";
          again.addEventListener("click", () => {
            again.remove();
            retry();
          });
          turn.append(again);
        }
        scroll(turn);
      },
    };
  }

  return { clear, showMessages, addUser, startAnswer, notice };
}
