// A proposed change, shown as a card: the server's summary, the diff (for pages), and
// Apply / Discard. The confirmation token arrives only in the data-proposal frame (the
// model never sees it) and is forwarded at most once: the first click on either button
// takes it out of memory and disables both, so a second click has nothing to send.

const LABELS = {
  CreateSite: "Create a site",
  UpdateSite: "Change a site",
  DeleteSite: "Delete a site",
  WritePage: "Write a page",
  DeletePage: "Delete a page",
  AssignToolGrants: "Change tool grants",
  CreateInferenceProvider: "Add an inference provider",
  UpdateInferenceProvider: "Change an inference provider",
  DeleteInferenceProvider: "Delete an inference provider",
};
const MAX_DIFF_LINES = 400;

// Proposal ids already shown in this page: a frame seen again never comes back to life,
// whether it was applied, discarded or is still pending in another card.
const seen = new Set();

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function diffClass(line) {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-file";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return "diff-same";
}

function diffBlock(diff) {
  const lines = diff.replace(/\n$/, "").split("\n").slice(0, MAX_DIFF_LINES);
  const pre = el("pre", "proposal-diff");
  pre.tabIndex = 0;
  pre.setAttribute("aria-label", "Changes, line by line");
  const code = el("code");
  for (const line of lines) code.append(el("span", diffClass(line), line || " "));
  pre.append(code);
  const added = lines.filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
  const removed = lines.filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
  const details = el("details", "proposal-details");
  details.open = true;
  details.append(el("summary", "", `Changes: ${added} added, ${removed} removed`), pre);
  return details;
}

export function isProposal(data) {
  return Boolean(
    data && typeof data.id === "string" && typeof data.operation === "string" &&
      typeof data.summary === "string" && typeof data.token === "string" &&
      data.arguments && typeof data.arguments === "object",
  );
}

// Render one proposal into a card. apply(operation, args, token) performs the request.
export function proposalCard(data, { apply }) {
  if (!isProposal(data) || seen.has(data.id)) return null;
  seen.add(data.id);
  let token = data.token; // the only copy the page keeps
  const args = data.arguments;
  const card = el("section", "proposal");
  card.dataset.proposal = data.id;
  card.dataset.state = "pending";
  const titleId = `proposal-${data.id}`;
  card.setAttribute("aria-labelledby", titleId);
  const title = el("h3", "proposal-title", LABELS[data.operation] || data.operation);
  title.id = titleId;
  const badge = el("span", "proposal-badge", "Waiting for you");
  const head = el("div", "proposal-head");
  head.append(title, badge);
  card.append(head, el("p", "proposal-summary", data.summary));
  if (typeof data.diff === "string" && data.diff) card.append(diffBlock(data.diff));
  const applyButton = el("button", "primary-button proposal-apply", "Apply");
  applyButton.type = "button";
  const discardButton = el("button", "secondary-button proposal-discard", "Discard");
  discardButton.type = "button";
  const actions = el("div", "proposal-actions");
  actions.append(applyButton, discardButton);
  const status = el("p", "proposal-status");
  status.setAttribute("role", "status");
  card.append(actions, status);

  function take() {
    const taken = token;
    token = null;
    data.token = null;
    applyButton.disabled = true;
    discardButton.disabled = true;
    return taken;
  }

  function settle(state, badgeText, message) {
    card.dataset.state = state;
    badge.textContent = badgeText;
    status.textContent = message;
    status.scrollIntoView({ block: "nearest" });
  }

  // Once decided, a button stays inert even if something re-enables it.
  function spent() {
    if (token !== null) return false;
    applyButton.disabled = true;
    discardButton.disabled = true;
    return true;
  }

  applyButton.addEventListener("click", async () => {
    if (spent()) return;
    const sent = take();
    settle("applying", "Applying…", "Applying the change…");
    try {
      await apply(data.operation, args, sent);
      settle("applied", "Applied", "Applied. The change is saved.");
    } catch (error) {
      const reason = error?.message || "the server refused it";
      settle("failed", "Not applied", `Not applied: ${reason}. Ask the assistant to propose it again.`);
    }
  });
  discardButton.addEventListener("click", () => {
    if (spent()) return;
    take();
    settle("discarded", "Discarded", "Discarded. Nothing was changed.");
  });

  return {
    card,
    focus: () => applyButton.focus(),
    // Forget a still-pending proposal (the thread was left): its token is dropped.
    drop() {
      if (token === null) return;
      take();
      settle("discarded", "Discarded", "Discarded when you left this conversation.");
    },
  };
}
