// The conversation list: grouped Today / Yesterday / Earlier with relative times, a search
// box once there are more than six, and per thread an actions menu with inline rename,
// archive (or restore, on the archived shelf) and delete with a confirmation.
const NEW_TITLE = "New conversation";
const SEARCH_ABOVE = 6;
const DAY = 24 * 60 * 60 * 1000;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(className, text, label) {
  const node = el("button", className, text);
  node.type = "button";
  if (label) node.setAttribute("aria-label", label);
  return node;
}

function startOfDay(date) {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

export function groupOf(when, now = new Date()) {
  const days = Math.round((startOfDay(now) - startOfDay(when)) / DAY);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  return "Earlier";
}

export function relativeTime(when, now = new Date()) {
  const seconds = Math.max(0, Math.round((now.getTime() - when.getTime()) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return days === 1 ? "1 day ago" : `${days} days ago`;
  return when.toLocaleDateString();
}

export function createHistory(list, search, actions) {
  const state = { threads: [], current: null, query: "", archived: false, editing: null, confirming: null };

  function titleOf(thread) {
    return thread.title || NEW_TITLE;
  }

  function link(thread) {
    const open = button("thread-link", titleOf(thread));
    open.dataset.thread = thread.id;
    if (thread.id === state.current) open.setAttribute("aria-current", "true");
    // Seed 002: rows read "No reply yet" or "Still answering…".
    if (thread.replyInProgress) open.append(el("span", "thread-badge", "Still answering…"));
    else if (thread.replyInterrupted) open.append(el("span", "thread-badge", "Interrupted"));
    else if (thread.awaitingReply) open.append(el("span", "thread-badge", "No reply yet"));
    open.addEventListener("click", () => actions.open(thread.id));
    return open;
  }

  function renameForm(thread) {
    const form = el("form", "thread-rename");
    const input = el("input", "thread-rename-input");
    Object.assign(input, { value: titleOf(thread), maxLength: 200, required: true });
    input.setAttribute("aria-label", "New name of the conversation");
    form.append(input);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const title = input.value.trim();
      if (!title) return;
      state.editing = null;
      await actions.rename(thread.id, title);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        state.editing = null;
        render();
        list.querySelector(`[data-thread="${CSS.escape(thread.id)}"]`)?.focus();
      }
    });
    return { form, input };
  }

  function confirmDelete(thread) {
    const box = el("div", "thread-confirm");
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-label", `Delete “${titleOf(thread)}”?`);
    const yes = button("danger-button thread-delete-confirm", "Delete");
    const no = button("secondary-button thread-delete-cancel", "Cancel");
    box.append(el("p", "", `Delete “${titleOf(thread)}” for good?`), yes, no);
    yes.addEventListener("click", async () => {
      state.confirming = null;
      await actions.remove(thread.id);
    });
    no.addEventListener("click", () => {
      state.confirming = null;
      render();
    });
    return { box, yes };
  }

  function menu(thread) {
    const details = el("details", "thread-menu");
    const summary = el("summary", "thread-menu-button", "⋯");
    summary.setAttribute("aria-label", `Actions for “${titleOf(thread)}”`);
    const rename = button("thread-rename-button", "Rename");
    const shelf = button("thread-archive-button", state.archived ? "Restore" : "Archive");
    const remove = button("thread-delete-button", "Delete");
    const items = el("div", "thread-menu-items");
    items.append(rename, shelf, remove);
    details.append(summary, items);
    rename.addEventListener("click", () => {
      state.editing = thread.id;
      render();
    });
    shelf.addEventListener("click", () => actions.archive(thread.id, !state.archived));
    remove.addEventListener("click", () => {
      state.confirming = thread.id;
      render();
    });
    return details;
  }

  function row(thread) {
    const item = el("li", "thread-row");
    if (state.editing === thread.id) {
      const { form, input } = renameForm(thread);
      item.append(form);
      queueMicrotask(() => input.select());
      return item;
    }
    const when = new Date(thread.updatedAt);
    const time = el("time", "thread-time", relativeTime(when));
    time.dateTime = thread.updatedAt;
    item.append(link(thread), time, menu(thread));
    if (state.confirming === thread.id) {
      const { box, yes } = confirmDelete(thread);
      item.append(box);
      queueMicrotask(() => yes.focus());
    }
    return item;
  }

  function matches(thread) {
    return !state.query || titleOf(thread).toLowerCase().includes(state.query.toLowerCase());
  }

  function render() {
    search.hidden = state.threads.length <= SEARCH_ABOVE && !state.query;
    const shown = state.threads.filter(matches);
    const groups = new Map();
    for (const thread of shown) {
      const name = groupOf(new Date(thread.updatedAt));
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(thread);
    }
    const items = [];
    for (const [name, threads] of groups) {
      const group = el("li", "thread-group");
      const inner = el("ul", "thread-group-list");
      inner.append(...threads.map(row));
      group.append(el("h2", "thread-group-title", name), inner);
      items.push(group);
    }
    if (!items.length) {
      const empty = state.query ? "No conversation matches." : state.archived
        ? "No archived conversations." : "No conversations yet.";
      items.push(el("li", "muted thread-empty", empty));
    }
    list.replaceChildren(...items);
  }

  search.addEventListener("input", () => {
    state.query = search.value.trim();
    render();
  });

  return {
    state,
    render,
    set(threads, { current, archived }) {
      state.threads = threads;
      state.current = current;
      state.archived = archived;
      render();
    },
  };
}
