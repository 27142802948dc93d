// The conversation log of the assistant: past messages, and a live answer built from the
// UI message stream's frames (text deltas, tool captions, proposals, the finish).
import { renderMarkdown } from "./markdown.js";
import { proposalCard } from "./proposal.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function bubble(role, text) {
  const turn = el("article", `turn turn-${role === "user" ? "user" : "answer"}`);
  turn.append(el("p", "turn-label", role === "user" ? "You" : "Assistant"));
  if (role === "user") {
    turn.append(el("p", "turn-text", text));
  } else {
    const body = el("div", "answer-text");
    renderMarkdown(body, text);
    turn.append(body);
  }
  return turn;
}

// A proposal outline kept in a message whose stored proposal is gone (thread from before
// proposals were stored): it can only be described.
function pastProposal(proposal) {
  const note = el("p", "proposal-past");
  note.append(el("strong", "", "Proposed: "), String(proposal?.summary ?? ""));
  note.append(el("span", "muted", " No longer open here: if you did not apply it then, ask again."));
  return note;
}

export function createLog(log, { apply, discard, onTitle }) {
  const cards = [];

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
    for (const message of messages) {
      if (message.role !== "user" && message.role !== "assistant") continue;
      last = bubble(message.role, message.content);
      log.append(last);
      const outlines = message.metadata?.proposals;
      for (const outline of Array.isArray(outlines) ? outlines : []) {
        const found = byId.get(outline?.id);
        byId.delete(outline?.id);
        if (found) addCard(last, found);
        else last.append(pastProposal(outline));
      }
    }
    if (byId.size) {
      const turn = el("article", "turn turn-answer");
      turn.append(el("p", "turn-label", "Assistant"));
      for (const found of byId.values()) addCard(turn, found);
      log.append(turn);
    }
    if (log.lastElementChild) scroll(log.lastElementChild);
  }

  function addUser(text) {
    const turn = bubble("user", text);
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
  function startAnswer(setStatus, retry) {
    const turn = el("article", "turn turn-answer");
    turn.setAttribute("aria-busy", "true");
    const body = el("div", "answer-text");
    turn.append(el("p", "turn-label", "Assistant"), body);
    log.append(turn);
    scroll(turn);
    let text = "";
    let pending = false;
    let failed = false;
    const paint = () => {
      pending = false;
      renderMarkdown(body, text);
    };
    const frames = {
      "text-delta": (frame) => {
        text += String(frame.delta ?? "");
        if (!pending) {
          pending = true;
          requestAnimationFrame(paint);
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
        turn.append(el("p", "ask-error", String(frame.errorText ?? "Error")));
      },
      finish: (frame) => {
        if (frame.finishReason === "error") failed = true;
      },
    };
    return {
      onFrame(frame) {
        frames[frame.type]?.(frame);
      },
      fail(message, retryable = true) {
        failed = retryable;
        turn.append(el("p", "ask-error", message));
      },
      done() {
        paint();
        turn.setAttribute("aria-busy", "false");
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
